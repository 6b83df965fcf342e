import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiScopeCodes, bilingual, invalidParamText, isEmptyValue, regionResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { assertOwnerAccess } from '../../engine/resource-access';
import { registerResource } from '../../engine/resource-routes';
import { requireAuth, splitIds } from '../../platform/auth/request-auth';
import { region } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { badRequest, notFound } from '../../platform/http/errors';
import { paramOf } from '../../platform/http/request-params';
import { REGION_CODE, regionHooks, ROOT_CODE } from './region-rules';

const base = `/api${regionResource.api}`;

function codeOf(value: unknown, name: string, fallback?: string): string {
  const v = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : String(value);
  if (v === '') {
    if (fallback !== undefined) return fallback;
    throw badRequest(bilingual('missingParam', name));
  }
  if (!REGION_CODE.test(v))
    throw badRequest(invalidParamText(name, { zh: '应为数字区划编号', en: 'must be a numeric region code' }));
  return v;
}

/**
 * BladeX removes a region with `remove?id=<code>`; the generic remove takes row ids (`ids`).
 * Both are accepted: codes become the ids of their live rows, then the generic removal runs.
 */
async function rowIdsOf(ctx: AppContext, request: FastifyRequest): Promise<unknown> {
  const ids = paramOf(request, 'ids');
  if (ids !== undefined && ids !== '') return ids;
  const raw = paramOf(request, 'id');
  if (raw === undefined || raw === null || raw === '') throw badRequest(bilingual('missingParam', 'id'));
  const codes = splitIds(String(raw)).map((c) => codeOf(c, 'id'));
  if (!codes.length) throw badRequest(bilingual('missingParam', 'id'));
  const rows = await ctx.db
    .select({ id: region.id })
    .from(region)
    .where(and(inArray(region.code, codes), eq(region.isDeleted, 0)));
  if (rows.length !== new Set(codes).size) throw notFound(bilingual('rowNotFound'));
  return rows.map((r) => r.id).join(',');
}

/**
 * The family keys a region submit by `code`: an existing code updates that region, a new one
 * adds it. Its screen sends the form of the last region shown, `id` included, when adding a
 * child, so `id` must not decide; it does only for a body without `code` (our own edit form).
 */
async function keyedByCode(ctx: AppContext, request: FastifyRequest): Promise<Record<string, unknown>> {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest();
  const { id, ...rest } = body as Record<string, unknown>;
  if (isEmptyValue(rest.code)) return { ...rest, id };
  const code = codeOf(rest.code, 'code');
  const [found] = await ctx.db
    .select({ id: region.id })
    .from(region)
    .where(and(eq(region.code, code), eq(region.isDeleted, 0)))
    .limit(1);
  return found ? { ...rest, id: found.id } : rest;
}

/** Regions: submit keyed by code, lazy tree by parent code, detail by code (children: the generic `select`). */
export function registerRegionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = registerResource(app, ctx, {
    def: regionResource,
    table: region,
    hooks: regionHooks(ctx.db),
    omit: ['remove', 'submit'],
  });
  const scopes = apiScopeCodes(regionResource.code);

  app.post(`${base}/submit`, { config: { apiScope: scopes.write } }, async (request) => {
    const auth = requireAuth(request);
    // Owner first: other tenants learn nothing about which codes exist.
    assertOwnerAccess(regionResource, auth, true);
    const result = await service.submit(await keyedByCode(ctx, request), auth);
    return ok(result.id, bilingual(result.adding ? 'added' : 'updated')[requestLanguage(request)]);
  });

  app.post(`${base}/remove`, { config: { apiScope: scopes.write } }, async (request) => {
    const auth = requireAuth(request);
    // Owner first: other tenants learn nothing about which codes exist.
    assertOwnerAccess(regionResource, auth, true);
    await service.remove(await rowIdsOf(ctx, request), auth);
    return ok(true, bilingual('removed')[requestLanguage(request)]);
  });

  // Address pickers on every tenant's screens read it, so any signed-in user may.
  app.get(`${base}/lazy-tree`, { config: { anyUser: true } }, async (request) => {
    const parentCode = codeOf(paramOf(request, 'parentCode'), 'parentCode', ROOT_CODE);
    const scope = await service.readScope(requireAuth(request));
    const rows = await ctx.db
      .select({ code: region.code, name: region.name, parentCode: region.parentCode, regionLevel: region.regionLevel })
      .from(region)
      .where(and(scope, eq(region.parentCode, parentCode)))
      .orderBy(asc(region.sort), asc(region.code));
    const codes = rows.map((r) => r.code);
    const parents = codes.length
      ? await ctx.db
          .select({ code: region.parentCode, n: count() })
          .from(region)
          .where(and(scope, inArray(region.parentCode, codes)))
          .groupBy(region.parentCode)
      : [];
    const withChildren = new Set(parents.map((p) => p.code));
    return ok(
      rows.map((r) => ({
        id: r.code,
        parentId: r.parentCode,
        key: r.code,
        value: r.code,
        title: r.name,
        regionLevel: r.regionLevel,
        hasChildren: withChildren.has(r.code),
      })),
    );
  });

  app.get(`${base}/detail`, { config: { apiScope: scopes.read } }, async (request) => {
    const code = codeOf(paramOf(request, 'code'), 'code');
    const auth = requireAuth(request);
    const [row] = await ctx.db
      .select(service.columns)
      .from(region)
      .where(and(await service.readScope(auth), eq(region.code, code)))
      .limit(1);
    if (!row) throw notFound(bilingual('rowNotFound'));
    const [shown] = await service.decorate([row], auth);
    return ok(shown);
  });
}
