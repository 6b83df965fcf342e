import { and, asc, count, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  DeviceRunState,
  formatDateTime,
  WELCOME_LIST_SIZE,
  WELCOME_OFFLINE_DUE_HOURS,
  WELCOME_VERIFICATION_DAYS,
  VerificationResult,
  type WelcomeDueKind,
  type WelcomeDueRow,
  type WelcomeOverview,
  type WelcomeVerificationFigures,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import {
  dept,
  device,
  deviceCycleDay,
  product,
  recordRecall,
  user,
  verificationRecord,
  warning,
} from '../../platform/db/schema';
import { deviceReleases } from '../business/verification/verification-release';
import { tenantScope, type TenantScope } from '../../platform/tenancy/tenant-scope';
import { addDays, chartWindow, dayStart } from './welcome-days';
import { ofScopedDevices } from '../device/scoped-devices';
import { unhandledWarnings } from '../warning/unhandled-warnings';
import type { WelcomeScope } from './welcome-scope';

const num = (expr: SQL) => sql<number>`${expr}`.mapWith(Number);
const timeText = (at: Date | null) => (at ? formatDateTime(at) : null);

/** Devices, chairs and the devices per product (the fixed assets), in one pass over the devices. */
async function deviceFigures(db: TenantScope, scope: WelcomeScope) {
  const rows = await db
    .select(device, {
      productId: device.productId,
      total: num(sql`count(*)`),
      online: num(sql`count(*) filter (where ${device.online})`),
      fault: num(sql`count(*) filter (where ${device.runState} = ${DeviceRunState.fault})`),
      disinfecting: num(sql`count(*) filter (where ${device.runState} = ${DeviceRunState.disinfecting})`),
      chairs: num(sql`coalesce(sum(${device.chairs}), 0)`),
    })
    .where(scope.devices)
    .groupBy(device.productId);
  const devices = { total: 0, online: 0, fault: 0, disinfecting: 0 };
  let chairs = 0;
  for (const r of rows) {
    devices.total += r.total;
    devices.online += r.online;
    devices.fault += r.fault;
    devices.disinfecting += r.disinfecting;
    chairs += r.chairs;
  }
  // The categories of the few products the devices are of: no join, so the data scope's
  // unqualified columns stay unambiguous.
  const productIds = rows.map((r) => r.productId).filter((id): id is string => id !== null);
  const categories = productIds.length
    ? await db.select(product, { id: product.id, category: product.category }).where(inArray(product.id, productIds))
    : [];
  const categoryOf = new Map(categories.map((p) => [p.id, p.category]));
  const byCategory = new Map<number, number>();
  for (const r of rows) {
    // A device whose product is gone counts under category 0 (unknown).
    const category = (r.productId && categoryOf.get(r.productId)) || 0;
    byCategory.set(category, (byCategory.get(category) ?? 0) + r.total);
  }
  const assets = {
    total: devices.total,
    byCategory: [...byCategory]
      .map(([category, n]) => ({ category, devices: n }))
      .sort((a, b) => a.category - b.category),
  };
  return { devices, chairs, assets };
}

/** Cycle figures and the per-day chart from the per-day counts, never from the cycles themselves. */
async function cycleFigures(db: TenantScope, scope: WelcomeScope, today: string, first: string, days: string[]) {
  const shown = ofScopedDevices(scope, deviceCycleDay.deviceCode);
  const [totals] = await db
    .select(deviceCycleDay, {
      total: num(sql`coalesce(sum(${deviceCycleDay.cycles}), 0)`),
      passes: num(sql`coalesce(sum(${deviceCycleDay.passes}), 0)`),
      fails: num(sql`coalesce(sum(${deviceCycleDay.fails}), 0)`),
      aborts: num(sql`coalesce(sum(${deviceCycleDay.aborts}), 0)`),
      today: num(sql`coalesce(sum(${deviceCycleDay.cycles}) filter (where ${deviceCycleDay.day} = ${today}::date), 0)`),
    })
    .where(shown);
  const perDay = await db
    .select(deviceCycleDay, {
      day: deviceCycleDay.day,
      passes: num(sql`sum(${deviceCycleDay.passes})`),
      fails: num(sql`sum(${deviceCycleDay.fails})`),
      aborts: num(sql`sum(${deviceCycleDay.aborts})`),
    })
    .where(shown, gte(deviceCycleDay.day, first))
    .groupBy(deviceCycleDay.day);
  const byDay = new Map(perDay.map((r) => [r.day, r]));
  const cycleDays = days.map((day) => {
    const r = byDay.get(day);
    return { day, passes: r?.passes ?? 0, fails: r?.fails ?? 0, aborts: r?.aborts ?? 0 };
  });
  const total = totals?.total ?? 0;
  const passes = totals?.passes ?? 0;
  return {
    cycles: {
      today: totals?.today ?? 0,
      total,
      passes,
      fails: totals?.fails ?? 0,
      aborts: totals?.aborts ?? 0,
      passRate: total > 0 ? passes / total : null,
    },
    cycleDays,
  };
}

/**
 * The unhandled warnings (the one definition every screen counts, listed only to those who may
 * read warnings) and the warnings per level since `since`.
 */
async function warningFigures(ctx: AppContext, db: TenantScope, scope: WelcomeScope, since: Date) {
  const [unhandled, levels] = await Promise.all([
    unhandledWarnings(ctx.db, scope, { list: scope.readsWarnings }),
    db
      .select(warning, { level: warning.level, n: count() })
      .where(ofScopedDevices(scope, warning.deviceCode), gte(warning.startTime, since))
      .groupBy(warning.level),
  ]);
  const perLevel = new Map(levels.map((l) => [l.level, l.n]));
  const warningLevels = [1, 2, 3, 4].map((level) => ({ level, count: perLevel.get(level) ?? 0 }));
  return { unhandledWarnings: unhandled.total, warnings: unhandled.records, warningLevels };
}

/**
 * Due work: devices in fault, and devices offline for over a day (since their last disconnect,
 * else their last activity, else their creation). Longest waiting first.
 */
async function dueWork(db: TenantScope, scope: WelcomeScope, now: number) {
  const offlineSince = sql`coalesce(${device.lastDisconnectTime}, ${device.lastActivityTime}, ${device.createTime})`;
  const cutoff = new Date(now - WELCOME_OFFLINE_DUE_HOURS * 3_600_000);
  const kinds: Record<WelcomeDueKind, { where: SQL; since: SQL<Date | null> }> = {
    fault: {
      where: eq(device.runState, DeviceRunState.fault),
      since: sql<Date | null>`${device.lastActivityTime}`.mapWith(device.lastActivityTime),
    },
    offline: {
      where: and(eq(device.online, false), lt(offlineSince, cutoff)) as SQL,
      since: sql<Date | null>`${offlineSince}`.mapWith(device.createTime),
    },
  };
  const read = async (kind: WelcomeDueKind) => {
    const { where, since } = kinds[kind];
    const [counted, rows] = await Promise.all([
      db.select(device, { n: count() }).where(scope.devices, where),
      db
        .select(device, {
          deviceId: device.id,
          deviceCode: device.deviceCode,
          deviceName: device.deviceName,
          deptId: device.deptId,
          since,
        })
        .where(scope.devices, where)
        .orderBy(sql`${since} asc nulls first`, asc(device.deviceCode))
        .limit(WELCOME_LIST_SIZE),
    ]);
    return { n: counted[0]?.n ?? 0, rows: rows.map((r) => ({ ...r, kind })) };
  };
  const [fault, offline] = await Promise.all([read('fault'), read('offline')]);
  const rows = [...fault.rows, ...offline.rows];
  const deptIds = [...new Set(rows.map((r) => r.deptId).filter((id): id is string => id !== null))];
  const depts = deptIds.length
    ? await db.select(dept, { id: dept.id, name: dept.deptName }).where(inArray(dept.id, deptIds))
    : [];
  const deptName = new Map(depts.map((d) => [d.id, d.name]));
  const due: WelcomeDueRow[] = rows.map((r) => ({
    kind: r.kind,
    deviceId: r.deviceId,
    deviceCode: r.deviceCode,
    deviceName: r.deviceName,
    deptName: r.deptId ? (deptName.get(r.deptId) ?? null) : null,
    since: timeText(r.since),
  }));
  return { dueCounts: { fault: fault.n, offline: offline.n }, due };
}

/**
 * The verification card: today's release of the steam sterilisers the caller's device scope
 * shows (the same rule as the device screen), the recalled loads nobody handled, and the
 * results of the last WELCOME_VERIFICATION_DAYS days, all following the devices as the cycles do.
 */
async function verificationFigures(
  ctx: AppContext,
  db: TenantScope,
  scope: WelcomeScope,
  today: string,
  now: number,
): Promise<WelcomeVerificationFigures> {
  const since = dayStart(addDays(today, 1 - WELCOME_VERIFICATION_DAYS));
  const [releases, [recalls], [recent]] = await Promise.all([
    deviceReleases(ctx.db, scope.tenantId, scope.devices, now),
    db
      .select(recordRecall, { n: count() })
      .where(ofScopedDevices(scope, recordRecall.deviceCode), eq(recordRecall.handled, false)),
    db
      .select(verificationRecord, {
        passes: num(sql`count(*) filter (where ${verificationRecord.result} = ${VerificationResult.pass})`),
        fails: num(sql`count(*) filter (where ${verificationRecord.result} = ${VerificationResult.fail})`),
      })
      .where(
        ofScopedDevices(scope, verificationRecord.deviceCode),
        eq(verificationRecord.superseded, false),
        gte(verificationRecord.testTime, since),
      ),
  ]);
  const blocked = releases.filter((r) => !r.released);
  return {
    bdDevices: releases.length,
    released: releases.length - blocked.length,
    notReleased: blocked.length,
    notReleasedDevices: scope.readsDevices ? blocked.slice(0, WELCOME_LIST_SIZE) : [],
    openRecalls: recalls?.n ?? 0,
    recent: { passes: recent?.passes ?? 0, fails: recent?.fails ?? 0 },
  };
}

async function personnel(db: TenantScope, scope: WelcomeScope): Promise<number> {
  const [row] = await db.select(user, { n: count() }).where(scope.users);
  return row?.n ?? 0;
}

/** The welcome page's figures for the caller's tenant and data scope (docs/welcome.md). */
export async function welcomeOverview(ctx: AppContext, scope: WelcomeScope): Promise<WelcomeOverview> {
  const now = ctx.clock.now();
  const { today, first, days } = chartWindow(now);
  const db = tenantScope(ctx.db, scope.tenantId);
  const [figures, cycles, warnings, due, people, verification] = await Promise.all([
    deviceFigures(db, scope),
    cycleFigures(db, scope, today, first, days),
    warningFigures(ctx, db, scope, dayStart(first)),
    dueWork(db, scope, now),
    personnel(db, scope),
    verificationFigures(ctx, db, scope, today, now),
  ]);
  return {
    takenAt: formatDateTime(new Date(now)),
    today,
    devices: figures.devices,
    cycles: cycles.cycles,
    chairs: figures.chairs,
    personnel: people,
    assets: figures.assets,
    verification,
    work: {
      unhandledWarnings: warnings.unhandledWarnings,
      warnings: warnings.warnings,
      dueCounts: due.dueCounts,
      due: scope.readsDevices ? due.due : [],
    },
    charts: { cycleDays: cycles.cycleDays, warningLevels: warnings.warningLevels },
  };
}
