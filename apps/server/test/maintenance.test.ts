import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceRunState, MAINTENANCE_DUE_ROUTE, MaintenanceDueState, MaintenanceState } from '@mes/contracts';
import { createDeviceDirectory } from '../src/modules/device';
import { postDueNotices } from '../src/modules/maintenance/due-notices';
import { Ingestion } from '../src/modules/telemetry/ingestion';
import { nextId } from '../src/platform/db/ids';
import { sendBatch } from './support/ingestion-batch';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 28 point 7, maintenance and consumables, against the real server and PostgreSQL: plans per
 * product fall due after N cycles or N days, the due list shows it, the sweep posts one notice per
 * due period, a record sets and clears the device's maintenance and starts the next period, bad
 * input is refused in both languages, and a tank's level reminds before its low-level warning.
 */

let t: TestApp;
let admin: string;
const TENANT = '000000';

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

type Lang = 'zh' | 'en';
const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>, lang: Lang = 'zh') =>
  t.as(admin, { method, url, ...(payload ? { payload } : {}), headers: { 'accept-language': lang } });

const post = async (url: string, payload: Record<string, unknown>) => {
  const reply = await call('POST', url, payload);
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json().data as string;
};
const get = async <R>(url: string): Promise<R> => {
  const reply = await call('GET', url);
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json().data as R;
};

/** A refusal: 400, in the language asked for. */
async function refused(url: string, payload: Record<string, unknown>, zh: string, en: string) {
  const inZh = await call('POST', url, payload, 'zh');
  expect(inZh.statusCode, inZh.body).toBe(400);
  expect(inZh.json().msg).toContain(zh);
  const inEn = await call('POST', url, payload, 'en');
  expect(inEn.statusCode, inEn.body).toBe(400);
  expect(inEn.json().msg).toContain(en);
}

/** A product through the API, with a tank level field (and the fields the other tests leave alone). */
async function product(extra: Record<string, unknown> = {}): Promise<string> {
  const code = `PM${randomBytes(3).toString('hex')}`;
  return post('/api/basic/product/submit', {
    productCode: code,
    productName: `保养测试${code}`,
    fields: [{ fieldKey: 'tankLevel', fieldName: '消毒液液位', dataType: 'float', unit: '%', access: 'r' }],
    ...extra,
  });
}

async function device(productId: string): Promise<{ id: string; code: string }> {
  const code = `DM${randomBytes(3).toString('hex')}`;
  const id = await post('/api/basic/device/submit', { deviceCode: code, deviceName: `水路${code}`, productId });
  return { id, code };
}

/**
 * Finished cycles of the device, as ingestion stores them, each starting at the database's clock
 * (a millisecond apart: two inserts can read the same clock, and a device's cycles start apart).
 */
