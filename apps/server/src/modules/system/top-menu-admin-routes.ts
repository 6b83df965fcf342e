import type { FastifyInstance } from 'fastify';
import { topMenuResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { topMenu } from '../../platform/db/schema';

/** Top menus and the menus granted to them. */
export function registerTopMenuAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: topMenuResource, table: topMenu });
}
