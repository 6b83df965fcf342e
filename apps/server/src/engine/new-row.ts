import type { ResourceDef, Row } from '@mes/contracts';
import { splitIds, type AuthContext } from '../platform/auth/request-auth';
import { nextId } from '../platform/db/ids';
import { tenantRow } from '../platform/tenancy/tenant-scope';

/**
 * A row the engine is about to insert, for a resource or a child collection alike: a new id, the
 * caller's tenant on a tenant-owned table (through the tenancy primitive) and, unless the
 * definition has no audit columns, who made it and when.
 */
export function newRow(def: Pick<ResourceDef, 'owner' | 'audit'>, values: Row, auth: AuthContext, now: Date): Row {
  let row: Row = { ...values, id: nextId() };
  if (def.owner === 'tenant') row = tenantRow(auth.tenantId, row);
  if (def.audit !== false)
    Object.assign(row, {
      createUser: auth.userId,
      createDept: splitIds(auth.deptId)[0] ?? null,
      createTime: now,
      updateUser: auth.userId,
      updateTime: now,
    });
  return row;
}
