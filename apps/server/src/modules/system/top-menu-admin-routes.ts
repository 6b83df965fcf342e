import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bilingual, MenuCategory, topMenuResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import { nextId } from '../../platform/db/ids';
import { menu, topMenu, topMenuSetting } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { grantMenuTree, liveMenuIds } from './menu-admin-grant-trees';
import { insertChunked } from './role-grant';
import type { Executor } from './role-grantable';
import { idsParam, paramsOf } from '../../platform/http/request-params';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

/** Live top menus of the caller's tenant; any other id refuses the request. */
async function tenantTopMenus(db: Executor, auth: AuthContext, ids: string[], lock = false): Promise<string[]> {
  const query = tenantScope(db, auth.tenantId).select(topMenu, { id: topMenu.id }).where(inArray(topMenu.id, ids));
  const rows = lock ? await query.for('update') : await query;
  if (rows.length !== ids.length) throw notFound(bilingual('rowNotFound'));
  return rows.map((r) => r.id);
}

/**
 * Top menus and the menus granted to them. A top menu only narrows the side menu to its menus
 * (what the caller's roles grant still applies), so choosing menus grants nobody anything.
 */
export function registerTopMenuAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: topMenuResource,
    table: topMenu,
    hooks: {
      async afterRemove({ tx, rows }) {
        await tx.delete(topMenuSetting).where(
          inArray(
            topMenuSetting.topMenuId,
            rows.map((r) => String(r.id)),
          ),
        );
      },
    },
  });
  const grant = { config: { apiScope: 'topmenu:grant' } };

  /** Replaces the menus of top menus of the caller's tenant. */
  app.post('/api/blade-system/topmenu/grant', grant, async (request) => {
    const auth = requireAuth(request);
    const params = paramsOf(request);
    const topMenuIds = idsParam(params, 'topMenuIds', true);
    const menuIds = idsParam(params, 'menuIds', false);
    if ((await liveMenuIds(ctx, menuIds)).size !== menuIds.length)
      throw badRequest({ zh: '菜单不存在或已删除', en: 'A menu does not exist or has been deleted' });
    await ctx.db.transaction(async (tx) => {
      const ids = await tenantTopMenus(tx, auth, topMenuIds, true);
      await tx.delete(topMenuSetting).where(inArray(topMenuSetting.topMenuId, ids));
      const rows = ids.flatMap((topMenuId) => menuIds.map((menuId) => ({ id: nextId(), topMenuId, menuId })));
      await insertChunked(rows, (chunk) => tx.insert(topMenuSetting).values(chunk));
    });
    return ok(true);
  });

  /** The menus (no buttons) the caller may put under a top menu. */
  app.get('/api/blade-system/menu/grant-top-tree', grant, async (request) =>
    ok(await grantMenuTree(ctx, requireAuth(request), MenuCategory.MENU)),
  );

  app.get('/api/blade-system/menu/top-tree-keys', grant, async (request) => {
    const auth = requireAuth(request);
    const ids = await tenantTopMenus(
      ctx.db,
      auth,
      idsParam(request.query as Record<string, unknown>, 'topMenuIds', true),
    );
    const rows = await ctx.db
      .selectDistinct({ id: topMenuSetting.menuId })
      .from(topMenuSetting)
      .innerJoin(menu, and(eq(menu.id, topMenuSetting.menuId), eq(menu.isDeleted, 0)))
      .where(inArray(topMenuSetting.topMenuId, ids))
      .orderBy(topMenuSetting.menuId);
    return ok({ menu: rows.map((r) => r.id) });
  });
}
