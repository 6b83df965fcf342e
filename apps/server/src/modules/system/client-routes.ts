import type { FastifyInstance } from 'fastify';
import { clientResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { oauthClient } from '../../platform/db/schema';

/** OAuth clients; secrets stored hashed. */
export function registerClientRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: clientResource, table: oauthClient });
}
