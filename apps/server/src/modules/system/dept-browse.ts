import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiScopeCodes, deptResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { toForest, toPickerForest, type ResourceService, type Row } from '../../engine/resource-routes';
import { isAdministrator, requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import { dept } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { forbidden } from '../../platform/http/errors';
import { idValue, paramOf } from '../../platform/http/request-params';
import { categoryOf } from './dept-rules';
import { isId } from '../../platform/db/ids';
import { tenantRows } from '../../platform/tenancy/tenant-scope';

const base = `/api${deptResource.api}`;
const read = { apiScope: apiScopeCodes(deptResource.code).read };
const PAGING = new Set(['current', 'size', 'ascs', 'descs']);

/** Ids among `parentIds` that have at least one child the caller may see (matching `extra`). */
async function parentsWithChildren(
  ctx: AppContext,
  scope: SQL | undefined,
  parentIds: string[],
  extra?: SQL,
): Promise<Set<string>> {
  if (!parentIds.length) return new Set();
  const rows = await ctx.db
    .select({ parentId: dept.parentId, n: count() })
    .from(dept)
    .where(and(scope, inArray(dept.parentId, parentIds), extra))
    .groupBy(dept.parentId);
  return new Set(rows.map((r) => String(r.parentId)));
}

/** Ids are decimal strings: shorter is smaller, equal lengths compare as text. */
export const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

export const pickerNode = (r: Row, parentId = r.parentId) => ({
  id: r.id,
  parentId,
  title: r.deptName,
  key: r.id,
  value: r.id,
  deptCategory: r.deptCategory,
});

/** The browsing routes of the dept screen and its pickers. */
export function registerDeptBrowseRoutes(app: FastifyInstance, ctx: AppContext, service: ResourceService): void {
  const query = (request: FastifyRequest) => request.query as Record<string, unknown>;

  // The generic tree, plus `tenantId`: the platform administrator may name another tenant
  // (choosing a user's departments there); anyone else naming another tenant is refused.
  app.get(`${base}/tree`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const tenantId = paramOf(request, 'tenantId');
    const other = tenantId !== undefined && tenantId !== '' && tenantId !== auth.tenantId;
    if (other && (typeof tenantId !== 'string' || !isAdministrator(auth))) throw forbidden();
    const where = other ? tenantRows(dept, tenantId as string) : await service.readScope(auth);
    const rows = await ctx.db
      .select({ id: dept.id, parentId: dept.parentId, deptName: dept.deptName })
      .from(dept)
      .where(where)
      .orderBy(asc(dept.sort), asc(dept.id));
    return ok(toPickerForest(rows, 'parentId', 'deptName'));
  });

  // Children of one dept with `hasChildren`; a search without parentId looks at every level.
  app.get(`${base}/lazy-list`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const q = { ...query(request) };
    const searching = Object.entries(q).some(([k, v]) => k !== 'parentId' && !PAGING.has(k) && v !== '');
    if ((q.parentId === undefined || q.parentId === '') && !searching) q.parentId = '0';
    const rows = await service.all(q, auth);
    const withChildren = await parentsWithChildren(
      ctx,
      await service.readScope(auth),
      rows.map((r) => String(r.id)),
    );
    return ok(rows.map((r) => ({ ...r, hasChildren: withChildren.has(String(r.id)) })));
  });

  // Children of one dept as picker nodes, optionally of one category.
  app.get(`${base}/lazy-tree`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const parentId = idValue(paramOf(request, 'parentId'), 'parentId', '0');
    const category = categoryOf(paramOf(request, 'deptCategory'), 'deptCategory', false);
    const scope = await service.readScope(auth);
    const ofCategory = category === undefined ? undefined : eq(dept.deptCategory, category);
    const rows = await ctx.db
      .select(service.columns)
      .from(dept)
      .where(and(scope, eq(dept.parentId, parentId), ofCategory))
      .orderBy(asc(dept.sort), asc(dept.id));
    const withChildren = await parentsWithChildren(
      ctx,
      scope,
      rows.map((r) => String(r.id)),
      ofCategory,
    );
    return ok(rows.map((r) => ({ ...pickerNode(r), hasChildren: withChildren.has(String(r.id)) })));
  });

  // Depts of one category with the ancestors needed to reach them; ancestors are not selectable.
  app.get(`${base}/tree2`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const category = categoryOf(paramOf(request, 'deptCategory'), 'deptCategory', true) as number;
    return ok(await categoryTree(ctx, service, auth, category));
  });

  app.get(`${base}/listByCategory`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const category = categoryOf(paramOf(request, 'category'), 'category', true) as number;
    return ok(await service.all({ deptCategory_equal: String(category) }, auth));
  });
}

export async function categoryTree(ctx: AppContext, service: ResourceService, auth: AuthContext, category: number) {
  const scope = await service.readScope(auth);
  const matching = await ctx.db
    .select(service.columns)
    .from(dept)
    .where(and(scope, eq(dept.deptCategory, category)));
  const have = new Set(matching.map((r) => String(r.id)));
  const needed = [
    ...new Set(
      matching.flatMap((r) =>
        String(r.ancestors)
          .split(',')
          .filter((id) => id !== '0' && isId(id) && !have.has(id)),
      ),
    ),
  ];
  const ancestors = needed.length
    ? await ctx.db
        .select(service.columns)
        .from(dept)
        .where(and(scope, inArray(dept.id, needed)))
    : [];
  const rows = [...ancestors, ...matching].sort(
    (a, b) => Number(a.sort) - Number(b.sort) || compareIds(String(a.id), String(b.id)),
  );
  return toForest(
    rows.map((r) => ({ ...pickerNode(r), disabled: Number(r.deptCategory) !== category })),
    'parentId',
  );
}
