import type { FastifyInstance } from 'fastify';
import { smsResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { sms } from '../../platform/db/schema';

/** SMS configurations. */
export function registerSmsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: smsResource, table: sms });
}
