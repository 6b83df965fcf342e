import type { BilingualText } from '@mes/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../app-context';
import { ADMINISTRATOR_ROLE, isAdministrator, type AuthContext } from '../../platform/auth/request-auth';
import { nextId } from '../../platform/db/ids';
import { apiScope, dataScope, menu, roleMenu, roleScope } from '../../platform/db/schema';
import { badRequest, forbidden } from '../../platform/http/errors';
import { ScopeCategory } from '../../platform/permissions/grants';
import {
  GRANT_KINDS,
  grantableBy,
  tenantRoles,
  withinGrantable,
  type Executor,
  type GrantKind,
  type RoleGrants,
} from './role-grantable';

export interface GrantRequest {
  roleIds: string[];
  menuIds: string[];
  dataScopeIds: string[];
  apiScopeIds: string[];
}

export const GrantMessages = {
  escalation: { zh: '只能授予自己拥有的菜单和权限', en: 'You can only grant menus and permissions you hold yourself' },
  missing: (what: BilingualText) => ({
    zh: `${what.zh}不存在或已删除`,
    en: `${what.en} do not exist or have been deleted`,
  }),
} as const;

/** Postgres takes at most 65535 bound values per statement; rows here have four columns. */
const INSERT_CHUNK = 5000;

async function liveIds(db: Executor, table: typeof menu | typeof dataScope | typeof apiScope, ids: string[]) {
  if (!ids.length) return new Set<string>();
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, ids), eq(table.isDeleted, 0)));
  return new Set(rows.map((r) => r.id));
}

/**
 * Checks that every requested id names a live row. The BladeX role dialog sends the checked
 * keys of the scope trees, which include the menu nodes the scopes hang under
 * (see `menu-admin-grant-trees.ts`): those menu ids are dropped, anything else is refused.
 */
async function wantedGrants(db: Executor, request: GrantRequest): Promise<RoleGrants> {
  const menus = await liveIds(db, menu, request.menuIds);
  if (menus.size !== request.menuIds.length) throw badRequest(GrantMessages.missing({ zh: '菜单', en: 'Some menus' }));
  const scopes = async (table: typeof dataScope | typeof apiScope, ids: string[], what: BilingualText) => {
    const live = await liveIds(db, table, ids);
    const others = ids.filter((id) => !live.has(id));
    const menuNodes = await liveIds(db, menu, others);
    if (others.some((id) => !menuNodes.has(id))) throw badRequest(GrantMessages.missing(what));
    return ids.filter((id) => live.has(id));
  };
  return {
    menu: request.menuIds,
    dataScope: await scopes(dataScope, request.dataScopeIds, { zh: '数据权限', en: 'Some data permissions' }),
    apiScope: await scopes(apiScope, request.apiScopeIds, { zh: '接口权限', en: 'Some API permissions' }),
  };
}

/** Resources whose data scopes the roles hold, or would hold: their cached list totals go stale. */
async function dataScopeResources(db: Executor, roleIds: string[], scopeIds: string[]): Promise<Set<string>> {
  const held = await db
    .selectDistinct({ code: dataScope.resourceCode })
    .from(roleScope)
    .innerJoin(dataScope, eq(dataScope.id, roleScope.scopeId))
    .where(and(inArray(roleScope.roleId, roleIds), eq(roleScope.scopeCategory, ScopeCategory.DATA)));
  const wanted = scopeIds.length
    ? await db.selectDistinct({ code: dataScope.resourceCode }).from(dataScope).where(inArray(dataScope.id, scopeIds))
    : [];
  return new Set([...held, ...wanted].map((r) => r.code));
}

/** Inserts rows in statements small enough for PostgreSQL's limit of bound values. */
export async function insertChunked<T extends Record<string, unknown>>(
  rows: T[],
  insert: (chunk: T[]) => Promise<unknown>,
) {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await insert(rows.slice(i, i + INSERT_CHUNK));
}

/**
 * Replaces the menus, data scopes and API scopes of roles of the caller's tenant, in one
 * transaction. The administrator replaces everything; anyone else may only name what their
 * own roles hold, and only that part of the roles' grants is replaced: grants outside the
 * caller's reach (given by the administrator) stay as they are.
 */
export async function grantRoles(ctx: AppContext, auth: AuthContext, request: GrantRequest): Promise<void> {
  const resources = await ctx.db.transaction(async (tx) => {
    const roles = await tenantRoles(tx, auth, request.roleIds, true);
    if (!isAdministrator(auth) && roles.some((r) => r.roleAlias === ADMINISTRATOR_ROLE)) throw forbidden();
    const wanted = await wantedGrants(tx, request);
    const grantable = await grantableBy(tx, auth);
    if (GRANT_KINDS.some((kind) => withinGrantable(grantable, kind, wanted[kind]).length !== wanted[kind].length))
      throw badRequest(GrantMessages.escalation);

    const roleIds = roles.map((r) => r.id);
    const touched = await dataScopeResources(tx, roleIds, wanted.dataScope);
    const reach = (kind: GrantKind, column: typeof roleMenu.menuId | typeof roleScope.scopeId) =>
      grantable === 'all' ? undefined : inArray(column, [...grantable[kind]]);

    await tx.delete(roleMenu).where(and(inArray(roleMenu.roleId, roleIds), reach('menu', roleMenu.menuId)));
    await insertChunked(
      roleIds.flatMap((roleId) => wanted.menu.map((menuId) => ({ id: nextId(), roleId, menuId }))),
      (chunk) => tx.insert(roleMenu).values(chunk),
    );
    const scopeKinds = [
      ['dataScope', ScopeCategory.DATA],
      ['apiScope', ScopeCategory.API],
    ] as const;
    for (const [kind, scopeCategory] of scopeKinds) {
      await tx
        .delete(roleScope)
        .where(
          and(
            inArray(roleScope.roleId, roleIds),
            eq(roleScope.scopeCategory, scopeCategory),
            reach(kind, roleScope.scopeId),
          ),
        );
      await insertChunked(
        roleIds.flatMap((roleId) => wanted[kind].map((scopeId) => ({ id: nextId(), roleId, scopeCategory, scopeId }))),
        (chunk) => tx.insert(roleScope).values(chunk),
      );
    }
    return touched;
  });
  await ctx.grants.changed();
  ctx.logs.usual(auth, {
    logId: 'role.grant',
    logData: `角色 ${request.roleIds.join(',')} 授权:菜单 ${request.menuIds.length} 项,数据权限 ${request.dataScopeIds.length} 项,接口权限 ${request.apiScopeIds.length} 项`,
  });
  // List totals are cached per role set; a changed data scope changes what those roles count.
  await Promise.all([...resources].map((code) => ctx.totals.changed(code, auth.tenantId)));
}
