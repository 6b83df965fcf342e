import type { NamedResource, NameLookups } from '../../engine/name-lookups';
import type { Row } from '../../engine/resource-routes';
import { splitIds } from '../../platform/auth/request-auth';
import { dept, post, role } from '../../platform/db/schema';

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

const joinNames = (names: ReadonlyMap<string, string>, ids: string) =>
  splitIds(ids)
    .map((id) => names.get(id))
    .filter((n): n is string => n !== undefined)
    .join(',');

const named = {
  role: { code: 'role', table: role, name: role.roleName, perTenant: true },
  dept: { code: 'dept', table: dept, name: dept.deptName, perTenant: true },
  post: { code: 'post', table: post, name: post.postName, perTenant: true },
} satisfies Record<string, NamedResource>;

/** The fields of a row `decorateUsers` reads. */
export const USER_DECORATE_READS = ['tenantId', 'userExt', 'roleId', 'deptId', 'postId'] as const;

/**
 * Adds the view fields of the user list (CONTRACT.md: roleName, deptName, postName) to the rows
 * being sent, in the row objects themselves (the request's own query results); the engine adds
 * the definition's own (sexName, userTypeName, tenantName). The names come from the in-memory
 * lookups, so a page costs no query beyond its own, whatever its size.
 */
export async function decorateUsers(lookups: NameLookups, rows: Row[]): Promise<Row[]> {
  if (!rows.length) return rows;
  const tenants = [...new Set(rows.map((r) => text(r.tenantId)))];
  const perTenant = new Map(
    await Promise.all(
      tenants.map(
        async (tenantId) =>
          [
            tenantId,
            await Promise.all([
              lookups.names(named.role, tenantId),
              lookups.names(named.dept, tenantId),
              lookups.names(named.post, tenantId),
            ]),
          ] as const,
      ),
    ),
  );
  // In place, like the engine's names: a copy of every wide row per page was most of this
  // hook's cost (docs/api.md, "Request path performance").
  for (const r of rows) {
    const [roles, depts, posts] = perTenant.get(text(r.tenantId)) ?? [new Map(), new Map(), new Map()];
    r.userExt = text(r.userExt);
    r.roleName = joinNames(roles, text(r.roleId));
    r.deptName = joinNames(depts, text(r.deptId));
    r.postName = joinNames(posts, text(r.postId));
  }
  return rows;
}
