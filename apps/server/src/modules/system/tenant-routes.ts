import type { FastifyInstance } from 'fastify';
import { DEFAULT_TENANT_ID, tenantResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { tenant } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import {
  assertTenantIdFree,
  defaultAccountNumber,
  generateTenantId,
  provisionTenant,
  TenantMessages,
} from './tenant-provision';
import { registerTenantSettingRoutes } from './tenant-settings';

/** Tenants: creation with admin account (and a generated id when none is given), settings, datasource binding. */
export function registerTenantRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: tenantResource,
    table: tenant,
    hooks: {
      async beforeChange({ tx, adding, values }) {
        if (!adding) return;
        // The family's tenant form has no tenant id field: the server picks one.
        if (values.tenantId === undefined || values.tenantId === '') values.tenantId = await generateTenantId(tx);
        else await assertTenantIdFree(tx, String(values.tenantId));
        values.accountNumber = await defaultAccountNumber(ctx.db);
      },
      async afterChange({ tx, auth, adding, values, afterCommit }) {
        if (!adding) return;
        await provisionTenant(ctx.db, tx, String(values.tenantId), String(values.tenantName));
        afterCommit(() => ctx.grants.changed());
        afterCommit(async () =>
          ctx.logs.usual(auth, {
            logId: 'tenant.create',
            logData: `新建租户 ${String(values.tenantId)} ${String(values.tenantName)},并创建管理员账号 admin`,
          }),
        );
      },
      beforeRemove({ rows }) {
        if (rows.some((r) => r.tenantId === DEFAULT_TENANT_ID)) throw badRequest(TenantMessages.platformTenant);
      },
      afterRemove({ auth, rows, afterCommit }) {
        const names = rows.map((r) => `${String(r.tenantId)} ${String(r.tenantName)}`).join(', ');
        afterCommit(async () =>
          ctx.logs.usual(auth, { logId: 'tenant.remove', logData: `删除租户 ${names}`, level: 'warn' }),
        );
      },
    },
  });
  registerTenantSettingRoutes(app, ctx);
}
