import type { FastifyInstance } from 'fastify';
import { tenantResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { tenant } from '../../platform/db/schema';

/** Tenants: creation with admin account, settings, datasource binding. */
export function registerTenantRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: tenantResource, table: tenant });
}
