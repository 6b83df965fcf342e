import type { FastifyInstance } from 'fastify';
import { postResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { post } from '../../platform/db/schema';

/** Posts: the generic routes plus `select` for pickers. */
export function registerPostRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: postResource, table: post });
}
