import type { FastifyInstance } from 'fastify';
import { regionResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { region } from '../../platform/db/schema';

/** Regions: lazy tree by parent code, detail by code. */
export function registerRegionRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: regionResource, table: region });
}
