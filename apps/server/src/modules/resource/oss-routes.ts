import type { FastifyInstance } from 'fastify';
import { ossResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { oss } from '../../platform/db/schema';

/** Object-storage configurations. */
export function registerOssRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: ossResource, table: oss });
}
