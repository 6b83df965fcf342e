import type { FastifyInstance } from 'fastify';
import {
  apiLogResource,
  errorLogResource,
  loginLogResource,
  operationLogResource,
  usualLogResource,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { apiLog, errorLog, loginLog, operationLog, usualLog } from '../../platform/db/schema';
import { registerErrorLogRoutes } from './error-log-routes';
import { registerLoginCountRoute } from './login-log';

/**
 * The read-only log screens' routes: `list` and `detail` of the API, usual, error, login and
 * operation logs (declared filters and sorts only; tenant administrators read their tenant's
 * rows, the platform reads every tenant's), the error upload of the console's local log, and
 * the welcome page's sign-in counts.
 */
export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: apiLogResource, table: apiLog });
  registerResource(app, ctx, { def: usualLogResource, table: usualLog });
  registerResource(app, ctx, { def: errorLogResource, table: errorLog });
  registerResource(app, ctx, { def: loginLogResource, table: loginLog });
  registerResource(app, ctx, { def: operationLogResource, table: operationLog });
  registerErrorLogRoutes(app, ctx);
  registerLoginCountRoute(app, ctx);
}
