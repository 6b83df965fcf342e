import { and, eq, inArray } from 'drizzle-orm';
import { bilingual } from '@mes/contracts';
import type { ChangeArgs } from '../../engine/resource-routes';
import { isAdministrator, type AuthContext } from '../../platform/auth/request-auth';
import type { Db } from '../../platform/db/database';
import { apiScope, dataScope, menu, role, roleMenu, roleScope } from '../../platform/db/schema';
import { notFound } from '../../platform/http/errors';
import { ScopeCategory } from '../../platform/permissions/grants';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

export type Executor = Db | ChangeArgs['tx'];

/** The three things a role is granted, as in `role-tree-keys` (CONTRACT.md). */
export interface RoleGrants {
  menu: string[];
  dataScope: string[];
  apiScope: string[];
}

export type GrantKind = keyof RoleGrants;
export const GRANT_KINDS: readonly GrantKind[] = ['menu', 'dataScope', 'apiScope'];

/**
 * What a caller may hand out: the administrator everything (`'all'`), anyone else only what
 * their own roles hold, so that granting can never widen anybody's rights beyond the granter's.
 */
export type Grantable = 'all' | Record<GrantKind, ReadonlySet<string>>;

/** Live menus and scopes granted to any of the roles. */
export async function grantsOf(db: Executor, roleIds: readonly string[]): Promise<RoleGrants> {
  if (!roleIds.length) return { menu: [], dataScope: [], apiScope: [] };
  const ids = [...roleIds];
  const scopeRows = (category: number, table: typeof dataScope | typeof apiScope) =>
    db
      .selectDistinct({ id: roleScope.scopeId })
      .from(roleScope)
      .innerJoin(table, and(eq(table.id, roleScope.scopeId), eq(table.isDeleted, 0)))
      .where(and(inArray(roleScope.roleId, ids), eq(roleScope.scopeCategory, category)))
      .orderBy(roleScope.scopeId);
  // One after another: `db` may be a transaction's single client, which runs one query at a time
  // anyway (and pg deprecates queueing several on it at once).
  const menus = await db
    .selectDistinct({ id: roleMenu.menuId })
    .from(roleMenu)
    .innerJoin(menu, and(eq(menu.id, roleMenu.menuId), eq(menu.isDeleted, 0)))
    .where(inArray(roleMenu.roleId, ids))
    .orderBy(roleMenu.menuId);
  const data = await scopeRows(ScopeCategory.DATA, dataScope);
  const api = await scopeRows(ScopeCategory.API, apiScope);
  const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id);
  return { menu: idsOf(menus), dataScope: idsOf(data), apiScope: idsOf(api) };
}

export async function grantableBy(db: Executor, auth: AuthContext): Promise<Grantable> {
  if (isAdministrator(auth)) return 'all';
  const held = await grantsOf(db, auth.roleIds);
  return { menu: new Set(held.menu), dataScope: new Set(held.dataScope), apiScope: new Set(held.apiScope) };
}

/** Keeps the ids the caller may grant. */
export function withinGrantable(grantable: Grantable, kind: GrantKind, ids: readonly string[]): string[] {
  return grantable === 'all' ? [...ids] : ids.filter((id) => grantable[kind].has(id));
}

export interface TenantRole {
  id: string;
  parentId: string;
  roleName: string;
  roleAlias: string;
}

/**
 * The live roles of the caller's tenant with these ids; any other id (another tenant's role, a
 * removed or unknown one) refuses the whole request alike, so that nothing tells them apart.
 * `lock` serialises concurrent grants of the same roles inside a transaction.
 */
export async function tenantRoles(
  db: Executor,
  auth: AuthContext,
  ids: readonly string[],
  lock = false,
): Promise<TenantRole[]> {
  const query = tenantScope(db, auth.tenantId)
    .select(role, { id: role.id, parentId: role.parentId, roleName: role.roleName, roleAlias: role.roleAlias })
    .where(inArray(role.id, [...ids]));
  const rows = lock ? await query.for('update') : await query;
  if (rows.length !== new Set(ids).size) throw notFound(bilingual('rowNotFound'));
  return rows;
}