async function cycles(dev: { id: string; code: string }, count: number) {
  for (let i = 0; i < count; i += 1)
    await rows(
      `insert into mes_device_cycle (id, tenant_id, device_id, device_code, start_time, end_time, duration_seconds, result)
       values ($1, $2, $3, $4, clock_timestamp() + $5 * interval '1 millisecond',
               clock_timestamp() + $5 * interval '1 millisecond' + interval '1 second', 1, 1)`,
      [nextId(), TENANT, dev.id, dev.code, i],
    );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface DueRow {
  id: string;
  deviceId: string;
  planId: string;
  lastMaintenance: string | null;
  cyclesSince: number;
  daysSince: number;
  cyclesLeft: number | null;
  dueAt: string | null;
  dueState: number;
}
const due = async (deviceId: string, planId: string): Promise<DueRow> => {
  const page = await get<{ records: DueRow[] }>(`/api${MAINTENANCE_DUE_ROUTE}?deviceId=${deviceId}&size=50`);
  const row = page.records.find((r) => r.planId === planId);
  if (!row) throw new Error(`no due row for plan ${planId}: ${JSON.stringify(page.records)}`);
  return row;
};

const deviceRow = async (code: string) =>
  (await get<{ records: { maintenance: boolean; runState: number }[] }>(`/api/basic/device/list?deviceCode=${code}`))
    .records[0]!;

const noticesOf = (code: string) =>
  rows<{ title: string; category: number }>(
    `select title, category from blade_notice where is_deleted = 0 and title like $1 order by create_time`,
    [`%${code}%`],
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('plans and the due list', () => {
  let productId: string;
  let dev: { id: string; code: string };
  let planId: string;

  beforeAll(async () => {
    productId = await product();
    dev = await device(productId);
    planId = await post('/api/basic/maintenance-plan/submit', {
      planName: '每5周期保养',
      productId,
      intervalCycles: 5,
      noticeCycles: 2,
      checks: [
        { checkName: '过滤器', standard: '无堵塞' },
        { checkName: '密封圈', standard: '无老化' },
      ],
    });
  });

  it('refuses a plan without an interval, and a notice as long as the interval, in both languages', async () => {
    await refused(
      '/api/basic/maintenance-plan/submit',
      { planName: '无间隔', productId },
      '请填写间隔周期数或间隔天数',
      'Give the interval in cycles or in days',
    );
    await refused(
      '/api/basic/maintenance-plan/submit',
      { planName: '提醒过长', productId, intervalDays: 10, noticeDays: 10 },
      '提前提醒天数应小于间隔天数',
      'The notice in days must be less than the interval in days',
    );
  });

  it('counts the cycles since the device was added and falls due soon, then overdue', async () => {
    expect(await due(dev.id, planId)).toMatchObject({
      lastMaintenance: null,
      cyclesSince: 0,
      cyclesLeft: 5,
      daysSince: 0,
      dueAt: null,
      dueState: MaintenanceDueState.ok,
    });
    await cycles(dev, 2);
    expect(await due(dev.id, planId)).toMatchObject({
      cyclesSince: 2,
      cyclesLeft: 3,
      dueState: MaintenanceDueState.ok,
    });
    await cycles(dev, 1);
    expect(await due(dev.id, planId)).toMatchObject({
      cyclesSince: 3,
      cyclesLeft: 2,
      dueState: MaintenanceDueState.soon,
    });
    // The list filters by due state, as the screen's search does.
    const soon = await get<{ records: DueRow[] }>(
      `/api${MAINTENANCE_DUE_ROUTE}?dueState=${MaintenanceDueState.soon}&deviceId=${dev.id}`,
    );
    expect(soon.records.map((r) => r.planId)).toEqual([planId]);
  });

  it('posts one notice for the due period, however often the sweep runs', async () => {
    expect(await postDueNotices(t.ctx)).toBeGreaterThanOrEqual(1);
    await postDueNotices(t.ctx);
    await cycles(dev, 2);
    expect(await due(dev.id, planId)).toMatchObject({
      cyclesSince: 5,
      cyclesLeft: 0,
      dueState: MaintenanceDueState.overdue,
    });
    // Overdue now, still the same period: no second notice.
    await postDueNotices(t.ctx);
    const notices = await noticesOf(dev.code);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ category: 6 });
    expect(notices[0]!.title).toContain('即将到期保养');
    // Readers see it in their inbox.
    const inbox = await get<{ records?: { title: string }[]; list?: { title: string }[] }>(
      '/api/blade-desk/notice/list?size=50',
    );
    expect(JSON.stringify(inbox)).toContain(dev.code);
  });

  it('a record started puts the device under maintenance with the plan checks; completing it clears it and starts a new period', async () => {
    const url = '/api/basic/maintenance-record/submit';
    const started = new Date(Date.now() - 120_000);
    const stamp = (d: Date) => {
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    };
    const recordId = await post(url, {
      deviceId: dev.id,
      planId,
      technician: '王工',
      startTime: stamp(started),
    });
    expect(await deviceRow(dev.code)).toMatchObject({ maintenance: true, runState: DeviceRunState.maintenance });
    const record = await get<{ state: number; checks: { id: string; checkName: string; result: number | null }[] }>(
      `/api/basic/maintenance-record/detail?id=${recordId}`,
    );
    expect(record.state).toBe(MaintenanceState.open);
    expect(record.checks.map((c) => c.checkName)).toEqual(['过滤器', '密封圈']);

    // A second open record of the same device, an end without a result, an end before the start,
    // and a completion with a check left without result are refused.
    await refused(
      url,
      { deviceId: dev.id, planId, technician: '李工', startTime: stamp(started) },
      '已有进行中的保养记录',
      'has a maintenance in progress',
    );
    await refused(
      url,
      { id: recordId, endTime: stamp(new Date()) },
      '填写结束时间时请同时填写保养结果',
      'A record with an end time needs its result',
    );
    await refused(
      url,
      { id: recordId, endTime: stamp(new Date(started.getTime() - 60_000)), result: 1 },
      '结束时间不能早于开始时间',
      'The end time cannot be before the start time',
    );
    // The end is the next whole second (times travel to the second); the cycles counted after it come later.
    const ended = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000);
    await refused(
      url,
      {
        id: recordId,
        endTime: stamp(ended),
        result: 1,
        checks: [
          { id: record.checks[0]!.id, checkName: '过滤器', result: 1 },
          { id: record.checks[1]!.id, checkName: '密封圈' },
        ],
      },
      '「检查结果」第 2 行',
      'Checks, row 2',
    );
    expect((await deviceRow(dev.code)).maintenance).toBe(true);

    await post(url, {
      id: recordId,
      endTime: stamp(ended),
      result: 1,
      checks: [
        { id: record.checks[0]!.id, checkName: '过滤器', result: 1 },
        { id: record.checks[1]!.id, checkName: '密封圈', result: 2, note: '已更换' },
      ],
      parts: [{ partName: '密封圈', partNo: 'SR-20', quantity: 2 }],
    });
    const done = await get<{ state: number; parts: { partName: string; quantity: number }[] }>(
      `/api/basic/maintenance-record/detail?id=${recordId}`,
    );
    expect(done.state).toBe(MaintenanceState.completed);
    expect(done.parts).toMatchObject([{ partName: '密封圈', quantity: 2 }]);
    const after = await deviceRow(dev.code);
    expect(after.maintenance).toBe(false);
    expect(after.runState).not.toBe(DeviceRunState.maintenance);

    // The counters start again from the end of the maintenance.
    const reset = await due(dev.id, planId);
    expect(reset).toMatchObject({ cyclesSince: 0, cyclesLeft: 5, dueState: MaintenanceDueState.ok });
    expect(reset.lastMaintenance).toBe(stamp(ended));
    // The next period gets its own notice when it falls due.
    await pause(Math.max(0, ended.getTime() - Date.now()) + 50);
    await cycles(dev, 3);
    expect(await postDueNotices(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await noticesOf(dev.code)).toHaveLength(2);
  });

  it('refuses a plan of another product and a record for a device of another tenant', async () => {
    const other = await product();
    const otherPlan = await post('/api/basic/maintenance-plan/submit', {
      planName: '他品计划',
      productId: other,
      intervalDays: 7,
    });
    await refused(
      '/api/basic/maintenance-record/submit',
      { deviceId: dev.id, planId: otherPlan, technician: '王工', startTime: '2026-01-01 08:00:00' },
      '所选保养计划不属于该设备的产品',
      "The chosen plan is not a plan of the device's product",
    );
  });

  it('falls due by days from the last maintenance, with the notice days before', async () => {
    const daysPlan = await post('/api/basic/maintenance-plan/submit', {
      planName: '每30天保养',
      productId,
      intervalDays: 30,
      noticeDays: 5,
    });
    const fresh = await due(dev.id, daysPlan);
    expect(fresh.dueState).toBe(MaintenanceDueState.ok);
    // A maintenance of this plan that ended 27 days ago: due in 3 days, inside the 5 days' notice.
    await rows(
      `insert into mes_maintenance_record (id, tenant_id, device_id, plan_id, technician, start_time, end_time, result, state)
       values ($1, $2, $3, $4, '赵工', now() - interval '27 days 1 hour', now() - interval '27 days', 1, 2)`,
      [nextId(), TENANT, dev.id, daysPlan],
    );
    const soon = await due(dev.id, daysPlan);
    expect(soon).toMatchObject({ daysSince: 27, dueState: MaintenanceDueState.soon });
    expect(soon.lastMaintenance).not.toBeNull();
    const dueAt = new Date(soon.dueAt!.replace(' ', 'T')).getTime();
    const lastAt = new Date(soon.lastMaintenance!.replace(' ', 'T')).getTime();
    expect(Math.round((dueAt - lastAt) / 86_400_000)).toBe(30);
  });
});

