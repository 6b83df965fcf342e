import { inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../app-context';
import type { ChangeArgs, RemoveArgs, ResourceHooks } from '../../engine/resource-routes';
import { ADMINISTRATOR_ROLE, isAdministrator, type AuthContext } from '../../platform/auth/request-auth';
import { role, roleMenu, roleScope, user } from '../../platform/db/schema';
import { badRequest, forbidden } from '../../platform/http/errors';
import { subtreeIds } from './menu-admin-forest';
import type { Executor } from './role-grantable';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

export const RoleMessages = {
  reservedAlias: {
    zh: '角色别名 administrator 为平台超级管理员保留',
    en: 'The role alias administrator is reserved for the platform super administrator',
  },
  parentMissing: { zh: '上级角色不存在', en: 'The parent role does not exist' },
  parentCycle: {
    zh: '上级角色不能是自己或自己的下级',
    en: 'The parent role cannot be the role itself or one under it',
  },
  administratorRole: { zh: '超级管理员角色不能删除', en: 'The super administrator role cannot be deleted' },
  inUse: (names: string) => ({
    zh: `角色「${names}」仍分配给用户,请先解除用户的角色配置`,
    en: `The roles "${names}" are still assigned to users: remove them from the users first`,
  }),
} as const;

const isReservedAlias = (alias: unknown) => String(alias ?? '').toLowerCase() === ADMINISTRATOR_ROLE;

/** Live roles of the caller's tenant, as `{id, parentId}` links for cycle checks. */
export async function roleLinks(db: Executor, tenantId: string) {
  return tenantScope(db, tenantId).select(role, { id: role.id, parentId: role.parentId }).where();
}

/**
 * Only the platform administrator makes or edits an `administrator` role, and only in the
 * platform tenant: that alias is what makes a super administrator (`isAdministrator`), so any
 * other caller could otherwise promote themselves.
 */
function checkAlias({ auth, values, existing }: ChangeArgs): void {
  if (isReservedAlias(existing?.roleAlias) && !isAdministrator(auth)) throw forbidden();
  if (isReservedAlias(values.roleAlias) && !isAdministrator(auth)) throw badRequest(RoleMessages.reservedAlias);
}

async function checkParent({ tx, auth, values, existing }: ChangeArgs): Promise<void> {
  const parentId = String(values.parentId ?? existing?.parentId ?? '0');
  if (parentId === '0') return;
  const links = await roleLinks(tx, auth.tenantId);
  if (!links.some((r) => r.id === parentId)) throw badRequest(RoleMessages.parentMissing);
  if (existing && subtreeIds(links, String(existing.id)).has(parentId)) throw badRequest(RoleMessages.parentCycle);
}

async function refuseAssigned(tx: Executor, auth: AuthContext, rows: RemoveArgs['rows']): Promise<void> {
  if (rows.some((r) => isReservedAlias(r.roleAlias))) throw badRequest(RoleMessages.administratorRole);
  const ids = rows.map((r) => String(r.id));
  const assigned = await tenantScope(tx, auth.tenantId)
    .select(user, { roleId: user.roleId })
    .where(sql`string_to_array(${user.roleId}, ',') && ${sql.param(ids)}::text[]`);
  const used = new Set(assigned.flatMap((u) => u.roleId.split(',')));
  const names = rows.filter((r) => used.has(String(r.id))).map((r) => String(r.roleName));
  if (names.length) throw badRequest(RoleMessages.inUse(names.join('、')));
}

/** Submit and remove rules of roles (the engine has already applied tenant and validation). */
export function roleHooks(ctx: AppContext): ResourceHooks {
  return {
    async beforeChange(args) {
      checkAlias(args);
      await checkParent(args);
    },
    beforeRemove: ({ tx, auth, rows }) => refuseAssigned(tx, auth, rows),
    async afterRemove({ tx, rows, afterCommit }) {
      const ids = rows.map((r) => String(r.id));
      await tx.delete(roleMenu).where(inArray(roleMenu.roleId, ids));
      await tx.delete(roleScope).where(inArray(roleScope.roleId, ids));
      afterCommit(() => ctx.grants.changed());
    },
  };
}
