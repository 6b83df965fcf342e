import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { dept, post, role, tenant, user } from '../../platform/db/schema';
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

function namesOf<T extends { id: string }>(rows: T[], ids: string[], name: (r: T) => string): string {
  return ids
    .map((id) => rows.find((r) => r.id === id))
    .filter((r): r is T => r !== undefined)
    .map(name)
    .join(',');
}

/** Department and post names for the user view (comma-joined, like the ids). */
export async function orgNamesOf(db: Db, u: Pick<UserRow, 'tenantId' | 'deptId' | 'postId'>) {
  const deptIds = splitIds(u.deptId);
  const postIds = splitIds(u.postId);
  const [depts, posts] = await Promise.all([
    deptIds.length
      ? db
          .select({ id: dept.id, deptName: dept.deptName })
          .from(dept)
          .where(and(eq(dept.tenantId, u.tenantId), inArray(dept.id, deptIds)))
      : [],
    postIds.length
      ? db
          .select({ id: post.id, postName: post.postName })
          .from(post)
          .where(and(eq(post.tenantId, u.tenantId), inArray(post.id, postIds)))
      : [],
  ]);
  return {
    deptName: namesOf(depts, deptIds, (d) => d.deptName),
    postName: namesOf(posts, postIds, (p) => p.postName),
  };
}

export function isTenantExpired(t: TenantRow, nowMs: number): boolean {
  return t.expireTime !== null && t.expireTime.getTime() < nowMs;
}
