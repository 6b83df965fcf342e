import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { dept, dict, post, role, tenant, user } from '../../platform/db/schema';
import { rowsOfSameTenant, tenantRows } from '../../platform/tenancy/tenant-scope';

const { password: _password, ...publicColumns } = getTableColumns(user);

/** Names of the rows whose ids a comma-joined column lists, in the listed order. */
function namesFor(ids: SQL, table: typeof role | typeof dept | typeof post, name: SQL): SQL<string> {
  return sql<string>`coalesce((
    select string_agg(${name}, ',' order by array_position(${ids}, ${table.id}))
    from ${table}
    where ${rowsOfSameTenant(table, user, sql`${table.id} = any(${ids})`)}
  ), '')`;
}

const idsOf = (column: AnyPgColumn) => sql`string_to_array(nullif(${column}, ''), ',')::bigint[]`;

const dictLabel = (code: string, key: SQL) =>
  sql<string>`coalesce((
    select ${dict.dictValue} from ${dict}
    where ${dict.code} = ${code} and ${dict.parentId} <> 0 and ${dict.isDeleted} = 0 and ${dict.dictKey} = ${key}::text
    limit 1
  ), '')`;

const buildUserViewQuery = (db: Db) =>
  db
    .select({
      ...publicColumns,
      roleName: namesFor(idsOf(user.roleId), role, sql`${role.roleName}`),
      roleAlias: namesFor(idsOf(user.roleId), role, sql`${role.roleAlias}`),
      deptName: namesFor(idsOf(user.deptId), dept, sql`${dept.deptName}`),
      postName: namesFor(idsOf(user.postId), post, sql`${post.postName}`),
      tenantName: sql<string>`coalesce((select ${tenant.tenantName} from ${tenant} where ${rowsOfSameTenant(tenant, user)} limit 1), '')`,
      sexName: dictLabel('sex', sql`${user.sex}`),
      userTypeName: dictLabel('user_type', sql`${user.userType}`),
    })
    .from(user)
    .where(tenantRows(user, sql.placeholder('tenantId'), eq(user.id, sql.placeholder('id'))))
    .limit(1)
    // A named statement: PostgreSQL plans it once per connection instead of on every request.
    .prepare('user_view');

const prepared = new WeakMap<Db, ReturnType<typeof buildUserViewQuery>>();

/**
 * The user as clients see it, in one statement: every column but the password hash, plus the
 * names of its roles, departments, posts, tenant and dictionary values.
 */
export async function findUserView(db: Db, tenantId: string, id: string) {
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = buildUserViewQuery(db)));
  const rows = await query.execute({ tenantId, id });
  return rows[0];
}

export type UserView = NonNullable<Awaited<ReturnType<typeof findUserView>>>;
