import { and, asc, eq, ne } from 'drizzle-orm';
import { bilingual, EnableStatus } from '@mes/contracts';
import { recordOperation } from '../../platform/audit/operation-audit';
import type { AuthContext } from '../../platform/auth/request-auth';
import { notFound } from '../../platform/http/errors';
import { idValue } from '../../platform/http/request-params';
import { assertOwnerAccess, rowScope } from '../resource-access';
import type { ResourceService } from '../kernel/resource-service';

/**
 * Makes one row the tenant's only enabled row (`enable` operation). Rows are locked in id order
 * so two concurrent enables cannot leave two rows enabled.
 */
export async function enable(service: ResourceService, id: unknown, auth: AuthContext): Promise<void> {
  assertOwnerAccess(service.def, auth, true);
  const rowId = idValue(id, 'id');
  const scope = await service.readScope(auth);
  try {
    await service.ctx.db.transaction(async (tx) => {
      const tenantRows = await tx
        .select({ id: service.table.id })
        .from(service.table)
        .where(rowScope(service.def, service.table, auth))
        .orderBy(asc(service.table.id))
        .for('update');
      const [target] = await tx
        .select({ id: service.table.id })
        .from(service.table)
        .where(and(scope, eq(service.table.id, rowId)));
      if (!target || !tenantRows.some((r) => r.id === rowId)) throw notFound(bilingual('rowNotFound'));
      const now = new Date();
      await tx
        .update(service.table)
        .set({ status: EnableStatus.disabled, updateUser: auth.userId, updateTime: now })
        .where(and(rowScope(service.def, service.table, auth), ne(service.table.id, rowId)));
      await tx
        .update(service.table)
        .set({ status: EnableStatus.enabled, updateUser: auth.userId, updateTime: now })
        .where(and(rowScope(service.def, service.table, auth), eq(service.table.id, rowId)));
      await recordOperation(tx, { def: service.def, auth, operation: 'enable', ids: [rowId], at: now });
    });
    await service.operationLogged();
  } finally {
    await service.changed(auth);
  }
}
