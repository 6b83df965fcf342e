import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_DEVICE_MAP_PATH,
  DASHBOARD_OVERVIEW_PATH,
  type WelcomeDeviceMap,
  type WelcomeOverview,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { dataScope, dept, param, role, roleScope } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { DEPT_IDS, SEED_MENUS } from '../src/seed/seed-data';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The welcome page's overview (docs/welcome.md): every figure equals the same figure computed
 * here independently from the raw rows (mes_device, mes_device_cycle, mes_warning, blade_user),
 * for the tenant's administrator, for a user whose data scope is one clinic, and for another
 * tenant, which sees none of the first tenant's rows.
 */
const TENANT = '000000';
const OTHER_TENANT = '300004';
const CLINIC_A = '9711';
const CLINIC_B = '9712';
const CLINIC_C = '9713';
const ZONE = 'Asia/Shanghai';

let t: TestApp;
let admin: string;
let other: string;
let clinicA: string;

const dataOf = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as T;
};
const overview = async (token: string) =>
  dataOf<WelcomeOverview>(await t.as(token, { method: 'GET', url: `/api${DASHBOARD_OVERVIEW_PATH}` }));
const deviceMap = async (token: string) =>
  dataOf<WelcomeDeviceMap>(await t.as(token, { method: 'GET', url: `/api${DASHBOARD_DEVICE_MAP_PATH}` }));

const rowsOf = async <T>(query: ReturnType<typeof sql>) => (await t.ctx.db.execute(query)).rows as T[];

interface Device {
  code: string;
  dept: string | null;
  online: boolean;
  runState: number;
  chairs: number;
  /** Hours since the last disconnect. */
  offHours: number | null;
  category: 1 | 2;
  deleted?: boolean;
}

const DEVICES: Device[] = [
  { code: 'H4-A1', dept: CLINIC_A, online: true, runState: 2, chairs: 4, offHours: null, category: 1 },
  { code: 'H4-A2', dept: CLINIC_A, online: false, runState: 3, chairs: 6, offHours: 50, category: 2 },
  { code: 'H4-A3', dept: CLINIC_A, online: false, runState: 1, chairs: 2, offHours: 3, category: 1 },
  { code: 'H4-B1', dept: CLINIC_B, online: true, runState: 3, chairs: 8, offHours: null, category: 1 },
  { code: 'H4-B2', dept: CLINIC_B, online: false, runState: 4, chairs: 3, offHours: 30, category: 2 },
  { code: 'H4-C1', dept: CLINIC_C, online: true, runState: 1, chairs: 5, offHours: null, category: 2 },
  { code: 'H4-C2', dept: CLINIC_C, online: false, runState: 1, chairs: 7, offHours: 100, category: 1, deleted: true },
  { code: 'H4-N1', dept: null, online: false, runState: 3, chairs: 1, offHours: 26, category: 1 },
];
const OTHER_DEVICES: Device[] = [
  { code: 'H4-A1', dept: null, online: true, runState: 3, chairs: 9, offHours: null, category: 2 },
  { code: 'H4-X2', dept: null, online: false, runState: 1, chairs: 2, offHours: 72, category: 1 },
];

async function insertProducts(tenantId: string): Promise<Record<1 | 2, string>> {
  const ids = { 1: nextId(), 2: nextId() };
  await t.ctx.db.execute(sql`
    insert into mes_product (id, tenant_id, product_code, product_name, category)
    values (${ids[1]}, ${tenantId}, 'H4-P1', '水路消毒机', 1), (${ids[2]}, ${tenantId}, 'H4-P2', '灭菌器', 2)`);
  return ids;
}

async function insertDevices(tenantId: string, devices: Device[]) {
  const products = await insertProducts(tenantId);
  for (const d of devices) {
    await t.ctx.db.execute(sql`
      insert into mes_device (id, tenant_id, device_code, device_name, product_id, dept_id, chairs, online,
        run_state, last_disconnect_time, last_activity_time, mqtt_client_id, is_deleted, create_time)
      values (${nextId()}, ${tenantId}, ${d.code}, ${`${d.code} 名称`}, ${products[d.category]}, ${d.dept},
        ${d.chairs}, ${d.online}, ${d.runState},
        ${d.offHours === null ? null : new Date(Date.now() - d.offHours * 3_600_000)},
        ${new Date(Date.now() - 3_600_000)}, ${`${tenantId}-${d.code}`}, ${d.deleted ? 1 : 0},
        now() - interval '200 days')`);
  }
}

