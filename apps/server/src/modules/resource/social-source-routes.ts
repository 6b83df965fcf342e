import type { FastifyInstance } from 'fastify';
import { socialSourceResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { socialSource } from '../../platform/db/schema';

/** Third-party sign-in providers. */
export function registerSocialSourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: socialSourceResource, table: socialSource });
}
