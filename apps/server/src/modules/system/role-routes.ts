import type { FastifyInstance } from 'fastify';
import { roleResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { role } from '../../platform/db/schema';

/** Roles: tree, grant of menus, data scopes and API scopes. */
export function registerRoleRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: roleResource, table: role });
}