describe('refill reminder from the tank level', () => {
  let code: string;
  let ingestion: Ingestion;
  const T0 = Date.now() - 30 * 60_000;
  const level = (seconds: number, value: number) => ({
    code,
    kind: 'telemetry',
    payload: { ts: T0 + seconds * 1000, values: { tankLevel: value } },
  });
  const warnings = () =>
    rows<{ warning_type: string; level: number; status: number; end_time: Date | null; threshold: string }>(
      `select warning_type, level, status, end_time, threshold from mes_warning where device_code = $1 order by start_time`,
      [code],
    );

  beforeAll(async () => {
    // Low limit L = 20 % on the PLC variable; remind 10 % above it, at level 4 (提示). Every
    // warning level makes the device faulty (faultWarningLevel 4), except a reminder.
    const productId = await product({
      alarmRules: [{ ruleType: 'refill', fieldKey: 'tankLevel', threshold: 10, level: 4 }],
      faultWarningLevel: 4,
    });
    await post('/api/basic/plcvariable/submit', {
      productId,
      name: 'tankLevel',
      address: '40001',
      dataType: 'FLOAT',
      limitL: 20,
      limitLevel: 2,
    });
    code = (await device(productId)).code;
    ingestion = new Ingestion({
      pool: t.database.pool,
      directory: createDeviceDirectory(t.ctx),
      warn: () => undefined,
      now: () => Date.now(),
      batchDelayMs: 5,
      changes: t.ctx.changes,
    });
  });
  afterAll(() => ingestion.stop());

  it('reminds once below low + margin, before the low-level warning, and clears when the tank is refilled', async () => {
    await sendBatch(ingestion, TENANT, [level(0, 80), level(10, 45)]);
    expect(await warnings()).toEqual([]);
    // 29 % < 20 + 10: the reminder, at its own (lower) level; the low-level warning not yet.
    await sendBatch(ingestion, TENANT, [level(20, 29), level(30, 27), level(40, 29.5), level(50, 25)]);
    let found = await warnings();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ warning_type: 'refill', level: 4, end_time: null });
    expect(Number(found[0]!.threshold)).toBe(30);
    // A reminder is work to do, not a fault: the device is not shown faulty for it.
    expect((await deviceRow(code)).runState).not.toBe(DeviceRunState.fault);
    // Wavering at 31 does not end the reminder (it ends above 40), so no second one comes at 29.
    await sendBatch(ingestion, TENANT, [level(60, 31), level(70, 29)]);
    found = await warnings();
    expect(found).toHaveLength(1);
    // Below 20: the low-level warning of the PLC limit comes as well, and that one is a fault.
    await sendBatch(ingestion, TENANT, [level(80, 18)]);
    found = await warnings();
    expect(found.map((w) => w.warning_type).sort()).toEqual(['limit', 'refill']);
    expect((await deviceRow(code)).runState).toBe(DeviceRunState.fault);
    // Refilled to 90 %: both end.
    await sendBatch(ingestion, TENANT, [level(90, 90)]);
    found = await warnings();
    expect(found.every((w) => w.end_time !== null)).toBe(true);
  });
});
