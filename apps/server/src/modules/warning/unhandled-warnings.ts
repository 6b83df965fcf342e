import { count, desc, inArray, sql, type SQL } from 'drizzle-orm';
import {
  formatDateTime,
  UNHANDLED_WARNING_LIST_SIZE,
  UNHANDLED_WARNING_STATUSES,
  type UnhandledWarningRow,
  type UnhandledWarningsReply,
} from '@mes/contracts';
import type { Db } from '../../platform/db/database';
import { device, warning } from '../../platform/db/schema';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { ofScopedDevices, type DeviceScope } from '../device/scoped-devices';

/**
 * The one definition of the "open warnings" every screen counts (docs/warnings.md): the warnings
 * of the caller's tenant whose device is in their device data scope and that nobody has handled
 * yet (status 1 active or 3 cleared). A handled warning (2, 4) has its result and is no one's work
 * any more, even while its condition still holds.
 */
function unhandledOf(scope: DeviceScope): [SQL, SQL | undefined] {
  // The field `status` shares its name with the audit columns' status, which muddles its type.
  const unhandled = sql`${warning.status} in (${sql.join(
    UNHANDLED_WARNING_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )})`;
  return [unhandled, ofScopedDevices(scope, warning.deviceCode)];
}

/**
 * The exact count of the unhandled warnings and, when `list`, the newest of them (by start, then
 * id, so equal starts keep one order), read live: the bell, its 告警 tab, the welcome page and
 * the wall screen all come here, so the same caller sees the same figure everywhere at once.
 */
export async function unhandledWarnings(
  db: Db,
  scope: DeviceScope,
  { list }: { list: boolean },
): Promise<UnhandledWarningsReply> {
  const rows = tenantScope(db, scope.tenantId);
  const where = unhandledOf(scope);
  const [counted, newest] = await Promise.all([
    rows.select(warning, { n: count() }).where(...where),
    list
      ? rows
          .select(warning, {
            id: warning.id,
            warningNo: warning.warningNo,
            deviceCode: warning.deviceCode,
            level: warning.level,
            status: sql<number>`${warning.status}`.mapWith(Number),
            message: warning.message,
            startTime: warning.startTime,
          })
          .where(...where)
          .orderBy(sql`${warning.startTime} desc nulls last`, desc(warning.id))
          .limit(UNHANDLED_WARNING_LIST_SIZE)
      : Promise.resolve([]),
  ]);
  const codes = [...new Set(newest.map((w) => w.deviceCode))];
  const names = codes.length
    ? await rows
        .select(device, { code: device.deviceCode, name: device.deviceName })
        .where(inArray(device.deviceCode, codes))
    : [];
  const nameOf = new Map(names.map((d) => [d.code, d.name]));
  const records: UnhandledWarningRow[] = newest.map((w) => ({
    ...w,
    deviceName: nameOf.get(w.deviceCode) ?? null,
    startTime: w.startTime ? formatDateTime(w.startTime) : null,
  }));
  return { total: counted[0]?.n ?? 0, records };
}
