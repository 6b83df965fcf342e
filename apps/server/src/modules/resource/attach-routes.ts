import type { FastifyInstance } from 'fastify';
import { attachResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { attach } from '../../platform/db/schema';

/** Attachments. */
export function registerAttachRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: attachResource, table: attach });
}
