import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Row } from '../../crud/resource-routes';
import { splitIds } from '../../platform/auth/request-auth';
import type { Db } from '../../platform/db/database';
import { dept, dict, post, role, tenant } from '../../platform/db/schema';

const ID = /^\d{1,19}$/;
const unique = (values: string[]) => [...new Set(values)];
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const idsIn = (rows: Row[], column: string) =>
  unique(rows.flatMap((r) => splitIds(text(r[column])))).filter((id) => ID.test(id));

type Named = { tenantId: string; id: string; name: string };

/** Names keyed by tenant and id, since ids are only meaningful inside their own tenant. */
const byTenantAndId = (rows: Named[]) => new Map(rows.map((r) => [`${r.tenantId}:${r.id}`, r.name]));

function joinNames(names: Map<string, string>, tenantId: string, ids: string): string {
  return splitIds(ids)
    .map((id) => names.get(`${tenantId}:${id}`))
    .filter((n): n is string => n !== undefined)
    .join(',');
}

/**
 * Adds the view fields of the user list (CONTRACT.md: roleName, deptName, postName, sexName,
 * userTypeName, tenantName) to the rows being sent. One query per kind of name for the whole
 * page, so the cost does not grow with the page size or the table size.
 */
export async function decorateUsers(db: Db, rows: Row[]): Promise<Row[]> {
  if (!rows.length) return rows;
  const tenants = unique(rows.map((r) => text(r.tenantId)));
  const roleIds = idsIn(rows, 'roleId');
  const deptIds = idsIn(rows, 'deptId');
  const postIds = idsIn(rows, 'postId');

  const [roles, depts, posts, labels, tenantRows] = await Promise.all([
    roleIds.length
      ? db
          .select({ tenantId: role.tenantId, id: role.id, name: role.roleName })
          .from(role)
          .where(and(inArray(role.tenantId, tenants), inArray(role.id, roleIds), eq(role.isDeleted, 0)))
      : [],
    deptIds.length
      ? db
          .select({ tenantId: dept.tenantId, id: dept.id, name: dept.deptName })
          .from(dept)
          .where(and(inArray(dept.tenantId, tenants), inArray(dept.id, deptIds), eq(dept.isDeleted, 0)))
      : [],
    postIds.length
      ? db
          .select({ tenantId: post.tenantId, id: post.id, name: post.postName })
          .from(post)
          .where(and(inArray(post.tenantId, tenants), inArray(post.id, postIds), eq(post.isDeleted, 0)))
      : [],
    db
      .select({ code: dict.code, key: dict.dictKey, value: dict.dictValue })
      .from(dict)
      .where(and(inArray(dict.code, ['sex', 'user_type']), ne(dict.parentId, '0'), eq(dict.isDeleted, 0))),
    db
      .select({ tenantId: tenant.tenantId, name: tenant.tenantName })
      .from(tenant)
      .where(and(inArray(tenant.tenantId, tenants), eq(tenant.isDeleted, 0))),
  ]);

  const roleNames = byTenantAndId(roles);
  const deptNames = byTenantAndId(depts);
  const postNames = byTenantAndId(posts);
  const label = new Map(labels.map((l) => [`${l.code}:${l.key}`, l.value]));
  const tenantNames = new Map(tenantRows.map((t) => [t.tenantId, t.name]));

  return rows.map((r) => {
    const tenantId = text(r.tenantId);
    return {
      ...r,
      userExt: text(r.userExt),
      roleName: joinNames(roleNames, tenantId, text(r.roleId)),
      deptName: joinNames(deptNames, tenantId, text(r.deptId)),
      postName: joinNames(postNames, tenantId, text(r.postId)),
      sexName: label.get(`sex:${text(r.sex)}`) ?? '',
      userTypeName: label.get(`user_type:${text(r.userType)}`) ?? '',
      tenantName: tenantNames.get(tenantId) ?? '',
    };
  });
}
