import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../../app-context';
import { secretBoxFor } from '../../../platform/crypto/secret-box';
import { socialSource } from '../../../platform/db/schema';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { providerConfig, ProviderError, ProviderMessages, type ProviderConfig } from './providers';

const SOURCE = /^[a-z][a-z0-9_-]{0,31}$/;

export const SourceMessages = {
  unknown: { zh: '第三方登录来源不存在或未启用', en: 'The third-party sign-in source does not exist or is disabled' },
} as const;

const enabled = eq(socialSource.status, 1);

/** The providers a tenant offers on its sign-in page: names only, never credentials. */
export async function enabledSources(ctx: AppContext, tenantId: string) {
  return tenantScope(ctx.db, tenantId)
    .select(socialSource, { source: socialSource.source, name: socialSource.name, category: socialSource.category })
    .where(enabled)
    .orderBy(asc(socialSource.source));
}

/** A tenant's enabled provider with its secret opened, or undefined. */
export async function findSource(
  ctx: AppContext,
  tenantId: string,
  source: unknown,
): Promise<{ source: string; redirectUri: string; config: ProviderConfig } | undefined> {
  if (typeof source !== 'string' || !SOURCE.test(source)) return undefined;
  const [row] = await tenantScope(ctx.db, tenantId)
    .select(socialSource)
    .where(enabled, eq(socialSource.source, source))
    .limit(1);
  if (!row) return undefined;
  let secret: string;
  try {
    secret = secretBoxFor(ctx.dataDir).open(row.clientSecret);
  } catch {
    // Sealed with another key (DATA_ENCRYPTION_KEY changed): the administrator must enter it again.
    throw new ProviderError(ProviderMessages.incomplete);
  }
  return { source: row.source, redirectUri: row.redirectUri, config: providerConfig({ ...row, clientSecret: secret }) };
}
