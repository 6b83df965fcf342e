import { and, asc, eq, inArray } from 'drizzle-orm';
import { MenuCategory } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { toPickerForest, type Row } from '../../engine/resource-routes';
import type { AuthContext } from '../../platform/auth/request-auth';
import { apiScope, dataScope, menu } from '../../platform/db/schema';
import {
  GRANT_KINDS,
  grantableBy,
  grantsOf,
  tenantRoles,
  withinGrantable,
  type GrantKind,
  type RoleGrants,
} from './role-grantable';

const menuNodeColumns = { id: menu.id, parentId: menu.parentId, title: menu.name, category: menu.category };

/** Live menus in `sort` order, so that the picker forest lists siblings as the side menu does. */
export async function liveMenus(ctx: AppContext, category?: number) {
  return ctx.db
    .select(menuNodeColumns)
    .from(menu)
    .where(and(eq(menu.isDeleted, 0), category ? eq(menu.category, category) : undefined))
    .orderBy(asc(menu.sort), asc(menu.id));
}

/**
 * The menus (and with `category` unset, their buttons) the caller may grant, as a picker
 * forest: the administrator every menu, anyone else the menus their own roles hold.
 */
export async function grantMenuTree(ctx: AppContext, auth: AuthContext, category?: number): Promise<Row[]> {
  const [rows, grantable] = await Promise.all([liveMenus(ctx, category), grantableBy(ctx.db, auth)]);
  const allowed = new Set(
    withinGrantable(
      grantable,
      'menu',
      rows.map((r) => r.id),
    ),
  );
  return toPickerForest(
    rows.filter((r) => allowed.has(r.id)),
    'parentId',
    'title',
  );
}

/** `grant-tree`: the menu, data-scope and API-scope trees the caller may grant, in one reply. */
export async function grantTrees(ctx: AppContext, auth: AuthContext): Promise<Record<GrantKind, Row[]>> {
  const [menuTree, dataScopeTree, apiScopeTree] = await Promise.all([
    grantMenuTree(ctx, auth),
    scopeGrantTree(ctx, auth, 'dataScope'),
    scopeGrantTree(ctx, auth, 'apiScope'),
  ]);
  return { menu: menuTree, dataScope: dataScopeTree, apiScope: apiScopeTree };
}

/**
 * `grant-data-scope-tree` / `grant-api-scope-tree`: the scopes the caller may grant, each a
 * leaf under the menu it belongs to, with the menus above it as inner nodes. A leaf's key is the
 * scope id and its title the scope name; inner nodes carry menu ids (which `role/grant` ignores
 * when they come back among `dataScopeIds` / `apiScopeIds`, as the BladeX dialog sends the
 * checked inner nodes too). Menus without grantable scopes below them are left out.
 */
export async function scopeGrantTree(
  ctx: AppContext,
  auth: AuthContext,
  kind: 'dataScope' | 'apiScope',
): Promise<Row[]> {
  const table = kind === 'dataScope' ? dataScope : apiScope;
  const [scopes, menus, grantable] = await Promise.all([
    ctx.db
      .select({ id: table.id, parentId: table.menuId, title: table.scopeName })
      .from(table)
      .where(eq(table.isDeleted, 0))
      .orderBy(asc(table.resourceCode), asc(table.id)),
    liveMenus(ctx, MenuCategory.MENU),
    grantableBy(ctx.db, auth),
  ]);
  const allowed = new Set(
    withinGrantable(
      grantable,
      kind,
      scopes.map((s) => s.id),
    ),
  );
  const leaves = scopes.filter((s) => allowed.has(s.id));
  const menuById = new Map(menus.map((m) => [m.id, m]));
  const inner = new Set<string>();
  for (const leaf of leaves) {
    for (let m = menuById.get(leaf.parentId); m && !inner.has(m.id); m = menuById.get(m.parentId)) inner.add(m.id);
  }
  return toPickerForest([...menus.filter((m) => inner.has(m.id)), ...leaves], 'parentId', 'title');
}

/**
 * What roles of the caller's tenant are granted. For a caller other than the administrator,
 * only the part within their own grants: the part they can see and change in the dialog.
 */
export async function roleTreeKeys(ctx: AppContext, auth: AuthContext, roleIds: string[]): Promise<RoleGrants> {
  await tenantRoles(ctx.db, auth, roleIds);
  const [held, grantable] = await Promise.all([grantsOf(ctx.db, roleIds), grantableBy(ctx.db, auth)]);
  const keys: RoleGrants = { menu: [], dataScope: [], apiScope: [] };
  for (const kind of GRANT_KINDS) keys[kind] = withinGrantable(grantable, kind, held[kind]);
  return keys;
}

/** Live menu ids among `ids`. */
export async function liveMenuIds(ctx: AppContext, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await ctx.db
    .select({ id: menu.id })
    .from(menu)
    .where(and(inArray(menu.id, ids), eq(menu.isDeleted, 0)));
  return new Set(rows.map((r) => r.id));
}
