import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DASHBOARD_DEVICE_COUNT_PATH, DeviceRunState, deviceResource, type DeviceCountReply } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dataScopeCondition } from '../../engine/resource-access';
import { requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import { device } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

/** The devices of the caller's tenant and data scope, counted in one pass. */
export async function deviceCounts(ctx: AppContext, auth: AuthContext): Promise<DeviceCountReply> {
  const scope = await dataScopeCondition(deviceResource, auth, ctx.grants);
  const [row] = await tenantScope(ctx.db, auth.tenantId)
    .select(device, {
      total: sql<number>`count(*)`.mapWith(Number),
      online: sql<number>`count(*) filter (where ${device.online})`.mapWith(Number),
      fault: sql<number>`count(*) filter (where ${device.runState} = ${DeviceRunState.fault})`.mapWith(Number),
    })
    .where(scope);
  const total = row?.total ?? 0;
  const online = row?.online ?? 0;
  return { total, online, offline: total - online, fault: row?.fault ?? 0 };
}

/**
 * `GET /api/blade-desk/dashboard/deviceCount`: the welcome page's device figures. Any signed-in
 * user, like the sign-in figures beside it; the counts are of the devices their data scope shows.
 */
export function registerDeviceCountRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(`/api${DASHBOARD_DEVICE_COUNT_PATH}`, { config: { anyUser: true } }, async (request) =>
    ok(await deviceCounts(ctx, requireAuth(request))),
  );
}