/**
 * Cycles of every device of the tenant over the last 40 days, results spread over pass, fail
 * and abort, and the per-day counts made from them as ingestion keeps them (one row per tenant,
 * Shanghai day of the end time, device).
 */
async function insertCycles(tenantId: string, base: number) {
  await t.ctx.db.execute(sql`
    insert into mes_device_cycle (id, tenant_id, device_id, device_code, dept_id, start_time, end_time,
      duration_seconds, result)
    select ${base}::bigint + row_number() over (), d.tenant_id, d.id, d.device_code, d.dept_id,
           e - interval '40 minutes', e, 2400 + c.i,
           case when (g.back * 3 + c.i + length(d.device_name)) % 7 = 0 then 2
                when (g.back + c.i) % 11 = 0 then 3 else 1 end
    from mes_device d
    cross join generate_series(0, 39) as g(back)
    cross join generate_series(0, 3) as c(i)
    cross join lateral (
      select (((now() at time zone ${ZONE})::date - g.back)::timestamp + (c.i * 5 + 1) * interval '1 hour')
             at time zone ${ZONE} as e) as times
    where d.tenant_id = ${tenantId} and d.is_deleted = 0 and (g.back + c.i + ascii(right(d.device_code, 1))) % 3 <> 0`);
  await t.ctx.db.execute(sql`
    insert into mes_device_cycle_day (tenant_id, day, device_code, device_id, dept_id, cycles, passes, fails, aborts, seconds)
    select tenant_id, (end_time at time zone ${ZONE})::date, device_code, max(device_id), max(dept_id), count(*),
           count(*) filter (where result = 1), count(*) filter (where result = 2), count(*) filter (where result = 3),
           sum(duration_seconds)
    from mes_device_cycle where tenant_id = ${tenantId}
    group by 1, 2, 3`);
}

/** Warnings over the last 45 days: every level and status. */
async function insertWarnings(tenantId: string, base: number) {
  await t.ctx.db.execute(sql`
    insert into mes_warning (id, tenant_id, warning_no, device_id, device_code, dept_id, warning_type, level,
      message, start_time, status)
    select ${base}::bigint + row_number() over (), d.tenant_id, 'W' || (${base}::bigint + row_number() over ()),
           d.id, d.device_code, d.dept_id, 'threshold', 1 + (n % 4), '告警 ' || d.device_code || ' #' || n,
           now() - (n * 3 + length(d.device_code)) * interval '1 day' / 2 - n * interval '1 minute', 1 + ((n * 7) % 4)
    from mes_device d cross join generate_series(0, 29) as n
    where d.tenant_id = ${tenantId} and d.is_deleted = 0`);
}

/**
 * Verification records of the steam sterilisers (category 2) and of one waterline device: BD tests
 * today (a pass, a fail after a pass, a superseded pass), a pass of yesterday, results over the
 * last 10 days, and recalls, some handled. Written as rows: the figures read them, not the chain.
 */
let chainSeq = 0;
async function insertVerifications(tenantId: string) {
  const at = (code: string, type: number, result: number, when: ReturnType<typeof sql>, superseded = false) => sql`
    insert into mes_verification_record (id, tenant_id, record_no, device_id, device_code, dept_id, verification_type,
      test_time, result, superseded, chain_seq)
    select ${nextId()}, tenant_id, ${`YZ${nextId()}`}, id, device_code, dept_id, ${type}, ${when}, ${result}, ${superseded},
           ${(chainSeq += 1)}
      from mes_device where tenant_id = ${tenantId} and device_code = ${code}`;
  const todayAt = (hour: number) =>
    sql`((now() at time zone ${ZONE})::date + ${hour} * interval '1 minute')::timestamp at time zone ${ZONE}`;
  const daysAgo = (days: number) => sql`now() - ${days} * interval '1 day'`;
  // H4-A2: passed at 00:01 then failed at 00:02 today (the latest counts): not released.
  await t.ctx.db.execute(at('H4-A2', 1, 1, todayAt(1)));
  await t.ctx.db.execute(at('H4-A2', 1, 2, todayAt(2)));
  // H4-B2: passed yesterday only, and a superseded pass today: not released.
  await t.ctx.db.execute(at('H4-B2', 1, 1, daysAgo(1)));
  await t.ctx.db.execute(at('H4-B2', 1, 1, todayAt(1), true));
  // H4-C1: passed today: released.
  await t.ctx.db.execute(at('H4-C1', 1, 1, todayAt(1)));
  // Results of the last days and older, biological and waterline ones too.
  for (const [code, type, result, days] of [
    ['H4-A1', 7, 1, 2],
    ['H4-A1', 7, 2, 5],
    ['H4-C1', 4, 2, 3],
    ['H4-C1', 4, 1, 9],
    ['H4-B2', 4, 1, 8],
    ['H4-A2', 4, 2, 10],
  ] as const)
    await t.ctx.db.execute(at(code, type, result, daysAgo(days)));
  for (const [code, handled] of [
    ['H4-A2', false],
    ['H4-A2', true],
    ['H4-C1', false],
    ['H4-C1', false],
  ] as const)
    await t.ctx.db.execute(sql`
      insert into mes_record_recall (id, tenant_id, verification_no, record_no, device_id, device_code, recall_time, handled)
      select ${nextId()}, tenant_id, ${`YZ${nextId()}`}, ${`XD${nextId()}`}, id, device_code, now(), ${handled}
        from mes_device where tenant_id = ${tenantId} and device_code = ${code}`);
}

