import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { OssCategory, ossResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs, type RemoveArgs } from '../../engine/resource-routes';
import { attach, oss } from '../../platform/db/schema';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { badRequest } from '../../platform/http/errors';
import { destinationOf, OutboundError, refuseForbiddenUrl } from '../../platform/net/outbound-guard';
import { outboundPolicy } from '../../platform/net/outbound-policy';
import { registerStorageEndpoints } from './storage/endpoints';
import { LOCAL_OSS_CODE } from './storage/provider';
import { isKnownCategory, isS3Category, labelOf, S3_REQUIRED, StorageMessages } from './storage/tenant-storage';

export const OssMessages = {
  reservedCode: {
    zh: `资源编号 ${LOCAL_OSS_CODE} 只能用于本地磁盘`,
    en: `The resource code ${LOCAL_OSS_CODE} is reserved for the local disk`,
  },
  inUse: (code: string) => ({
    zh: `存储配置 ${code} 下还有附件,请先删除这些附件`,
    en: `Attachments are still stored under storage configuration ${code}: delete them first`,
  }),
  codeInUse: (code: string) => ({
    zh: `存储配置 ${code} 下还有附件,不能修改资源编号或服务商`,
    en: `Attachments are still stored under storage configuration ${code}: its resource code and provider cannot change`,
  }),
} as const;

type Tx = ChangeArgs['tx'];

async function hasAttachments(tx: Tx, tenantId: string, ossCode: string): Promise<boolean> {
  const [row] = await tenantScope(tx, tenantId)
    .select(attach, { id: attach.id })
    .where(eq(attach.ossCode, ossCode))
    .limit(1);
  return row !== undefined;
}

/**
 * A configuration is checked as a whole (the stored row overlaid by what was sent): a known
 * provider, everything an S3 call needs, an endpoint the platform's outbound policy allows, a
 * SecretKey typed again when the endpoint moves (the stored one never follows it to a new
 * address), and no change that would orphan stored attachments, which find their files through
 * the configuration's code.
 */
async function checkConfig(ctx: AppContext, { tx, auth, adding, values, existing }: ChangeArgs): Promise<void> {
  const pick = (name: string) => (values[name] !== undefined ? values[name] : existing?.[name]);
  const category = pick('category');
  const ossCode = String(pick('ossCode') ?? '');
  if (!isKnownCategory(category)) throw badRequest(StorageMessages.unknownProvider);
  if (ossCode === LOCAL_OSS_CODE && category !== OssCategory.local) throw badRequest(OssMessages.reservedCode);
  if (isS3Category(category)) {
    let storedSecret = '';
    if (!adding && existing) {
      const [row] = await tenantScope(tx, auth.tenantId)
        .select(oss, { secretKey: oss.secretKey })
        .where(eq(oss.id, String(existing.id)));
      storedSecret = row?.secretKey ?? '';
    }
    for (const field of S3_REQUIRED) {
      const value = field === 'secretKey' ? (values.secretKey ?? storedSecret) : pick(field);
      if (typeof value !== 'string' || !value.trim()) throw badRequest(StorageMessages.incomplete(labelOf(field)));
    }
    const retyped = typeof values.secretKey === 'string' && values.secretKey !== '';
    if (existing && !retyped && storedSecret && destinationOf(pick('endpoint')) !== destinationOf(existing.endpoint))
      throw badRequest(StorageMessages.secretForNewEndpoint);
    try {
      await refuseForbiddenUrl(await outboundPolicy(ctx.db), String(pick('endpoint')));
    } catch (e) {
      if (e instanceof OutboundError) throw badRequest(e.text);
      throw e;
    }
  }
  if (existing && (existing.ossCode !== ossCode || existing.category !== category)) {
    if (await hasAttachments(tx, auth.tenantId, String(existing.ossCode))) {
      throw badRequest(OssMessages.codeInUse(String(existing.ossCode)));
    }
  }
}

async function refuseRemovingUsed({ tx, auth, rows }: RemoveArgs): Promise<void> {
  for (const row of rows) {
    const code = String(row.ossCode);
    if (await hasAttachments(tx, auth.tenantId, code)) throw badRequest(OssMessages.inUse(code));
  }
}

/**
 * Object-storage configurations (list, detail, submit, remove, export, enable) and the upload
 * endpoints that use them.
 */
export function registerOssRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: ossResource,
    table: oss,
    hooks: { beforeChange: (args) => checkConfig(ctx, args), beforeRemove: refuseRemovingUsed },
  });
  registerStorageEndpoints(app, ctx);
}
