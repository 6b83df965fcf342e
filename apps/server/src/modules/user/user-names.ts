import { sql, type SQL } from 'drizzle-orm';

/** Qualified, because inside the subqueries a bare `tenant_id` would name the inner table's. */
const userColumn = (name: string) => sql`${sql.identifier('blade_user')}.${sql.identifier(name)}`;

/**
 * Names of the ids a user row holds, in the order the ids are listed, from rows of the user's
 * own tenant only (ids mean nothing outside their tenant).
 */
const namesOf = (table: string, nameColumn: string, ids: SQL): SQL<string> =>
  sql<string>`coalesce((select string_agg(n.${sql.identifier(nameColumn)}, ',' order by k.ord)
    from unnest(string_to_array(${ids}, ',')) with ordinality as k(id, ord)
    join ${sql.identifier(table)} n on n.id = (case when k.id ~ '^[0-9]{1,18}$' or (k.id ~ '^[0-9]{19}$' and k.id <= '9223372036854775807') then k.id::bigint end) and n.tenant_id = ${userColumn('tenant_id')} and n.is_deleted = 0), '')`;

const labelOf = (code: string, key: SQL): SQL<string> =>
  sql<string>`coalesce((select d.dict_value from blade_dict d
    where d.code = ${code} and d.parent_id <> 0 and d.dict_key = ${key}::text and d.is_deleted = 0 limit 1), '')`;

/**
 * The view fields of the user list (CONTRACT.md: roleName, deptName, postName, sexName,
 * userTypeName, tenantName), computed in the page query itself: PostgreSQL evaluates them for
 * the page's rows only, so a page costs one round trip whatever the table size.
 */
export const userViewColumns: Record<string, SQL> = {
  roleName: namesOf('blade_role', 'role_name', userColumn('role_id')),
  deptName: namesOf('blade_dept', 'dept_name', userColumn('dept_id')),
  postName: namesOf('blade_post', 'post_name', userColumn('post_id')),
  sexName: labelOf('sex', userColumn('sex')),
  userTypeName: labelOf('user_type', userColumn('user_type')),
  tenantName: sql<string>`coalesce((select t.tenant_name from blade_tenant t
    where t.tenant_id = ${userColumn('tenant_id')} and t.is_deleted = 0 limit 1), '')`,
};
