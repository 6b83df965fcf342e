import { asc, inArray } from 'drizzle-orm';
import { WELCOME_MAP_LIMIT, type WelcomeDeviceMap, type WelcomeMapDept } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dept, device } from '../../platform/db/schema';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import type { WelcomeScope } from './welcome-scope';
import { cyclesNow } from '../device/device-cycle-now';

/**
 * The wall screen's device map: the devices of the caller's scope with their connection and run
 * state, grouped by department (departments in tree order, devices by code). Capped at
 * WELCOME_MAP_LIMIT devices: a wall cannot show more tiles legibly.
 */
export async function welcomeDeviceMap(ctx: AppContext, scope: WelcomeScope): Promise<WelcomeDeviceMap> {
  if (!scope.readsDevices) return { depts: [], truncated: false };
  const db = tenantScope(ctx.db, scope.tenantId);
  const rows = await db
    .select(device, {
      id: device.id,
      deviceCode: device.deviceCode,
      deviceName: device.deviceName,
      online: device.online,
      runState: device.runState,
      deptId: device.deptId,
    })
    .where(scope.devices)
    .orderBy(asc(device.deptId), asc(device.deviceCode))
    .limit(WELCOME_MAP_LIMIT + 1);
  const truncated = rows.length > WELCOME_MAP_LIMIT;
  const shown = rows.slice(0, WELCOME_MAP_LIMIT);
  const deptIds = [...new Set(shown.map((r) => r.deptId).filter((id): id is string => id !== null))];
  const depts = deptIds.length
    ? await db.select(dept, { id: dept.id, name: dept.deptName, sort: dept.sort }).where(inArray(dept.id, deptIds))
    : [];
  const cycles = await cyclesNow(
    ctx,
    shown.map((r) => r.id),
  );
  const groups = new Map<string | null, WelcomeMapDept>();
  for (const d of [...depts].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0) || a.name.localeCompare(b.name))) {
    groups.set(d.id, { deptId: d.id, deptName: d.name, devices: [] });
  }
  for (const r of shown) {
    // A department removed since (or none): the devices still show, in a block of their own.
    const key = r.deptId && groups.has(r.deptId) ? r.deptId : null;
    if (!groups.has(key)) groups.set(key, { deptId: null, deptName: null, devices: [] });
    groups.get(key)?.devices.push({
      id: r.id,
      deviceCode: r.deviceCode,
      deviceName: r.deviceName,
      online: r.online,
      runState: r.runState,
      cycle: cycles.get(r.id) ?? null,
    });
  }
  return { depts: [...groups.values()].filter((g) => g.devices.length > 0), truncated };
}
