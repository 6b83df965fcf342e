import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { invalidParamText, MenuCategory, MenuPaths } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { isAdministrator, requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import { menu, roleMenu, topMenu, topMenuSetting } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import { buildMenuForest, withoutEmptyGroups, type MenuRowLike } from './menu-tree';
import { isId } from '../../platform/db/ids';
import { tenantRows } from '../../platform/tenancy/tenant-scope';

const menuColumns = {
  id: menu.id,
  parentId: menu.parentId,
  code: menu.code,
  name: menu.name,
  nameEn: menu.nameEn,
  alias: menu.alias,
  path: menu.path,
  source: menu.source,
  sort: menu.sort,
  category: menu.category,
  action: menu.action,
  isOpen: menu.isOpen,
  remark: menu.remark,
};

/** Every live menu row the caller's roles are granted; the administrator role is granted all. */
async function grantedMenus(ctx: AppContext, auth: AuthContext): Promise<MenuRowLike[]> {
  const live = eq(menu.isDeleted, 0);
  if (isAdministrator(auth)) return ctx.db.select(menuColumns).from(menu).where(live);
  if (!auth.roleIds.length) return [];
  return ctx.db
    .selectDistinct(menuColumns)
    .from(menu)
    .innerJoin(roleMenu, eq(roleMenu.menuId, menu.id))
    .where(and(live, inArray(roleMenu.roleId, auth.roleIds)));
}

/** Menu ids a top menu of the caller's tenant shows, or undefined for "no top menu chosen". */
async function topMenuScope(ctx: AppContext, auth: AuthContext, topMenuId: unknown): Promise<Set<string> | undefined> {
  if (topMenuId === undefined || topMenuId === '' || topMenuId === '0') return undefined;
  if (typeof topMenuId !== 'string' || !isId(topMenuId)) {
    throw badRequest(invalidParamText('topMenuId', { zh: '应为编号', en: 'must be an id' }));
  }
  const rows = await ctx.db
    .select({ menuId: topMenuSetting.menuId })
    .from(topMenuSetting)
    .innerJoin(topMenu, eq(topMenu.id, topMenuSetting.topMenuId))
    .where(tenantRows(topMenu, auth.tenantId, eq(topMenu.id, topMenuId)));
  return new Set(rows.map((r) => r.menuId));
}

/** Ids of the menus that have a live screen under them: the groups, whoever is asking. */
async function menuParents(ctx: AppContext): Promise<Set<string>> {
  const rows = await ctx.db
    .selectDistinct({ parentId: menu.parentId })
    .from(menu)
    .where(and(eq(menu.isDeleted, 0), eq(menu.category, MenuCategory.MENU)));
  return new Set(rows.map((r) => r.parentId));
}

export function registerMenuRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`/api${MenuPaths.routes}`, { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const scope = await topMenuScope(ctx, auth, (request.query as Record<string, unknown>).topMenuId);
    const rows = (await grantedMenus(ctx, auth)).filter(
      (m) => m.category === MenuCategory.MENU && (!scope || scope.has(m.id)),
    );
    return ok(buildMenuForest(withoutEmptyGroups(rows, await menuParents(ctx))));
  });

  app.get(`/api${MenuPaths.buttons}`, { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const granted = await grantedMenus(ctx, auth);
    const byId = new Map(granted.map((m) => [m.id, m]));
    // Buttons hang under their screens: keep every granted button and the granted path above it.
    const keep = new Map<string, MenuRowLike>();
    for (const button of granted.filter((m) => m.category === MenuCategory.BUTTON)) {
      for (let node: MenuRowLike | undefined = button; node && !keep.has(node.id); node = byId.get(node.parentId)) {
        keep.set(node.id, node);
      }
    }
    return ok(buildMenuForest([...keep.values()]));
  });
}
