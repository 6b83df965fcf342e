import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  bilingual,
  checkField,
  DEFAULT_TENANT_ID,
  invalidParamText,
  parseDateTime,
  TENANT_INFO_PATH,
  tenantResource,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { isPlatformCaller, requireAuth } from '../../platform/auth/request-auth';
import { datasource, tenant } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import { idValue, idsValue, paramOf } from '../../platform/http/request-params';
import { TenantMessages } from './tenant-provision';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

const base = `/api${tenantResource.api}`;
const TENANT_ID = /^[0-9A-Za-z]{1,12}$/;

const blank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

function platformCaller(request: FastifyRequest) {
  const auth = requireAuth(request);
  if (!isPlatformCaller(auth)) throw forbidden();
  return auth;
}

/** Tenant licence settings, datasource binding and the sign-in page's public tenant lookup. */
export function registerTenantSettingRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Account quota (-1 unlimited) and expiry (empty: never) of one or more tenants.
  app.post(`${base}/setting`, { config: { apiScope: 'tenant:setting' } }, async (request) => {
    const auth = platformCaller(request);
    const ids = idsValue(paramOf(request, 'ids'), 'ids');
    if (!ids.length) throw badRequest(bilingual('missingParam', 'ids'));
    const rawNumber = paramOf(request, 'accountNumber');
    const rawExpire = paramOf(request, 'expireTime');
    const numberError = checkField(tenantResource.fields.accountNumber, rawNumber, 'zh');
    if (numberError) throw badRequest(numberError);
    const expireError = checkField(tenantResource.fields.expireTime, rawExpire, 'zh');
    if (expireError) throw badRequest(expireError);
    const accountNumber = blank(rawNumber) ? -1 : Number(rawNumber);
    const expireTime = blank(rawExpire) ? null : (parseDateTime(String(rawExpire)) as Date);
    // Sessions of the tenant's users are checked against its expiry: tell every process.
    const publish = () => ctx.totals.changed(tenantResource.code, '*');
    await ctx.db
      .transaction(async (tx) => {
        const rows = await tx
          .select({ id: tenant.id, tenantId: tenant.tenantId })
          .from(tenant)
          .where(and(inArray(tenant.id, ids), eq(tenant.isDeleted, 0)))
          .for('update');
        if (rows.length !== new Set(ids).size) throw notFound(bilingual('rowNotFound'));
        // An expired platform tenant would lock every administrator out.
        if (expireTime && rows.some((r) => r.tenantId === DEFAULT_TENANT_ID))
          throw badRequest(TenantMessages.platformExpiry);
        await tx
          .update(tenant)
          .set({ accountNumber, expireTime, updateTime: new Date() })
          .where(inArray(tenant.id, ids));
        return rows;
      })
      .then((rows) =>
        ctx.logs.usual(auth, {
          logId: 'tenant.setting',
          logData: `租户 ${rows.map((r) => r.tenantId).join(',')} 授权配置:账号额度 ${accountNumber},过期时间 ${rawExpire ? String(rawExpire) : '不限'}`,
          request,
        }),
      )
      .finally(publish);
    return ok(true);
  });

  // Binds a tenant (by its tenant id, as BladeX sends it) to a datasource that exists.
  app.post(`${base}/datasource`, { config: { apiScope: 'tenant:datasource' } }, async (request) => {
    const auth = platformCaller(request);
    const tenantId = paramOf(request, 'tenantId');
    if (blank(tenantId)) throw badRequest(bilingual('missingParam', 'tenantId'));
    if (typeof tenantId !== 'string' || !TENANT_ID.test(tenantId.trim()))
      throw badRequest(invalidParamText('tenantId', { zh: '应为字母和数字', en: 'must be letters and digits' }));
    const datasourceId = idValue(paramOf(request, 'datasourceId'), 'datasourceId');
    const [source] = await ctx.db
      .select({ id: datasource.id })
      .from(datasource)
      .where(and(eq(datasource.id, datasourceId), eq(datasource.isDeleted, 0)));
    if (!source) throw badRequest(TenantMessages.datasourceMissing);
    const updated = await tenantScope(ctx.db, tenantId.trim())
      .update(tenant)
      .set({ datasourceId, updateUser: auth.userId, updateTime: new Date() })
      .where()
      .returning({ id: tenant.id });
    if (!updated.length) throw notFound(bilingual('rowNotFound'));
    ctx.logs.usual(auth, {
      logId: 'tenant.datasource',
      logData: `租户 ${tenantId.trim()} 绑定数据源 ${datasourceId}`,
      request,
    });
    return ok(true);
  });

  // Public: the sign-in page asks which tenant its domain belongs to. Only these three fields,
  // and nothing at all for an unknown domain.
  app.get(`/api${TENANT_INFO_PATH}`, { config: { public: true } }, async (request) => {
    const raw = (request.query as Record<string, unknown>).domain;
    const domain = typeof raw === 'string' ? raw.trim().replace(/\/+$/, '') : '';
    if (!domain || domain.length > 255) return ok({});
    const [found] = await ctx.db
      .select({ tenantId: tenant.tenantId, tenantName: tenant.tenantName, backgroundUrl: tenant.backgroundUrl })
      .from(tenant)
      .where(
        and(eq(tenant.isDeleted, 0), eq(tenant.status, 1), sql`lower(rtrim(${tenant.domain}, '/')) = lower(${domain})`),
      )
      .limit(1);
    return ok(found ?? {});
  });
}
