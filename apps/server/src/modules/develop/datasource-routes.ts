import type { FastifyInstance } from 'fastify';
import { datasourceResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { datasource } from '../../platform/db/schema';

/** Datasources: password encrypted at rest, connection test. */
export function registerDatasourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: datasourceResource, table: datasource });
}
