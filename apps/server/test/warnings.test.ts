import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WARNING_AROUND_PATH,
  WARNING_HANDLE_PATH,
  WarningStatus,
  type LiveEvent,
  type WarningAroundReply,
} from '@mes/contracts';
import { createDeviceDirectory } from '../src/modules/device';
import { nextId } from '../src/platform/db/ids';
import { dataScope, role, roleScope } from '../src/platform/db/schema';
import { LIVE_CHANNEL } from '../src/platform/live/notify-live';
import { sweepInactiveDevices } from '../src/modules/telemetry/device-presence';
import { Ingestion } from '../src/modules/telemetry/ingestion';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { DEPT_IDS, SEED_MENUS } from '../src/seed/seed-data';
import { createTestApp, type TestApp } from './support/test-app';
import { signInToNewTenant, signInWithScopes } from './support/scoped-user';
import { sendBatch, type DeviceMessage } from './support/ingestion-batch';

/**
 * Warnings end to end (docs/warnings.md): product alarm rules evaluated by the real ingestion on
 * the real database (the device module's directory, the change feed, the batch transaction), the
 * rows and live events they produce, a restarted ingestion continuing them, cycles and their day
 * counts, and the `handle` / `around` routes with tenant and department scoping.
 */

let t: TestApp;
let admin: string;
const warned: string[] = [];
const events: LiveEvent[] = [];
let listener: pg.Client;
const TENANT = '000000';
/** Sample times: an hour ago, so every point is in range and in the past. */
const T0 = Date.now() - 60 * 60_000;
const at = (seconds: number) => T0 + seconds * 1000;

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

interface Rule {
  ruleType: string;
  fieldKey?: string;
  operator?: string;
  threshold?: string | null;
  durationSeconds?: number;
  level?: number;
}

