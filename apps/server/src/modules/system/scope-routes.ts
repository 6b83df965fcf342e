import type { FastifyInstance } from 'fastify';
import { apiScopeResource, dataScopeResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { apiScope, dataScope } from '../../platform/db/schema';

/** Data scopes and API scopes; any change drops every process's cached grants. */
export function registerScopeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const hooks = { afterChange: () => ctx.grants.changed(), afterRemove: () => ctx.grants.changed() };
  registerResource(app, ctx, { def: dataScopeResource, table: dataScope, hooks });
  registerResource(app, ctx, { def: apiScopeResource, table: apiScope, hooks });
}
