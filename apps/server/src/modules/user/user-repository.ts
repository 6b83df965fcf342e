import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { role, tenant, user } from '../../platform/db/schema';
import { splitIds } from '../../platform/auth/request-auth';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

export type UserRow = typeof user.$inferSelect;
export type TenantRow = typeof tenant.$inferSelect;

export async function findUserByAccount(db: Db, tenantId: string, account: string): Promise<UserRow | undefined> {
  const rows = await tenantScope(db, tenantId).select(user).where(eq(user.account, account)).limit(1);
  return rows[0];
}

export async function findUserById(db: Db, tenantId: string, id: string): Promise<UserRow | undefined> {
  const rows = await tenantScope(db, tenantId).select(user).where(eq(user.id, id)).limit(1);
  return rows[0];
}

export async function findTenant(db: Db, tenantId: string): Promise<TenantRow | undefined> {
  const rows = await tenantScope(db, tenantId).select(tenant).where().limit(1);
  return rows[0];
}

/** The user's roles that still exist in their tenant, in the order the user lists them. */
export async function rolesOf(db: Db, u: Pick<UserRow, 'tenantId' | 'roleId'>) {
  const ids = splitIds(u.roleId);
  if (!ids.length) return [];
  const rows = await tenantScope(db, u.tenantId)
    .select(role, { id: role.id, roleName: role.roleName, roleAlias: role.roleAlias })
    .where(inArray(role.id, ids));
  return ids.flatMap((id) => rows.filter((r) => r.id === id));
}

export function isTenantExpired(t: TenantRow, nowMs: number): boolean {
  return t.expireTime !== null && t.expireTime.getTime() < nowMs;
}
