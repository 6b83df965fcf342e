import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MenuCategory, menuResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, toForest, toPickerForest, type ResourceService } from '../../engine/resource-routes';
import { requireAuth } from '../../platform/auth/request-auth';
import { menu } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { grantTrees, liveMenus, roleTreeKeys, scopeGrantTree } from './menu-admin-grant-trees';
import { menuHooks } from './menu-admin-rules';
import { idParam, idsParam } from '../../platform/http/request-params';

const NOT_FILTERS = new Set(['parentId', 'current', 'size', 'ascs', 'descs']);

/**
 * Direct children of `parentId` (root by default) with `hasChildren`, for a lazily opened tree
 * table. As in BladeX, a search without `parentId` looks through every level instead.
 */
async function lazyChildren(ctx: AppContext, service: ResourceService, request: FastifyRequest, category?: number) {
  const auth = requireAuth(request);
  const query = { ...(request.query as Record<string, unknown>) };
  const searching = Object.keys(query).some((k) => !NOT_FILTERS.has(k));
  if (query.parentId === undefined || query.parentId === '') {
    if (searching) delete query.parentId;
    else query.parentId = '0';
  }
  if (category) query.category = String(category);
  const rows = await service.all(query, auth);
  const ids = rows.map((r) => String(r.id));
  const parents = ids.length
    ? await ctx.db
        .selectDistinct({ parentId: menu.parentId })
        .from(menu)
        .where(
          and(inArray(menu.parentId, ids), eq(menu.isDeleted, 0), category ? eq(menu.category, category) : undefined),
        )
    : [];
  const withChildren = new Set(parents.map((p) => p.parentId));
  return rows.map((r) => ({ ...r, hasChildren: withChildren.has(String(r.id)) }));
}

/** Menu management: tree, lazy lists, grant trees. */
export function registerMenuAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The parent picker of menus and of scopes: menus only, never buttons (as BladeX's tree).
  app.get('/api/blade-system/menu/tree', { config: { apiScope: 'menu:read' } }, async () =>
    ok(toPickerForest(await liveMenus(ctx, MenuCategory.MENU), 'parentId', 'title')),
  );
  const service = registerResource(app, ctx, {
    def: menuResource,
    table: menu,
    omit: ['tree'],
    hooks: {
      ...menuHooks(ctx),
      listParams: {
        names: ['parentId'],
        where: (query) => (query.parentId === undefined ? undefined : eq(menu.parentId, idParam(query, 'parentId'))),
      },
    },
  });
  const read = { config: { apiScope: 'menu:read' } };
  // The role grant dialog reads these; whoever may grant may see what they could grant.
  const grant = { config: { apiScope: 'role:grant' } };
  const query = (request: FastifyRequest) => request.query as Record<string, unknown>;

  app.get('/api/blade-system/menu/lazy-list', read, async (request) => ok(await lazyChildren(ctx, service, request)));
  app.get('/api/blade-system/menu/lazy-menu-list', read, async (request) =>
    ok(await lazyChildren(ctx, service, request, MenuCategory.MENU)),
  );
  app.get('/api/blade-system/menu/menu-list', read, async (request) => {
    const rows = await service.all({ ...query(request), category: String(MenuCategory.MENU) }, requireAuth(request));
    return ok(toForest(rows, 'parentId'));
  });

  // BladeX's GrantTreeVO: one call fills the whole 权限设置 dialog.
  app.get('/api/blade-system/menu/grant-tree', grant, async (request) =>
    ok(await grantTrees(ctx, requireAuth(request))),
  );
  app.get('/api/blade-system/menu/role-tree-keys', grant, async (request) =>
    ok(await roleTreeKeys(ctx, requireAuth(request), idsParam(query(request), 'roleIds', true))),
  );
  app.get('/api/blade-system/menu/grant-data-scope-tree', grant, async (request) =>
    ok(await scopeGrantTree(ctx, requireAuth(request), 'dataScope')),
  );
  app.get('/api/blade-system/menu/grant-api-scope-tree', grant, async (request) =>
    ok(await scopeGrantTree(ctx, requireAuth(request), 'apiScope')),
  );
}
