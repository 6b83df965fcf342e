import type { FastifyInstance } from 'fastify';
import { paramResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { param } from '../../platform/db/schema';

/** Parameters (platform-wide). */
export function registerParamRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: paramResource, table: param });
}