/** A role whose data scope is its own department (type 3) on devices and on users. */
async function clinicUser(): Promise<string> {
  const roleId = nextId();
  await t.ctx.db.insert(role).values({ id: roleId, tenantId: TENANT, roleName: 'clinic', roleAlias: 'r_clinic' });
  for (const resourceCode of ['device_info', 'user']) {
    const scopeId = nextId();
    await t.ctx.db.insert(dataScope).values({
      id: scopeId,
      menuId: SEED_MENUS.find((m) => m.code === resourceCode)?.id as string,
      resourceCode,
      scopeName: `${resourceCode} 本部门`,
      scopeType: 3,
      scopeValue: '',
    });
    await t.ctx.db.insert(roleScope).values({ id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId, roleId });
  }
  return signInWithScopes(t, {
    account: 'h4clinic',
    roleId,
    deptId: CLINIC_A,
    codes: ['warning:read', 'device_info:read'],
  });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const clinic = (id: string, branch: string, deptName: string, sort: number) => ({
    id,
    parentId: branch,
    ancestors: `0,${DEPT_IDS.company},${branch}`,
    deptName,
    fullName: deptName,
    deptCategory: 5,
    sort,
  });
  await t.ctx.db
    .insert(dept)
    .values([
      clinic(CLINIC_A, DEPT_IDS.east, '东一诊所', 1),
      clinic(CLINIC_B, DEPT_IDS.east, '东二诊所', 2),
      clinic(CLINIC_C, DEPT_IDS.south, '南一诊所', 3),
    ]);
  const created = await t.as(admin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId: OTHER_TENANT, tenantName: '另一家集团', linkman: 'ops' },
  });
  expect(created.statusCode, created.body).toBe(200);
  const [password] = await t.ctx.db
    .select({ value: param.paramValue })
    .from(param)
    .where(eq(param.paramKey, 'tenant.default.password'));
  other = (await t.signIn('admin', password?.value ?? '', OTHER_TENANT)).access_token;

  await insertDevices(TENANT, DEVICES);
  await insertDevices(OTHER_TENANT, OTHER_DEVICES);
  await insertCycles(TENANT, 8_000_000_000);
  await insertCycles(OTHER_TENANT, 8_100_000_000);
  await insertWarnings(TENANT, 8_200_000_000);
  await insertWarnings(OTHER_TENANT, 8_300_000_000);
  await insertVerifications(TENANT);
  await insertVerifications(OTHER_TENANT);
  clinicA = await clinicUser();
});
afterAll(() => t?.close());

/**
 * The overview computed from the raw rows: `devices` is the SQL condition on mes_device rows
 * (alias d) the caller sees, `users` the one on blade_user rows (alias u).
 */
