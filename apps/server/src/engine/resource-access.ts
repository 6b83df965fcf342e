import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { apiScopeCodes, type ResourceDef } from '@mes/contracts';
import {
  isAdministrator,
  isPlatformCaller,
  splitIds,
  type AuthContext,
  type ScopeSubject,
} from '../platform/auth/request-auth';
import { forbidden } from '../platform/http/errors';
import { coversRoute, type GrantService } from '../platform/permissions/grants';
import { liveRows, tenantRows, type TenantOwnedTable } from '../platform/tenancy/tenant-scope';

/** The columns every resource table has, as the generic routes use them. */
export interface ResourceTableColumns {
  id: PgColumn;
  tenantId?: PgColumn;
  isDeleted?: PgColumn;
}

export type AnyResourceTable = PgTable & ResourceTableColumns;

/**
 * Who may touch the rows at all: platform resources only the platform tenant; shared resources
 * every tenant may read and only the platform tenant may change.
 */
export function assertOwnerAccess(def: ResourceDef, auth: AuthContext, writing: boolean): void {
  if (def.owner === 'platform' && !isPlatformCaller(auth)) throw forbidden();
  if (def.owner === 'shared' && writing && !isPlatformCaller(auth)) throw forbidden();
}

/**
 * Whether the caller reads every tenant's rows of the resource (`platformSeesAllTenants`):
 * the platform tenant does, for reads only.
 */
export const readsAllTenants = (def: ResourceDef, auth: AuthContext) =>
  def.owner === 'tenant' && def.platformSeesAllTenants === true && isPlatformCaller(auth);

/**
 * Live rows of the caller's tenant: how the engine applies the tenancy primitive
 * (platform/tenancy) to generic queries. Only tenant-owned resources are scoped (blade_tenant
 * has a `tenant_id` column too: its own id). `reach: 'view'` is for the generic reads (list,
 * detail, export), which the platform makes across tenants where the definition says so; every
 * write and every other read uses `own`.
 */
export function rowScope(
  def: ResourceDef,
  table: AnyResourceTable,
  auth: AuthContext,
  reach: 'own' | 'view' = 'own',
): SQL | undefined {
  const scoped = def.owner === 'tenant' && table.tenantId && !(reach === 'view' && readsAllTenants(def, auth));
  return scoped ? tenantRows(table as TenantOwnedTable, auth.tenantId) : liveRows(table);
}

/** Departments below any of `deptIds` (and those themselves), as a subquery. */
const deptAndChildren = (deptIds: string[]) =>
  sql`(select d.id from blade_dept d where d.is_deleted = 0 and (d.id = any(${sql.param(deptIds)}::bigint[]) or string_to_array(d.ancestors, ',') && ${sql.param(deptIds)}::text[]))`;

/**
 * The caller's data scope for a resource that declares one (CONTRACT.md: 1 all, 2 own, 3 own
 * department, 4 department and children, 5 custom). Several granted scopes widen each other;
 * none granted means no restriction, as in BladeX. Column names come from the definition, never
 * from the request.
 */
export async function dataScopeCondition(
  def: ResourceDef,
  auth: ScopeSubject,
  grants: GrantService,
): Promise<SQL | undefined> {
  if (!def.dataScope || isAdministrator(auth)) return undefined;
  const scopes = await grants.dataScopes(auth.roleIds, def.code);
  if (!scopes.length || scopes.some((s) => s.scopeType === 1)) return undefined;
  const userCol = sql.identifier(def.dataScope.userColumn ?? 'create_user');
  const deptColName = def.dataScope.deptColumn ?? 'create_dept';
  const myDepts = splitIds(auth.deptId);
  const deptIn = (ids: SQL | string[]) => {
    const col = sql.identifier(deptColName);
    if (def.dataScope?.deptColumnIsList) {
      return Array.isArray(ids)
        ? sql`string_to_array(${col}, ',') && ${sql.param(ids)}::text[]`
        : sql`string_to_array(${col}, ',') && array(select x::text from ${ids} as s(x))`;
    }
    return Array.isArray(ids) ? sql`${col} = any(${sql.param(ids)}::bigint[])` : sql`${col} in ${ids}`;
  };
  const parts: SQL[] = [];
  for (const scope of scopes) {
    switch (scope.scopeType) {
      case 2:
        parts.push(sql`${userCol} = ${auth.userId}`);
        break;
      case 3:
        parts.push(deptIn(myDepts));
        break;
      case 4:
        parts.push(deptIn(deptAndChildren(myDepts)));
        break;
      case 5:
        parts.push(deptIn(splitIds(scope.scopeValue)));
        break;
      default:
        parts.push(sql`false`);
    }
  }
  return sql`(${sql.join(parts, sql` or `)})`;
}

/**
 * Whether the caller's roles grant the resource's read scope, decided as the route guard decides
 * for its list route. For replies that are not the resource's own routes (the live stream, the
 * welcome page) and show its rows only to those who may read them.
 */
export async function mayReadResource(def: ResourceDef, auth: AuthContext, grants: GrantService): Promise<boolean> {
  if (isAdministrator(auth)) return true;
  return coversRoute(await grants.apiGrants(auth.roleIds), apiScopeCodes(def.code).read, `/api${def.api}/list`);
}
