import type { FastifyInstance } from 'fastify';
import { menuResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { menu } from '../../platform/db/schema';

/** Menu management: tree, lazy lists, grant trees. */
export function registerMenuAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: menuResource, table: menu });
}
