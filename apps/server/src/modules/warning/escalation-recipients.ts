import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { UserStatus, warningResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dataScopeCondition } from '../../engine/resource-access';
import { splitIds, type ScopeSubject } from '../../platform/auth/request-auth';
import { role, user, warning } from '../../platform/db/schema';
import { tenantScope, type Queryable } from '../../platform/tenancy/tenant-scope';

/** A user an escalation notifies. */
export interface Recipient {
  id: string;
  name: string;
  phone: string;
}

/**
 * The users an escalation of `warningId` to `roleId` notifies (docs/warnings.md "Escalation"):
 * the role's active users who could open the warning in the warnings list — the list's own data
 * scope (`dataScopeCondition` of the warning resource, on the warning's department) decided for
 * each user as if they were signed in now, with their current department and live roles. A user
 * of the role scoped to another department gets no notice, no SMS and no live popover about it.
 */
export async function escalationRecipients(
  ctx: AppContext,
  db: Queryable,
  { tenantId, roleId, warningId }: { tenantId: string; roleId: string; warningId: string },
): Promise<Recipient[]> {
  if (!roleId) return [];
  const scope = tenantScope(db, tenantId);
  const [users, roles] = await Promise.all([
    scope
      .select(user, {
        id: user.id,
        realName: user.realName,
        account: user.account,
        phone: user.phone,
        deptId: user.deptId,
        roleId: user.roleId,
      })
      .where(sql`${roleId}::text = any(string_to_array(${user.roleId}, ','))`, eq(user.status, UserStatus.active))
      .orderBy(asc(user.id)),
    // The tenant's live roles, as a session reads them (session-state.ts): a removed role grants nothing.
    scope.select(role, { id: role.id, alias: role.roleAlias }).where(),
  ]);
  if (!users.length) return [];
  const aliases = new Map(roles.map((r) => [String(r.id), r.alias]));
  const conditions = await Promise.all(
    users.map((u) => {
      const roleIds = splitIds(u.roleId).filter((id) => aliases.has(id));
      const subject: ScopeSubject = {
        tenantId,
        userId: String(u.id),
        deptId: u.deptId ?? '',
        roleIds,
        roleAliases: roleIds.map((id) => aliases.get(id) ?? ''),
      };
      return dataScopeCondition(warningResource, subject, ctx.grants);
    }),
  );
  // One read of the warning answers every user: column `u<i>` is whether user i's scope covers it.
  // The scope's columns are unqualified and resolve against `mes_warning`, the query's one table.
  const covers: Record<string, SQL<boolean>> = {};
  conditions.forEach((condition, i) => {
    covers[`u${i}`] = condition ? sql<boolean>`coalesce((${condition}), false)` : sql<boolean>`true`;
  });
  const [row] = await scope.select(warning, covers).where(eq(warning.id, warningId));
  if (!row) return [];
  return users
    .filter((_, i) => row[`u${i}`] === true)
    .map((u) => ({ id: String(u.id), name: u.realName || u.account, phone: (u.phone ?? '').trim() }));
}
