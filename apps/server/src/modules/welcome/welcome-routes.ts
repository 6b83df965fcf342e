import type { FastifyInstance } from 'fastify';
import { DASHBOARD_DEVICE_MAP_PATH, DASHBOARD_OVERVIEW_PATH } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { welcomeDeviceMap } from './welcome-device-map';
import { welcomeOverview } from './welcome-overview';
import { welcomeScope } from './welcome-scope';

/**
 * The welcome page's and the wall screen's figures (`/blade-desk/dashboard/...`). Any signed-in
 * user, like `dashboard/deviceCount` beside them: the home page is everyone's, and the figures
 * are of the caller's tenant and data scope.
 */
export function registerWelcomeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`/api${DASHBOARD_OVERVIEW_PATH}`, { config: { anyUser: true } }, async (request) =>
    ok(await welcomeOverview(ctx, await welcomeScope(ctx, requireAuth(request)))),
  );
  app.get(`/api${DASHBOARD_DEVICE_MAP_PATH}`, { config: { anyUser: true } }, async (request) =>
    ok(await welcomeDeviceMap(ctx, await welcomeScope(ctx, requireAuth(request)))),
  );
}