/** A product with fields `temp` (℃) and `cl` (mg/L), a program 2 aiming at 50 mg/L, and these rules. */
async function product(rules: Rule[]): Promise<string> {
  const id = nextId();
  const code = `P${randomBytes(4).toString('hex')}`;
  await rows(
    `insert into mes_product (id, tenant_id, product_code, product_name, inactivity_seconds) values ($1, $2, $3, $3, 600)`,
    [id, TENANT, code],
  );
  await rows(
    `insert into mes_product_field (id, tenant_id, product_id, field_key, field_name, data_type, unit, precision)
     values ($1, $3, $4, 'temp', '腔体温度', 'float', '℃', 1), ($2, $3, $4, 'cl', '有效氯', 'float', 'mg/L', 2),
            ($5, $3, $4, 'program', '程序号', 'int', '', 0)`,
    [nextId(), nextId(), TENANT, id, nextId()],
  );
  await rows(
    `insert into mes_product_program (id, tenant_id, product_id, program_no, program_name, target_concentration)
     values ($1, $2, $3, 2, '冲击消毒', 50)`,
    [nextId(), TENANT, id],
  );
  for (const [i, r] of rules.entries())
    await rows(
      `insert into mes_product_alarm_rule (id, tenant_id, product_id, rule_type, field_key, operator, threshold,
                                           duration_seconds, level, sort)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        nextId(),
        TENANT,
        id,
        r.ruleType,
        r.fieldKey ?? '',
        r.operator ?? '>',
        r.threshold ?? null,
        r.durationSeconds ?? 0,
        r.level ?? 2,
        i + 1,
      ],
    );
  return id;
}

async function device(productId: string, deptId: string | null = DEPT_IDS.east): Promise<string> {
  const code = `D${randomBytes(4).toString('hex')}`;
  await rows(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, dept_id, mqtt_client_id)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [nextId(), TENANT, code, `灭菌器${code.slice(1, 4)}`, productId, deptId, `c-${code}`],
  );
  return code;
}

const makeIngestion = () =>
  new Ingestion({
    pool: t.database.pool,
    directory: createDeviceDirectory(t.ctx),
    warn: (message) => void warned.push(message),
    now: () => Date.now(),
    batchDelayMs: 5,
    changes: t.ctx.changes,
  });

/** Sends messages as one batch and waits for its commit. */
const send = (ingestion: Ingestion, messages: DeviceMessage[]) => sendBatch(ingestion, TENANT, messages);

const temp = (code: string, seconds: number, value: number) => ({
  code,
  kind: 'telemetry',
  payload: { ts: at(seconds), values: { temp: value } },
});

interface WarningRow {
  id: string;
  warning_no: string;
  status: number;
  repeat_count: number;
  rule_key: string;
  warning_type: string;
  level: number;
  field: string;
  trigger_value: string;
  threshold: string;
  message: string;
  dept_id: string | null;
  start_time: Date;
  last_time: Date;
  end_time: Date | null;
  clear_time: Date | null;
  handle_user: string | null;
  handle_user_name: string;
  handle_result: string;
  handle_time: Date | null;
  ack_time: Date | null;
}

const warningsOf = (code: string) =>
  rows<WarningRow>(
    `select id::text, warning_no, status, repeat_count, rule_key, warning_type, level, field, trigger_value, threshold,
            message, dept_id::text, start_time, last_time, end_time, clear_time, handle_user::text, handle_user_name,
            handle_result, handle_time, ack_time
       from mes_warning where device_code = $1 order by start_time`,
    [code],
  );

const eventsOf = (code: string) => events.filter((e) => 'deviceCode' in e && e.deviceCode === code);

/** Waits for the NOTIFYs of committed transactions to arrive on the listening connection. */
const settle = () => new Promise((r) => setTimeout(r, 150));

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  listener = new pg.Client({ connectionString: t.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => {
    const parsed = JSON.parse(n.payload ?? '[]') as LiveEvent | LiveEvent[];
    events.push(...(Array.isArray(parsed) ? parsed : [parsed]));
  });
  await listener.query(`LISTEN ${LIVE_CHANNEL}`);
}, 60_000);

afterAll(async () => {
  await listener?.end();
  await t?.close();
});

describe('threshold rules', () => {
  let code: string;
  let ingestion: Ingestion;
  beforeAll(async () => {
    code = await device(
      await product([
        { ruleType: 'threshold', fieldKey: 'temp', operator: '>', threshold: '100', durationSeconds: 30 },
      ]),
    );
    ingestion = makeIngestion();
  });
  afterAll(() => ingestion.stop());

  it('raise exactly one warning once the value held past the threshold for the duration', async () => {
    // The list's total of this device's warnings, as the screen and the bell read it (cached totals).
    const listed = async () =>
      (await t.as(admin, { method: 'GET', url: `/api/report/warning/list?deviceCode=${code}` })).json().data as {
        total: number;
        records: unknown[];
      };
    await send(ingestion, [temp(code, 0, 101), temp(code, 10, 102), temp(code, 20, 103)]);
    expect(await warningsOf(code)).toEqual([]);
    expect((await listed()).total).toBe(0);
    await send(ingestion, [temp(code, 30, 104.5)]);
    await send(ingestion, [temp(code, 40, 105)]);
    await settle();
    // The batch announced the new row: the cached total of 0 is not served again.
    expect(await listed()).toMatchObject({ total: 1, records: [expect.anything()] });
    const [w, ...more] = await warningsOf(code);
    expect(more).toEqual([]);
    expect(w).toMatchObject({
      status: WarningStatus.activeUnhandled,
      repeat_count: 1,
      warning_type: 'threshold',
      level: 2,
      field: 'temp',
      trigger_value: '104.5',
      threshold: '100',
      dept_id: DEPT_IDS.east,
      end_time: null,
    });
    expect(w!.rule_key).toMatch(/^threshold:\d+$/);
    expect(w!.warning_no).toMatch(/^W\d{24}$/);
    expect(w!.start_time.getTime()).toBe(at(30));
    expect(w!.message).toContain(code);
    expect(w!.message).toContain('腔体温度');
    expect(w!.message).toContain('104.5℃');
    expect(w!.message).toContain('阈值 100℃');
    await settle();
    expect(eventsOf(code).filter((e) => e.type === 'warning')).toMatchObject([
      { action: 'raised', warningId: w!.id, status: 1, level: 2, tenantId: TENANT, deptId: DEPT_IDS.east },
    ]);
  });

  it('clear when the value returns, and count a repeat within ten minutes on the same row', async () => {
    await send(ingestion, [temp(code, 50, 99)]);
    let [w] = await warningsOf(code);
    expect(w).toMatchObject({ status: WarningStatus.clearedUnhandled, repeat_count: 1 });
    expect(w!.end_time?.getTime()).toBe(at(50));
    expect(w!.clear_time).not.toBeNull();

    await send(ingestion, [temp(code, 60, 110), temp(code, 80, 111)]);
    expect((await warningsOf(code))[0]!.status).toBe(WarningStatus.clearedUnhandled);
    await send(ingestion, [temp(code, 90, 112)]);
    const all = await warningsOf(code);
    expect(all).toHaveLength(1);
    [w] = all;
    expect(w).toMatchObject({
      status: WarningStatus.activeUnhandled,
      repeat_count: 2,
      end_time: null,
      trigger_value: '112',
    });
    expect(w!.last_time.getTime()).toBe(at(90));

    await send(ingestion, [temp(code, 100, 20)]);
    expect((await warningsOf(code))[0]!.status).toBe(WarningStatus.clearedUnhandled);
    await settle();
    expect(eventsOf(code).flatMap((e) => (e.type === 'warning' ? [e.action] : []))).toEqual([
      'raised',
      'cleared',
      'repeated',
      'cleared',
    ]);
  });

  it('raise nothing for an excursion shorter than the duration', async () => {
    const short = await device(
      await product([
        { ruleType: 'threshold', fieldKey: 'temp', operator: '>', threshold: '100', durationSeconds: 30 },
      ]),
    );
    await send(ingestion, [temp(short, 0, 150), temp(short, 20, 150), temp(short, 25, 90), temp(short, 40, 150)]);
    await send(ingestion, [temp(short, 60, 150), temp(short, 65, 90)]);
    expect(await warningsOf(short)).toEqual([]);
  });
});

describe('rule changes', () => {
  it('apply at once when the product is written (the change feed drops the cached rules)', async () => {
    const productId = await product([]);
    const code = await device(productId);
    const ingestion = makeIngestion();
    await send(ingestion, [temp(code, 0, 150)]);
    await rows(
      `insert into mes_product_alarm_rule (id, tenant_id, product_id, rule_type, field_key, operator, threshold, level)
       values ($1, $2, $3, 'threshold', 'temp', '>', 120, 1)`,
      [nextId(), TENANT, productId],
    );
    // What the product screen's save announces (docs/resources.md "Totals").
    await t.ctx.totals.changed('product', TENANT);
    await send(ingestion, [temp(code, 10, 151)]);
    await ingestion.stop();
    expect(await warningsOf(code)).toMatchObject([{ status: WarningStatus.activeUnhandled, level: 1 }]);
  });
});

describe('concentration, limits and offline', () => {
  it('concentration below the running program’s target, and PLC limits HH one level more severe', async () => {
    const productId = await product([
      { ruleType: 'concentration', fieldKey: 'cl', threshold: null, durationSeconds: 0, level: 3 },
    ]);
    await rows(
      `insert into mes_plc_variable (id, tenant_id, product_id, name, limit_h, limit_hh, limit_level)
       values ($1, $2, $3, 'temp', 137, 138, 2)`,
      [nextId(), TENANT, productId],
    );
    const code = await device(productId);
    const ingestion = makeIngestion();
    await send(ingestion, [
      { code, kind: 'telemetry', payload: { ts: at(0), values: { program: 2, cl: 40, temp: 120 } } },
      { code, kind: 'telemetry', payload: { ts: at(10), values: { program: 2, cl: 55, temp: 137.5 } } },
      { code, kind: 'telemetry', payload: { ts: at(20), values: { program: 2, cl: 55, temp: 139 } } },
    ]);
    await ingestion.stop();
    const all = await warningsOf(code);
    const byType = (type: string, key?: RegExp) =>
      all.filter((w) => w.warning_type === type && (!key || key.test(w.rule_key)));
    expect(byType('concentration')).toMatchObject([
      { status: WarningStatus.clearedUnhandled, trigger_value: '40', threshold: '50', level: 3 },
    ]);
    expect(byType('concentration')[0]!.message).toContain('程序 2');
    expect(byType('limit', /:H$/)).toMatchObject([
      { status: WarningStatus.activeUnhandled, level: 2, threshold: '137' },
    ]);
    expect(byType('limit', /:HH$/)).toMatchObject([
      { status: WarningStatus.activeUnhandled, level: 1, threshold: '138' },
    ]);
    expect(byType('limit', /:HH$/)[0]!.message).toContain('高于高高限');
  });

  it('offline: raised by the sweep once the device stayed offline for the duration, cleared when it is back', async () => {
    const code = await device(await product([{ ruleType: 'offline', durationSeconds: 60, level: 1 }]));
    const ingestion = makeIngestion();
    await send(ingestion, [temp(code, 0, 20)]);
    await send(ingestion, [{ code, kind: 'status', payload: 'offline' }]);
    expect(await sweepInactiveDevices(t.ctx.db, new Date(Date.now() + 30_000))).toMatchObject({ warnings: 0 });
    expect(await warningsOf(code)).toEqual([]);
    expect(await sweepInactiveDevices(t.ctx.db, new Date(Date.now() + 61_000))).toMatchObject({ warnings: 1 });
    expect(await sweepInactiveDevices(t.ctx.db, new Date(Date.now() + 120_000))).toMatchObject({ warnings: 0 });
    let all = await warningsOf(code);
    expect(all).toMatchObject([{ warning_type: 'offline', status: WarningStatus.activeUnhandled, level: 1 }]);
    expect(all[0]!.message).toContain('离线');
    await send(ingestion, [{ code, kind: 'status', payload: 'online' }]);
    all = await warningsOf(code);
    expect(all).toMatchObject([{ status: WarningStatus.clearedUnhandled }]);
    await ingestion.stop();
    await settle();
    expect(eventsOf(code).map((e) => `${e.type}:${e.action}`)).toEqual([
      'device:online',
      'device:offline',
      // The critical (level 1) offline warning holds the device in fault while unhandled (docs/devices.md "Run state").
      'device:state',
      'warning:raised',
      'device:online',
      'warning:cleared',
    ]);
  });
});

const cycle = (code: string, startSeconds: number, result: string, extra: Record<string, unknown> = {}) => ({
  code,
  kind: 'cycle',
  payload: {
    ts: at(startSeconds + 600),
    program: 2,
    programName: '134℃ 朊病毒',
    start: new Date(at(startSeconds)).toISOString(),
    end: new Date(at(startSeconds + 600)).toISOString(),
    durationSeconds: 600,
    result,
    faultCode: result === 'pass' ? 0 : 12,
    targetTemperature: 134,
    maxTemperature: 135.2,
    minHoldTemperature: 134.1,
    maxPressure: 212.5,
    holdSeconds: 240,
    ...extra,
  },
});

describe('cycles', () => {
  it('store each cycle once, redelivered or repeated in a batch, with its figures, and count it per day', async () => {
    const code = await device(await product([]));
    const ingestion = makeIngestion();
    await send(ingestion, [cycle(code, 0, 'pass'), cycle(code, 0, 'pass'), cycle(code, 1000, 'fail')]);
    await send(ingestion, [cycle(code, 0, 'pass'), cycle(code, 2000, 'aborted'), cycle(code, 1000, 'fail')]);
    // A cycle that ends in another day (Asia/Shanghai).
    await send(ingestion, [cycle(code, -86_400, 'pass')]);
    const stored = await rows<Record<string, unknown>>(
      `select result, program_no, program_name, duration_seconds, fault_code, max_temperature::float8 as max_t,
              min_temperature::float8 as min_t, max_pressure::float8 as max_p, hold_seconds, figures, dept_id::text
         from mes_device_cycle where device_code = $1 order by start_time`,
      [code],
    );
    expect(stored.map((r) => r.result)).toEqual([1, 1, 2, 3]);
    expect(stored[1]).toMatchObject({
      program_no: 2,
      program_name: '134℃ 朊病毒',
      duration_seconds: 600,
      fault_code: 0,
      max_t: 135.2,
      min_t: 134.1,
      max_p: 212.5,
      hold_seconds: 240,
      dept_id: DEPT_IDS.east,
      figures: {
        targetTemperature: 134,
        maxTemperature: 135.2,
        minHoldTemperature: 134.1,
        maxPressure: 212.5,
        holdSeconds: 240,
      },
    });
    const days = await rows<{ cycles: number }>(
      `select day::text, cycles, passes, fails, aborts, seconds::int from mes_device_cycle_day where device_code = $1 order by day`,
      [code],
    );
    const counted = await rows(
      `select (end_time at time zone 'Asia/Shanghai')::date::text as day, count(*)::int as cycles,
              (count(*) filter (where result = 1))::int as passes, (count(*) filter (where result = 2))::int as fails,
              (count(*) filter (where result = 3))::int as aborts, sum(duration_seconds)::int as seconds
         from mes_device_cycle where device_code = $1 group by 1 order by 1`,
      [code],
    );
    expect(days).toEqual(counted);
    expect(days.reduce((n, d) => n + d.cycles, 0)).toBe(4);
    await ingestion.stop();
    await settle();
    expect(eventsOf(code).filter((e) => e.type === 'cycle')).toHaveLength(4);
  });

  it('count a malformed cycle report as malformed, store nothing and say why in the message log', async () => {
    const code = await device(await product([]));
    const ingestion = makeIngestion();
    const before = ingestion.counters.malformed;
    await send(ingestion, [
      { code, kind: 'cycle', payload: { start: 'yesterday', end: new Date().toISOString(), result: 'pass' } },
      { code, kind: 'cycle', payload: { ...cycle(code, 0, 'pass').payload, result: 'ok' } },
      { code, kind: 'cycle', payload: 'not json' },
    ]);
    await ingestion.stop();
    expect(ingestion.counters.malformed - before).toBe(3);
    expect(await rows(`select 1 from mes_device_cycle where device_code = $1`, [code])).toEqual([]);
    const logged = await rows<{ error: string }>(
      `select error from mes_mqtt_message where device_code = $1 order by create_time, error`,
      [code],
    );
    expect(logged.map((r) => r.error).sort()).toEqual([
      'cycle not stored: cycle result is neither pass, fail nor aborted',
      'cycle not stored: cycle start: is neither epoch milliseconds nor an ISO time',
      'cycle not stored: payload is not JSON',
    ]);
    expect(warned.some((w) => w.includes('cycle report') && w.includes(code))).toBe(true);
  });

  it('a failed or aborted cycle raises the cycle rule’s warning, repeats count up, a passed one clears it', async () => {
    const code = await device(await product([{ ruleType: 'cycle', level: 2 }]));
    const ingestion = makeIngestion();
    await send(ingestion, [cycle(code, 0, 'fail')]);
    await send(ingestion, [cycle(code, 1000, 'aborted'), cycle(code, 0, 'fail')]);
    let all = await warningsOf(code);
    expect(all).toMatchObject([{ warning_type: 'cycle', status: WarningStatus.activeUnhandled, repeat_count: 2 }]);
    expect(all[0]!.message).toMatch(/中止.*故障码 12/);
    await send(ingestion, [cycle(code, 2000, 'pass')]);
    all = await warningsOf(code);
    expect(all).toMatchObject([{ status: WarningStatus.clearedUnhandled, repeat_count: 2 }]);
    await ingestion.stop();
  });
});

describe('a restarted ingestion', () => {
  const rule = [{ ruleType: 'threshold', fieldKey: 'temp', operator: '>', threshold: '100', durationSeconds: 30 }];

  it('continues the open warning instead of making a second one, and clears it', async () => {
    const code = await device(await product(rule));
    const first = makeIngestion();
    await send(first, [temp(code, 0, 120), temp(code, 30, 121)]);
    await first.stop();
    expect(await warningsOf(code)).toMatchObject([{ status: WarningStatus.activeUnhandled }]);
    const second = makeIngestion();
    await send(second, [temp(code, 40, 122), temp(code, 80, 123)]);
    expect(await warningsOf(code)).toMatchObject([{ status: WarningStatus.activeUnhandled, repeat_count: 1 }]);
    await send(second, [temp(code, 90, 80)]);
    expect(await warningsOf(code)).toMatchObject([{ status: WarningStatus.clearedUnhandled, repeat_count: 1 }]);
    await second.stop();
  });

  it('continues a hold that began before the restart', async () => {
    const code = await device(await product(rule));
    const first = makeIngestion();
    await send(first, [temp(code, 0, 120), temp(code, 20, 121)]);
    await first.stop();
    const second = makeIngestion();
    await send(second, [temp(code, 30, 122)]);
    const [w] = await warningsOf(code);
    expect(w?.start_time.getTime()).toBe(at(30));
    await second.stop();
  });
});

describe('handle and around', () => {
  let code: string;
  let warningId: string;
  let otherTenant: string;
  let southUser: string;
  let eastUser: string;

  const handle = (token: string, payload: unknown, form = false) =>
    t.as(token, {
      method: 'POST',
      url: `/api${WARNING_HANDLE_PATH}`,
      ...(form
        ? {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams(payload as Record<string, string>).toString(),
          }
        : { payload: payload as Record<string, unknown> }),
    });

  /** A role whose warnings are those of the user's own department (data scope 3). */
  async function deptRole(account: string): Promise<string> {
    const roleId = nextId();
    await t.ctx.db.insert(role).values({ id: roleId, tenantId: TENANT, roleName: account, roleAlias: `r_${account}` });
    const scopeId = nextId();
    await t.ctx.db.insert(dataScope).values({
      id: scopeId,
      menuId: SEED_MENUS.find((m) => m.code === 'warning')?.id ?? '0',
      resourceCode: 'warning',
      scopeName: '本部门告警',
      scopeType: 3,
      scopeValue: '',
    });
    await t.ctx.db.insert(roleScope).values({ id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId, roleId });
    return roleId;
  }

  beforeAll(async () => {
    code = await device(
      await product([{ ruleType: 'threshold', fieldKey: 'temp', operator: '>', threshold: '100', durationSeconds: 0 }]),
    );
    const ingestion = makeIngestion();
    await send(ingestion, [temp(code, 0, 90), temp(code, 60, 99), temp(code, 120, 130), temp(code, 180, 135)]);
    await ingestion.stop();
    warningId = (await warningsOf(code))[0]!.id;

    otherTenant = await signInToNewTenant(t, '300001', ['warning:read', 'warning:handle']);
    southUser = await signInWithScopes(t, {
      account: 'southwarn',
      roleId: await deptRole('southwarn'),
      deptId: DEPT_IDS.south,
      codes: ['warning:read', 'warning:handle'],
    });
    eastUser = await signInWithScopes(t, {
      account: 'eastwarn',
      roleId: await deptRole('eastwarn'),
      deptId: DEPT_IDS.east,
      codes: ['warning:read', 'warning:handle'],
    });
  });

  it('lists the warning for those who may see it only', async () => {
    const list = async (token: string) =>
      (await t.as(token, { method: 'GET', url: `/api/report/warning/list?deviceCode=${code}` }))
        .json<{
          data: { records: { id: string }[] };
        }>()
        .data.records.map((r) => r.id);
    expect(await list(admin)).toEqual([warningId]);
    expect(await list(eastUser)).toEqual([warningId]);
    expect(await list(southUser)).toEqual([]);
    expect(await list(otherTenant)).toEqual([]);
  });

  it('refuses another tenant’s user and a user of another department, changing nothing', async () => {
    for (const token of [otherTenant, southUser]) {
      const res = await handle(token, { ids: warningId, result: '已处理' });
      expect(res.statusCode, res.body).toBe(404);
    }
    expect((await warningsOf(code))[0]).toMatchObject({
      status: WarningStatus.activeUnhandled,
      handle_user: null,
      handle_result: '',
      ack_time: null,
    });
  });

  it('answers bad bodies with a 400 and a Chinese message', async () => {
    const cases: unknown[] = [
      { ids: warningId },
      { ids: warningId, result: '   ' },
      { ids: warningId, result: 'x'.repeat(501) },
      { ids: warningId, result: { text: 'x' } },
      { result: '已处理' },
      { ids: 'abc', result: '已处理' },
      { ids: '99999999999999999999999', result: '已处理' },
    ];
    for (const body of cases) {
      const res = await handle(eastUser, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ msg: string }>().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await warningsOf(code))[0]!.status).toBe(WarningStatus.activeUnhandled);
  });

  it('lets an allowed user handle it: status, handler, result, times, and a live event', async () => {
    const res = await handle(eastUser, { ids: warningId, result: '已更换温度传感器' }, true);
    expect(res.statusCode, res.body).toBe(200);
    const [w] = await warningsOf(code);
    expect(w).toMatchObject({
      status: WarningStatus.activeHandled,
      handle_user_name: 'eastwarn',
      handle_result: '已更换温度传感器',
    });
    expect(w!.handle_user).not.toBeNull();
    expect(w!.handle_time).not.toBeNull();
    expect(w!.ack_time).not.toBeNull();
    await settle();
    expect(eventsOf(code).filter((e) => e.type === 'warning' && e.action === 'handled')).toMatchObject([
      { warningId, status: WarningStatus.activeHandled },
    ]);
    // A handled warning whose condition ends is cleared as handled.
    const ingestion = makeIngestion();
    await send(ingestion, [temp(code, 240, 50)]);
    await ingestion.stop();
    expect((await warningsOf(code))[0]!.status).toBe(WarningStatus.clearedHandled);
  });

  it('around: the field’s points from ten minutes before the start to ten minutes after the end, with threshold and unit', async () => {
    const res = await t.as(eastUser, { method: 'GET', url: `/api${WARNING_AROUND_PATH}?id=${warningId}` });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: WarningAroundReply }>().data;
    expect(data).toMatchObject({ field: 'temp', unit: '℃', threshold: '100' });
    expect(data.points.map((p) => p.value)).toEqual([90, 99, 130, 135, 50]);
    const other = await t.as(otherTenant, { method: 'GET', url: `/api${WARNING_AROUND_PATH}?id=${warningId}` });
    expect(other.statusCode).toBe(404);
    const south = await t.as(southUser, { method: 'GET', url: `/api${WARNING_AROUND_PATH}?id=${warningId}` });
    expect(south.statusCode).toBe(404);
    const bad = await t.as(eastUser, { method: 'GET', url: `/api${WARNING_AROUND_PATH}?id=x` });
    expect(bad.statusCode).toBe(400);
  });
});
