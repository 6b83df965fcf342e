import { asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { EnableStatus, SmsCategory } from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { secretBoxFor } from '../../../platform/crypto/secret-box';
import { sms } from '../../../platform/db/schema';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { badRequest, HttpError } from '../../../platform/http/errors';
import { outboundPolicy } from '../../../platform/net/outbound-policy';
import { revealsSecret } from '../../../platform/net/secret-text';
import { aliyunProvider } from './aliyun';
import { developmentProvider } from './development';
import { SETTING_LABELS, type SmsConfig, type SmsMessage, type SmsProvider } from './provider';
import { qiniuProvider } from './qiniu';
import { SmsMessages } from './sms-messages';
import { tencentProvider } from './tencent';
import { yunpianProvider } from './yunpian';

/** Providers by the configuration's `category` (dictionary `sms`). */
const PROVIDERS: Record<number, SmsProvider> = {
  [SmsCategory.yunpian]: yunpianProvider,
  [SmsCategory.qiniu]: qiniuProvider,
  [SmsCategory.aliyun]: aliyunProvider,
  [SmsCategory.tencent]: tencentProvider,
  [SmsCategory.development]: developmentProvider,
};

/** Every provider is given this long to answer. */
export const PROVIDER_TIMEOUT_MS = 5000;
/** Tencent Cloud takes at most 200 numbers a request, the others more; one limit for all. */
export const MAX_PHONES = 200;
export const PHONE = /^1\d{10}$/;

export function providerOf(category: unknown): SmsProvider {
  const provider = typeof category === 'number' ? PROVIDERS[category] : undefined;
  if (!provider) throw badRequest(SmsMessages.unknownProvider(category));
  return provider;
}

/** Refuses a configuration its provider cannot send with (checked on submit and before sending). */
export function checkSettings(config: Partial<Record<keyof SmsConfig, unknown>>): void {
  const provider = providerOf(config.category);
  const missing = provider.requires.filter((name) => {
    const value = config[name];
    return typeof value !== 'string' || !value.trim();
  });
  if (missing.length)
    throw badRequest(
      SmsMessages.missingSettings(
        provider.name,
        missing.map((n) => SETTING_LABELS[n]),
      ),
    );
}

type SmsRow = typeof sms.$inferSelect;

function toConfig(ctx: AppContext, row: SmsRow): SmsConfig {
  let secretKey: string;
  try {
    secretKey = secretBoxFor(ctx.dataDir).open(row.secretKey);
  } catch {
    throw badRequest(SmsMessages.secretUnreadable);
  }
  return {
    category: row.category,
    smsCode: row.smsCode,
    templateId: row.templateId,
    accessKey: row.accessKey,
    secretKey,
    appId: row.appId,
    regionId: row.regionId,
    signName: row.signName,
    endpoint: row.endpoint,
  };
}

/** The tenant's configuration named `code`; it must be enabled. */
export async function configByCode(ctx: AppContext, tenantId: string, code: string): Promise<SmsConfig> {
  const [row] = await tenantScope(ctx.db, tenantId).select(sms).where(eq(sms.smsCode, code)).limit(1);
  if (!row) throw badRequest(SmsMessages.configNotFound(code));
  if (row.status !== EnableStatus.enabled) throw badRequest(SmsMessages.configDisabled(code));
  return toConfig(ctx, row);
}

/** The tenant's enabled configuration (the `enable` operation keeps at most one), if any. */
export async function enabledConfig(ctx: AppContext, tenantId: string): Promise<SmsConfig | undefined> {
  const [row] = await tenantScope(ctx.db, tenantId)
    .select(sms)
    .where(eq(sms.status, EnableStatus.enabled))
    .orderBy(asc(sms.id))
    .limit(1);
  return row ? toConfig(ctx, row) : undefined;
}

/**
 * Sends through the configuration's provider; a refusal, timeout or network error is a 400 with
 * the reason. A provider's text that gives away the secret (echoed, encoded or half-masked) is
 * replaced whole: the tenant's administrator never sees the stored SecretKey.
 */
export async function sendSms(
  ctx: AppContext,
  config: SmsConfig,
  message: SmsMessage,
  log: FastifyBaseLogger,
): Promise<void> {
  checkSettings(config);
  const provider = providerOf(config.category);
  const outbound = await outboundPolicy(ctx.db);
  try {
    await provider.send(config, message, { now: () => ctx.clock.now(), log, timeoutMs: PROVIDER_TIMEOUT_MS, outbound });
  } catch (e) {
    if (e instanceof HttpError && revealsSecret(e.message, [config.secretKey]))
      throw badRequest(SmsMessages.failed(provider.name, SmsMessages.reasonHidden));
    throw e;
  }
}

/** `phones`: comma-joined (or a JSON array of) mainland numbers, deduplicated. */
export function parsePhones(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,，\s]+/) : [];
  const phones = [...new Set(parts.map((p) => String(p).trim()).filter(Boolean))];
  if (!phones.length) throw badRequest(SmsMessages.phonesRequired);
  const bad = phones.find((p) => !PHONE.test(p));
  if (bad !== undefined) throw badRequest(SmsMessages.phoneInvalid(bad.slice(0, 32)));
  if (phones.length > MAX_PHONES) throw badRequest(SmsMessages.tooManyPhones(MAX_PHONES));
  return phones;
}

/** `params`: the text of a JSON object of template variables (an object is taken as is); empty means none. */
export function parseTemplateParams(value: unknown): Record<string, string> {
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) return {};
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest(SmsMessages.paramsInvalid);
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest(SmsMessages.paramsInvalid);
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(parsed)) {
    if (typeof v === 'string') out[name] = v;
    else if (typeof v === 'number' && Number.isFinite(v)) out[name] = String(v);
    else throw badRequest(SmsMessages.paramValueInvalid(name.slice(0, 32)));
  }
  return out;
}
