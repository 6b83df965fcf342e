import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { role, tenant, user } from '../../platform/db/schema';
import { splitIds } from '../../platform/auth/request-auth';

export type UserRow = typeof user.$inferSelect;
export type TenantRow = typeof tenant.$inferSelect;

export async function findUserByAccount(db: Db, tenantId: string, account: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(user)
    .where(and(eq(user.tenantId, tenantId), eq(user.account, account), eq(user.isDeleted, 0)))
    .limit(1);
  return rows[0];
}

export async function findUserById(db: Db, tenantId: string, id: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(user)
    .where(and(eq(user.tenantId, tenantId), eq(user.id, id), eq(user.isDeleted, 0)))
    .limit(1);
  return rows[0];
}

export async function findTenant(db: Db, tenantId: string): Promise<TenantRow | undefined> {
  const rows = await db
    .select()
    .from(tenant)
    .where(and(eq(tenant.tenantId, tenantId), eq(tenant.isDeleted, 0)))
    .limit(1);
  return rows[0];
}

/** The user's roles that still exist in their tenant, in the order the user lists them. */
export async function rolesOf(db: Db, u: Pick<UserRow, 'tenantId' | 'roleId'>) {
  const ids = splitIds(u.roleId);
  if (!ids.length) return [];
  const rows = await db
    .select({ id: role.id, roleName: role.roleName, roleAlias: role.roleAlias })
    .from(role)
    .where(and(eq(role.tenantId, u.tenantId), inArray(role.id, ids), eq(role.isDeleted, 0)));
  return ids.flatMap((id) => rows.filter((r) => r.id === id));
}

export function isTenantExpired(t: TenantRow, nowMs: number): boolean {
  return t.expireTime !== null && t.expireTime.getTime() < nowMs;
}
