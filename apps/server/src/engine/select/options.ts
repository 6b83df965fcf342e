import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { checkField, invalidParamText, type FieldDef, type SelectDef } from '@mes/contracts';
import { isPlatformCaller, type AuthContext } from '../../platform/auth/request-auth';
import { badRequest } from '../../platform/http/errors';
import { tenantRows, type TenantOwnedTable } from '../../platform/tenancy/tenant-scope';
import {
  BAD_FORMAT,
  MAX_EXPORT_ROWS,
  TENANT_FILTER,
  TENANT_ID,
  type ResourceService,
} from '../kernel/resource-service';
import type { Row } from '../resource-hooks';

/**
 * Every row for a picker (`select`), through the same scope as every read: of the caller's
 * tenant, or of the tenant a platform caller names (its administrator fills forms for others).
 * Anyone else naming another tenant gets their own rows, as BladeX's tenant plugin would.
 */
export async function options(
  service: ResourceService,
  named: unknown,
  auth: AuthContext,
  query: Record<string, unknown> = {},
): Promise<Row[]> {
  if (named !== undefined && named !== '' && (typeof named !== 'string' || !TENANT_ID.test(named)))
    throw badRequest(invalidParamText(TENANT_FILTER, BAD_FORMAT));
  // Naming a tenant means something only where rows belong to tenants.
  const tenantId =
    typeof named === 'string' && named && isPlatformCaller(auth) && service.def.owner === 'tenant'
      ? named
      : auth.tenantId;
  const caller = tenantId === auth.tenantId ? auth : { ...auth, tenantId };
  const shape = service.def.select;
  if (!shape) return service.all({}, caller, 'own', MAX_EXPORT_ROWS);
  const scope =
    shape.ownTenantRows && !isPlatformCaller(auth) && service.table.tenantId
      ? tenantRows(service.table as TenantOwnedTable, auth.tenantId)
      : await service.readScope(caller);
  const rows = await service
    .selectRows(caller)
    .where(and(scope, shape.children ? childrenOf(service, shape.children, query) : undefined))
    .orderBy(...service.defaultOrder(), asc(service.table.id))
    .limit(MAX_EXPORT_ROWS);
  const shown = await service.decorate(rows, caller);
  const keep = shape.fields && ['id', ...shape.fields];
  return keep ? shown.map((row) => Object.fromEntries(keep.map((k) => [k, row[k]]))) : shown;
}

/** `select`'s `children`: the rows under the parent the query names, the root's by default. */
function childrenOf(
  service: ResourceService,
  children: NonNullable<SelectDef['children']>,
  query: Record<string, unknown>,
): SQL {
  const raw = query[children.param];
  const value = raw === undefined || raw === '' ? children.root : raw;
  // Both fields exist: `registerResource` refuses to start otherwise.
  const rules = service.def.fields[children.checkAs ?? children.field] as FieldDef;
  if (typeof value !== 'string') throw badRequest(invalidParamText(children.param, BAD_FORMAT));
  const error = checkField(rules, value, 'zh');
  if (error) throw badRequest({ zh: error, en: checkField(rules, value, 'en') ?? error });
  return eq(service.columns[children.field] as PgColumn, value);
}
