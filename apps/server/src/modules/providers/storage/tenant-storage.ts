import { eq } from 'drizzle-orm';
import { type BilingualText, EnableStatus, OssCategory, ossResource } from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { secretBoxFor } from '../../../platform/crypto/secret-box';
import { oss } from '../../../platform/db/schema';
import { tenantScope, type Queryable } from '../../../platform/tenancy/tenant-scope';
import { badRequest } from '../../../platform/http/errors';
import { outboundPolicy } from '../../../platform/net/outbound-policy';
import { LocalDiskStorage } from './local-disk';
import { LOCAL_OSS_CODE, type StorageProvider } from './provider';
import { S3Storage } from './s3-storage';

type OssRow = typeof oss.$inferSelect;
/** A query runner: the pool, or the transaction a hook runs in. */

export const StorageMessages = {
  noConfig: (code: string) => ({
    zh: `存储配置 ${code} 不存在`,
    en: `The storage configuration ${code} does not exist`,
  }),
  disabled: (code: string) => ({
    zh: `存储配置 ${code} 未启用,请先启用后再上传`,
    en: `The storage configuration ${code} is not enabled: enable it before uploading`,
  }),
  unknownProvider: { zh: '未知的存储服务商', en: 'Unknown storage provider' },
  incomplete: (label: BilingualText) => ({
    zh: `存储配置不完整:请填写${label.zh}`,
    en: `The storage configuration is incomplete: enter the ${label.en}`,
  }),
  badSecret: {
    zh: '存储配置的 SecretKey 无法解密,请重新填写',
    en: 'The SecretKey of the storage configuration cannot be decrypted: enter it again',
  },
  configGone: (code: string) => ({
    zh: `附件所在的存储配置 ${code} 已不存在`,
    en: `The storage configuration ${code} of this attachment no longer exists`,
  }),
  secretForNewEndpoint: {
    zh: '资源地址已修改,请重新输入 SecretKey',
    en: 'The endpoint has changed: enter the SecretKey again',
  },
} as const;

const S3_CATEGORIES: ReadonlySet<number> = new Set([
  OssCategory.minio,
  OssCategory.qiniu,
  OssCategory.aliyun,
  OssCategory.tencent,
]);
export const isKnownCategory = (category: unknown) =>
  typeof category === 'number' && (S3_CATEGORIES.has(category) || category === OssCategory.local);
export const isS3Category = (category: unknown) => typeof category === 'number' && S3_CATEGORIES.has(category);

/** Fields an S3-compatible configuration cannot work without, with their form labels. */
export const S3_REQUIRED = ['endpoint', 'accessKey', 'secretKey', 'bucketName'] as const;
export const labelOf = (field: (typeof S3_REQUIRED)[number]): BilingualText => ossResource.fields[field].label;

/** The provider a configuration describes; its secret is opened only here, for the call. */
export function providerFor(ctx: AppContext, row: OssRow): StorageProvider {
  if (row.category === OssCategory.local) return new LocalDiskStorage(ctx.dataDir, row.ossCode);
  if (!isS3Category(row.category)) throw badRequest(StorageMessages.unknownProvider);
  for (const field of S3_REQUIRED) {
    if (!row[field].trim()) throw badRequest(StorageMessages.incomplete(labelOf(field)));
  }
  let secretKey: string;
  try {
    secretKey = secretBoxFor(ctx.dataDir).open(row.secretKey);
  } catch {
    throw badRequest(StorageMessages.badSecret);
  }
  return new S3Storage(
    {
      ossCode: row.ossCode,
      category: row.category,
      endpoint: row.endpoint,
      accessKey: row.accessKey,
      secretKey,
      bucketName: row.bucketName,
      appId: row.appId,
      region: row.region,
    },
    () => outboundPolicy(ctx.db),
  );
}

async function configByCode(db: Queryable, tenantId: string, code: string): Promise<OssRow | undefined> {
  const [row] = await tenantScope(db, tenantId).select(oss).where(eq(oss.ossCode, code)).limit(1);
  return row;
}

/**
 * Where a new upload goes: the configuration named by `code` (which must be enabled), else the
 * tenant's enabled configuration, else the server's disk.
 */
export async function uploadTarget(ctx: AppContext, tenantId: string, code?: string): Promise<StorageProvider> {
  if (code) {
    const row = await configByCode(ctx.db, tenantId, code);
    if (!row) throw badRequest(StorageMessages.noConfig(code));
    if (row.status !== EnableStatus.enabled) throw badRequest(StorageMessages.disabled(code));
    return providerFor(ctx, row);
  }
  const [enabled] = await tenantScope(ctx.db, tenantId)
    .select(oss)
    .where(eq(oss.status, EnableStatus.enabled))
    .limit(1);
  return enabled ? providerFor(ctx, enabled) : new LocalDiskStorage(ctx.dataDir, LOCAL_OSS_CODE);
}

/**
 * Where a stored attachment lives: the configuration that stored it, enabled or not (a
 * disabled configuration still holds its files), or the disk for `local`.
 */
export async function storageOf(
  ctx: AppContext,
  db: Queryable,
  tenantId: string,
  ossCode: string,
): Promise<StorageProvider> {
  const row = await configByCode(db, tenantId, ossCode);
  if (row) return providerFor(ctx, row);
  if (ossCode === LOCAL_OSS_CODE) return new LocalDiskStorage(ctx.dataDir, LOCAL_OSS_CODE);
  throw badRequest(StorageMessages.configGone(ossCode));
}