async function expected(tenantId: string, devices: ReturnType<typeof sql>, users: ReturnType<typeof sql>) {
  const shown = sql`select d.device_code from mes_device d where d.tenant_id = ${tenantId} and d.is_deleted = 0 and ${devices}`;
  const [dev] = await rowsOf<Record<string, string>>(sql`
    select count(*) total, count(*) filter (where online) online, count(*) filter (where run_state = 3) fault,
           count(*) filter (where run_state = 2) disinfecting, coalesce(sum(chairs), 0) chairs
    from mes_device d where d.tenant_id = ${tenantId} and d.is_deleted = 0 and ${devices}`);
  const categories = await rowsOf<{ category: number; devices: string }>(sql`
    select p.category, count(*) devices from mes_device d join mes_product p on p.id = d.product_id
    where d.tenant_id = ${tenantId} and d.is_deleted = 0 and ${devices} group by p.category order by p.category`);
  const [cyc] = await rowsOf<Record<string, string>>(sql`
    select count(*) total, count(*) filter (where result = 1) passes, count(*) filter (where result = 2) fails,
           count(*) filter (where result = 3) aborts,
           count(*) filter (where (end_time at time zone ${ZONE})::date = (now() at time zone ${ZONE})::date) today
    from mes_device_cycle where tenant_id = ${tenantId} and device_code in (${shown})`);
  const days = await rowsOf<{ day: string; passes: string; fails: string; aborts: string }>(sql`
    select to_char(g.day, 'YYYY-MM-DD') as day,
           count(c.id) filter (where c.result = 1) passes, count(c.id) filter (where c.result = 2) fails,
           count(c.id) filter (where c.result = 3) aborts
    from generate_series((now() at time zone ${ZONE})::date - 29, (now() at time zone ${ZONE})::date, interval '1 day') g(day)
    left join mes_device_cycle c on c.tenant_id = ${tenantId} and (c.end_time at time zone ${ZONE})::date = g.day
         and c.device_code in (${shown})
    group by g.day order by g.day`);
  const unhandled = sql`w.tenant_id = ${tenantId} and w.is_deleted = 0 and w.status in (1, 3) and w.device_code in (${shown})`;
  const [warn] = await rowsOf<{ n: string }>(sql`select count(*) n from mes_warning w where ${unhandled}`);
  const newest = await rowsOf<{ warning_no: string }>(sql`
    select warning_no from mes_warning w where ${unhandled} order by start_time desc, id desc limit 10`);
  const levels = await rowsOf<{ level: number; n: string }>(sql`
    select l.level, count(w.id) n from generate_series(1, 4) l(level)
    left join mes_warning w on w.level = l.level and w.tenant_id = ${tenantId} and w.is_deleted = 0
         and w.device_code in (${shown})
         and w.start_time >= ((now() at time zone ${ZONE})::date - 29)::timestamp at time zone ${ZONE}
    group by l.level order by l.level`);
  const fault = await rowsOf<{ device_code: string }>(sql`
    select device_code from mes_device d where d.tenant_id = ${tenantId} and d.is_deleted = 0 and ${devices}
      and run_state = 3 order by device_code`);
  const offline = await rowsOf<{ device_code: string }>(sql`
    select device_code from mes_device d where d.tenant_id = ${tenantId} and d.is_deleted = 0 and ${devices}
      and not online and coalesce(last_disconnect_time, last_activity_time, create_time) < now() - interval '24 hours'
    order by device_code`);
  const [people] = await rowsOf<{ n: string }>(sql`
    select count(*) n from blade_user u where u.tenant_id = ${tenantId} and u.is_deleted = 0 and ${users}`);
  const todayStart = sql`((now() at time zone ${ZONE})::date)::timestamp at time zone ${ZONE}`;
  const bd = await rowsOf<{ device_code: string; released: boolean }>(sql`
    select d.device_code,
           coalesce((select v.result = 1 from mes_verification_record v
                      where v.tenant_id = d.tenant_id and v.device_id = d.id and v.is_deleted = 0 and not v.superseded
                        and v.verification_type = 1 and v.test_time >= ${todayStart}
                        and v.test_time < ${todayStart} + interval '1 day'
                      order by v.test_time desc limit 1), false) released
    from mes_device d join mes_product p on p.id = d.product_id and p.category = 2
    where d.tenant_id = ${tenantId} and d.is_deleted = 0 and ${devices} order by d.device_code`);
  const [recalls] = await rowsOf<{ n: string }>(sql`
    select count(*) n from mes_record_recall where tenant_id = ${tenantId} and not handled
      and device_code in (${shown})`);
  const [recent] = await rowsOf<{ passes: string; fails: string }>(sql`
    select count(*) filter (where result = 1) passes, count(*) filter (where result = 2) fails
    from mes_verification_record where tenant_id = ${tenantId} and is_deleted = 0 and not superseded
      and test_time >= ${todayStart} - interval '6 days' and device_code in (${shown})`);
  const n = (v: string | undefined) => Number(v ?? 0);
  return {
    verification: {
      bdDevices: bd.length,
      released: bd.filter((d) => d.released).length,
      notReleased: bd.filter((d) => !d.released).map((d) => d.device_code),
      openRecalls: n(recalls?.n),
      recent: { passes: n(recent?.passes), fails: n(recent?.fails) },
    },
    devices: { total: n(dev?.total), online: n(dev?.online), fault: n(dev?.fault), disinfecting: n(dev?.disinfecting) },
    chairs: n(dev?.chairs),
    assets: categories.map((c) => ({ category: Number(c.category), devices: n(c.devices) })),
    cycles: {
      today: n(cyc?.today),
      total: n(cyc?.total),
      passes: n(cyc?.passes),
      fails: n(cyc?.fails),
      aborts: n(cyc?.aborts),
    },
    cycleDays: days.map((d) => ({ day: d.day, passes: n(d.passes), fails: n(d.fails), aborts: n(d.aborts) })),
    unhandled: n(warn?.n),
    newest: newest.map((w) => w.warning_no),
    levels: levels.map((l) => ({ level: Number(l.level), count: n(l.n) })),
    fault: fault.map((d) => d.device_code),
    offline: offline.map((d) => d.device_code),
    personnel: n(people?.n),
  };
}

