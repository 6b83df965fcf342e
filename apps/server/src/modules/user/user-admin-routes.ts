import type { FastifyInstance } from 'fastify';
import { userResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { user } from '../../platform/db/schema';

/** User administration: page by department, grant, reset, platform, unlock. */
export function registerUserAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: userResource, table: user });
}
