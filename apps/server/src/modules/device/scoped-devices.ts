import { and, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { deviceResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dataScopeCondition } from '../../engine/resource-access';
import type { AuthContext } from '../../platform/auth/request-auth';
import { device } from '../../platform/db/schema';
import { tenantRows } from '../../platform/tenancy/tenant-scope';

/** The devices a caller sees: their tenant, and their device data scope (the device screen's). */
export interface DeviceScope {
  tenantId: string;
  /** The device data scope on `mes_device` rows (unqualified columns); undefined: every device. */
  devices: SQL | undefined;
}

export async function deviceScopeOf(ctx: AppContext, auth: AuthContext): Promise<DeviceScope> {
  return { tenantId: auth.tenantId, devices: await dataScopeCondition(deviceResource, auth, ctx.grants) };
}

/**
 * Rows of another table (cycles per day, warnings) whose device the scope shows, matched by device
 * code, the key every telemetry row carries. Without a device scope: no condition (the table's own
 * tenant scope is all), so the figures include devices removed since. The data-scope columns are
 * unqualified, so they are resolved in the subquery against `mes_device` alone.
 */
export function ofScopedDevices(scope: DeviceScope, deviceCode: PgColumn): SQL | undefined {
  if (!scope.devices) return undefined;
  const shown = and(tenantRows(device, scope.tenantId), scope.devices);
  return sql`${deviceCode} in (select ${device.deviceCode} from ${device} where ${shown})`;
}