function expectMatches(got: WelcomeOverview, want: Awaited<ReturnType<typeof expected>>) {
  expect(got.devices).toEqual(want.devices);
  expect(got.chairs).toBe(want.chairs);
  expect(got.assets).toEqual({ total: want.devices.total, byCategory: want.assets });
  const { passRate, ...cycles } = got.cycles;
  expect(cycles).toEqual(want.cycles);
  expect(passRate).toBe(want.cycles.total ? want.cycles.passes / want.cycles.total : null);
  expect(got.charts.cycleDays).toEqual(want.cycleDays);
  expect(got.charts.warningLevels).toEqual(want.levels);
  expect(got.work.unhandledWarnings).toBe(want.unhandled);
  expect(got.work.warnings.map((w) => w.warningNo)).toEqual(want.newest);
  expect(got.work.dueCounts).toEqual({ fault: want.fault.length, offline: want.offline.length });
  const due = (kind: string) =>
    got.work.due
      .filter((d) => d.kind === kind)
      .map((d) => d.deviceCode)
      .sort();
  expect(due('fault')).toEqual(want.fault.slice(0, 10));
  expect(due('offline')).toEqual(want.offline.slice(0, 10));
  expect(got.personnel).toBe(want.personnel);
  const { notReleasedDevices, ...verification } = got.verification;
  expect(verification).toEqual({
    ...want.verification,
    notReleased: want.verification.notReleased.length,
  });
  if (notReleasedDevices.length)
    expect(notReleasedDevices.map((d) => d.deviceCode)).toEqual(want.verification.notReleased.slice(0, 10));
}

