import { and, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { deviceResource, userResource, warningResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dataScopeCondition, mayReadResource } from '../../crud/resource-access';
import type { AuthContext } from '../../platform/auth/request-auth';
import { device } from '../../platform/db/schema';
import { tenantRows } from '../../platform/tenancy/tenant-scope';

/**
 * What the caller sees on the welcome page: the devices of their device data scope (the one the
 * device screen applies), and the users of their user data scope. Every figure about cycles and
 * warnings follows the devices: a caller scoped to a department sees that department's devices'
 * cycles and warnings, whatever other scopes they hold on those screens.
 */
export interface WelcomeScope {
  tenantId: string;
  /** The device data scope on `mes_device` rows (unqualified columns); undefined: every device. */
  devices: SQL | undefined;
  /** The user data scope on `blade_user` rows; undefined: every user. */
  users: SQL | undefined;
  /**
   * Whether the caller may read the warnings and the devices themselves (their screens' read
   * scopes). The figures are counts for everyone; rows naming warnings or devices are listed only
   * to those who could list them on their screens.
   */
  readsWarnings: boolean;
  readsDevices: boolean;
}

export async function welcomeScope(ctx: AppContext, auth: AuthContext): Promise<WelcomeScope> {
  const [devices, users, readsWarnings, readsDevices] = await Promise.all([
    dataScopeCondition(deviceResource, auth, ctx.grants),
    dataScopeCondition(userResource, auth, ctx.grants),
    mayReadResource(warningResource, auth, ctx.grants),
    mayReadResource(deviceResource, auth, ctx.grants),
  ]);
  return { tenantId: auth.tenantId, devices, users, readsWarnings, readsDevices };
}

/**
 * Rows of another table (cycles per day, warnings) whose device the scope shows, matched by device
 * code, the key every telemetry row carries. Without a device scope: no condition (the table's own
 * tenant scope is all), so the figures include devices removed since. The data-scope columns are
 * unqualified, so they are resolved in the subquery against `mes_device` alone.
 */
export function ofScopedDevices(scope: WelcomeScope, deviceCode: PgColumn): SQL | undefined {
  if (!scope.devices) return undefined;
  const shown = and(tenantRows(device, scope.tenantId), scope.devices);
  return sql`${deviceCode} in (select ${device.deviceCode} from ${device} where ${shown})`;
}