describe('dashboard/overview', () => {
  it('answers the tenant’s figures for its administrator, equal to the raw rows', async () => {
    const got = await overview(admin);
    const want = await expected(TENANT, sql`true`, sql`true`);
    // The data is there: the comparison is not of empty figures.
    expect(want.devices.total).toBeGreaterThanOrEqual(7);
    expect(want.cycles.today).toBeGreaterThan(0);
    expect(want.cycles.fails).toBeGreaterThan(0);
    expect(want.cycles.aborts).toBeGreaterThan(0);
    expect(want.unhandled).toBeGreaterThan(10);
    expect(want.levels.every((l) => l.count > 0)).toBe(true);
    expect(want.offline).toEqual(expect.arrayContaining(['H4-A2', 'H4-B2', 'H4-N1']));
    expect(want.offline).not.toContain('H4-A3'); // offline for 3 hours only
    expect(want.offline).not.toContain('H4-C2'); // removed
    expectMatches(got, want);
    expect(got.charts.cycleDays).toHaveLength(30);
    expect(got.charts.cycleDays.at(-1)?.day).toBe(got.today);
    // The newest warning carries its device's name; due rows their department's.
    expect(got.work.warnings[0]?.deviceName).toMatch(/^H4-.* 名称$/);
    expect(got.work.due.find((d) => d.deviceCode === 'H4-A2')?.deptName).toBe('东一诊所');
    // Released: H4-C1 (passed today); not: H4-A2 (failed after a pass), H4-B2 (yesterday's pass only).
    expect(want.verification.notReleased).toEqual(expect.arrayContaining(['H4-A2', 'H4-B2']));
    expect(want.verification.notReleased).not.toContain('H4-C1');
    expect(want.verification.released).toBeGreaterThanOrEqual(1);
    expect(want.verification.openRecalls).toBe(3);
    expect(want.verification.recent).toEqual({ passes: 4, fails: 3 });
    const blocks = got.verification.notReleasedDevices.filter((d) => d.deviceCode.startsWith('H4-'));
    expect(blocks.map((d) => [d.deviceCode, d.block])).toEqual([
      ['H4-A2', 'bdFailed'],
      ['H4-B2', 'noBd'],
    ]);
  });

  it('shows a department-scoped user only their department’s devices, cycles, warnings and users', async () => {
    const got = await overview(clinicA);
    const want = await expected(
      TENANT,
      sql`d.dept_id = ${CLINIC_A}`,
      sql`${CLINIC_A} = any(string_to_array(u.dept_id, ','))`,
    );
    expect(want.devices).toEqual({ total: 3, online: 1, fault: 1, disinfecting: 1 });
    expect(want.chairs).toBe(12);
    expect(want.personnel).toBeGreaterThanOrEqual(1);
    expectMatches(got, want);
    const all = await overview(admin);
    expect(got.cycles.total).toBeLessThan(all.cycles.total);
    expect(got.personnel).toBeLessThan(all.personnel);
  });

  it('shows another tenant its own figures and none of the first tenant’s', async () => {
    const got = await overview(other);
    const want = await expected(OTHER_TENANT, sql`true`, sql`true`);
    expect(want.devices).toEqual({ total: 2, online: 1, fault: 1, disinfecting: 0 });
    expectMatches(got, want);
    expect(got.work.warnings.every((w) => w.deviceName?.startsWith('H4-A1') || w.deviceName?.startsWith('H4-X2'))).toBe(
      true,
    );
    // Same device code in both tenants: the cycles are only this tenant's own.
    const [own] = await rowsOf<{ n: string }>(
      sql`select count(*) n from mes_device_cycle where tenant_id = ${OTHER_TENANT}`,
    );
    expect(got.cycles.total).toBe(Number(own?.n));
  });

  it('gives a user who may not read warnings or devices the counts, but no rows naming them', async () => {
    const plain = await signInWithScopes(t, { tenantId: TENANT, account: 'h4plain', codes: [] });
    const got = await overview(plain);
    const all = await overview(admin);
    expect(got.devices).toEqual(all.devices);
    expect(got.cycles).toEqual(all.cycles);
    expect(got.work.unhandledWarnings).toBe(all.work.unhandledWarnings);
    expect(all.work.warnings.length).toBeGreaterThan(0);
    expect(all.work.due.length).toBeGreaterThan(0);
    expect(got.work.warnings).toEqual([]);
    expect(got.work.due).toEqual([]);
    const map = await t.as(plain, { method: 'GET', url: `/api${DASHBOARD_DEVICE_MAP_PATH}` });
    expect(map.json().data).toEqual({ depts: [], truncated: false });
  });

  it('refuses an anonymous caller', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api${DASHBOARD_OVERVIEW_PATH}` });
    expect(res.statusCode).toBe(401);
  });
});

describe('dashboard/deviceMap', () => {
  it('groups the scope’s live devices by department, in the departments’ order', async () => {
    const map = await deviceMap(admin);
    const ours = map.depts
      .map((g) => ({ dept: g.deptName, codes: g.devices.map((d) => d.deviceCode).filter((c) => c.startsWith('H4-')) }))
      .filter((g) => g.codes.length);
    expect(ours).toEqual([
      { dept: '东一诊所', codes: ['H4-A1', 'H4-A2', 'H4-A3'] },
      { dept: '东二诊所', codes: ['H4-B1', 'H4-B2'] },
      { dept: '南一诊所', codes: ['H4-C1'] },
      { dept: null, codes: ['H4-N1'] },
    ]);
    const a2 = map.depts.flatMap((g) => g.devices).find((d) => d.deviceCode === 'H4-A2');
    expect(a2).toMatchObject({ online: false, runState: 3, deviceName: 'H4-A2 名称' });
    expect(map.truncated).toBe(false);

    const scoped = await deviceMap(clinicA);
    expect(scoped.depts.map((g) => [g.deptName, g.devices.map((d) => d.deviceCode)])).toEqual([
      ['东一诊所', ['H4-A1', 'H4-A2', 'H4-A3']],
    ]);
    const others = await deviceMap(other);
    expect(others.depts.flatMap((g) => g.devices.map((d) => d.deviceCode)).sort()).toEqual(['H4-A1', 'H4-X2']);
  });
});
