import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_DEVICE_COUNT_PATH,
  DeviceRunState,
  deviceResource,
  formatDateTime,
  IOT_MODEL_DATA_PATH,
  IOT_MODEL_LIST_PATH,
  optionSourceOf,
  telemetryResource,
  TELEMETRY_RETENTION_PARAM,
  type DeviceCountReply,
  type ModelDataItem,
  type ModelListReply,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { addToRollups } from '../src/modules/telemetry/rollups';
import { dataScope, dept, param, role, roleScope } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { retentionDaysOf } from '../src/platform/series/partitions';
import { DEPT_IDS, SEED_MENUS } from '../src/seed/seed-data';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The IoT calls beside the generic telemetry series (docs/devices.md "IoT calls"): model-data,
 * model-list (raw and downsampled), their refusals, tenant isolation and the device data scope,
 * dashboard/deviceCount, and the telemetry retention parameter.
 */
const OTHER_TENANT = '300002';
/** Clinics (department category 5), where devices stand: one in each seeded branch. */
const EAST_CLINIC = '9601';
const SOUTH_CLINIC = '9602';
/** 2026-11-01 00:00:00 UTC: a multiple of every bucket width up to a day. */
const T0 = Date.UTC(2026, 10, 1);
const HOUR_POINTS = 3600;

let t: TestApp;
let admin: string;
let other: string;
let south: string;
let outsider: string;

type Body = Record<string, unknown>;
const get = (token: string, url: string, query: Record<string, string | number> = {}) =>
  t.as(token, { method: 'GET', url, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
const post = (token: string, url: string, payload: Body) => t.as(token, { method: 'POST', url, payload });
const dataOf = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as T;
};
const idOf = (res: LightMyRequestResponse) => dataOf<string>(res);
const modelData = (token: string, deviceCode: string) => get(token, `/api${IOT_MODEL_DATA_PATH}`, { deviceCode });
const modelList = (token: string, query: Record<string, string | number>) =>
  get(token, `/api${IOT_MODEL_LIST_PATH}`, query);

const model = [
  { fieldKey: 'chlorine', fieldName: '有效氯', dataType: 'float', unit: 'mg/L', precision: 2, access: 'r' },
  { fieldKey: 'waterTemp', fieldName: '水温', dataType: 'float', unit: '℃', precision: 1, access: 'r' },
  { fieldKey: 'program', fieldName: '程序', dataType: 'int', unit: '', precision: 0, access: 'rw' },
  { fieldKey: 'phase', fieldName: '阶段', dataType: 'string', unit: '', precision: 0, access: 'r' },
];

/** A product with the model above and a device of it; returns nothing the tests need. */
async function productAndDevices(token: string, devices: Body[]) {
  const productId = idOf(
    await post(token, '/api/basic/product/submit', {
      productCode: 'WL-100',
      productName: '水路消毒机',
      category: 1,
      protocol: 'mqtt-json',
      fields: model,
    }),
  );
  for (const d of devices) idOf(await post(token, '/api/basic/device/submit', { productId, ...d }));
}

/** Ids of the inserted points (a report of one value each), each call a block of its own (detail reads by id alone). */
let lastPointId = 1_000_000;

/** `count` points of one field, one a second from `start`, valued `first`, `first + 1`, … */
async function points(tenantId: string, deviceCode: string, field: string, start: number, count: number, first = 0) {
  const base = lastPointId;
  lastPointId += count;
  await t.ctx.db.execute(sql`
    insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol)
    select ${base}::bigint + g, ${tenantId}, ${deviceCode},
           ${new Date(start)}::timestamptz + g * interval '1 second', jsonb_build_object(${field}::text, ${first} + g), '', 'json'
    from generate_series(0, ${count - 1}) g`);
  // Ingestion keeps the rollups with the raw points (same transaction); so does this.
  await rollup(
    Array.from({ length: count }, (_, g) => ({
      tenantId,
      deviceCode,
      field,
      ts: new Date(start + g * 1000),
      num: String(first + g),
      text: null,
    })),
  );
}

/** A point of `deviceCode`'s field `ph`, `second`s after T0, as ingestion hands it to the rollups. */
const pointOf = (deviceCode: string) => (second: number, value: string) => ({
  tenantId: '000000',
  deviceCode,
  field: 'ph',
  ts: new Date(T0 + second * 1000),
  num: value as string | null,
  text: null as string | null,
});

async function rollup(rows: Parameters<typeof addToRollups>[1]) {
  const client = await t.database.pool.connect();
  try {
    await addToRollups(client, rows);
  } finally {
    client.release();
  }
}

async function latest(
  tenantId: string,
  deviceCode: string,
  field: string,
  at: Date,
  num: number | null,
  text?: string,
) {
  const entry = { [field]: { ts: at.getTime(), v: num ?? text ?? null } };
  await t.ctx.db.execute(sql`
    insert into mes_device_latest (id, tenant_id, device_code, latest)
    values (${nextId()}, ${tenantId}, ${deviceCode}, ${JSON.stringify(entry)}::jsonb)
    on conflict (tenant_id, device_code) where is_deleted = 0
    do update set latest = mes_device_latest.latest || excluded.latest`);
}

/** A user of the south clinic whose role sees devices of its own department only (data scope 3). */
async function southUser(): Promise<string> {
  const roleId = nextId();
  await t.ctx.db.insert(role).values({ id: roleId, tenantId: '000000', roleName: 'south', roleAlias: 'r_south' });
  const scopeId = nextId();
  const screen = SEED_MENUS.find((m) => m.code === 'device_info')?.id as string;
  await t.ctx.db.insert(dataScope).values({
    id: scopeId,
    menuId: screen,
    resourceCode: 'device_info',
    scopeName: '本部门设备',
    scopeType: 3,
    scopeValue: '',
  });
  await t.ctx.db.insert(roleScope).values({ id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId, roleId });
  return signInWithScopes(t, {
    account: 'southiot',
    roleId,
    deptId: SOUTH_CLINIC,
    codes: ['iot:read', 'device_info:read'],
  });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const clinic = (id: string, branch: string, deptName: string) => ({
    id,
    parentId: branch,
    ancestors: `0,${DEPT_IDS.company},${branch}`,
    deptName,
    fullName: deptName,
    deptCategory: 5,
  });
  await t.ctx.db
    .insert(dept)
    .values([clinic(EAST_CLINIC, DEPT_IDS.east, '东区诊所'), clinic(SOUTH_CLINIC, DEPT_IDS.south, '南区诊所')]);
  await productAndDevices(admin, [
    { deviceCode: 'WL-1', deviceName: '一号机', deptId: EAST_CLINIC },
    { deviceCode: 'WL-2', deviceName: '二号机', deptId: SOUTH_CLINIC },
  ]);
  await t.ctx.db.execute(sql`update mes_device set online = true where device_code = 'WL-1'`);
  // The run state is derived from data (run-state.test.ts); these tests count it, so it is set directly.
  await t.ctx.db.execute(sql`update mes_device set run_state = ${DeviceRunState.fault} where device_code = 'WL-2'`);
  idOf(
    await post(admin, '/api/blade-system/tenant/submit', {
      tenantId: OTHER_TENANT,
      tenantName: '另一家诊所集团',
      linkman: 'ops',
    }),
  );
  const [password] = await t.ctx.db
    .select({ value: param.paramValue })
    .from(param)
    .where(eq(param.paramKey, 'tenant.default.password'));
  other = (await t.signIn('admin', password?.value ?? '', OTHER_TENANT)).access_token;
  // The other tenant has a device of the same code, with points of its own in the same hour.
  await productAndDevices(other, [{ deviceCode: 'WL-1', deviceName: '别家一号机' }]);

  await points('000000', 'WL-1', 'chlorine', T0, HOUR_POINTS);
  await points(OTHER_TENANT, 'WL-1', 'chlorine', T0, HOUR_POINTS, 100_000);
  await points('000000', 'WL-1', 'waterTemp', T0, 10, 20);
  const now = new Date(t.ctx.clock.now());
  await latest('000000', 'WL-1', 'chlorine', new Date(now.getTime() - 30_000), 2.35);
  await latest('000000', 'WL-1', 'phase', new Date(now.getTime() - 5_000), null, 'flush');
  await latest(OTHER_TENANT, 'WL-1', 'waterTemp', now, 99.9);

  south = await southUser();
  outsider = await signInWithScopes(t, { account: 'noiot', codes: ['device_info:read'] });
});
afterAll(() => t?.close());

describe('iot/model-data', () => {
  it('lists every model field in model order, with unit, value, time and age; fields without a value are null', async () => {
    const items = dataOf<ModelDataItem[]>(await modelData(admin, 'WL-1'));
    expect(items.map((i) => [i.field, i.name, i.dataType, i.unit, i.precision])).toEqual([
      ['chlorine', '有效氯', 'float', 'mg/L', 2],
      ['waterTemp', '水温', 'float', '℃', 1],
      ['program', '程序', 'int', '', 0],
      ['phase', '阶段', 'string', '', 0],
    ]);
    const [chlorine, waterTemp, program, phase] = items as [ModelDataItem, ModelDataItem, ModelDataItem, ModelDataItem];
    expect(chlorine).toMatchObject({ value: 2.35, quality: 0 });
    expect(chlorine.ts).toBeTypeOf('number');
    expect(chlorine.time).toBe(formatDateTime(new Date(chlorine.ts as number)));
    expect(chlorine.ageSeconds).toBeGreaterThanOrEqual(30);
    expect(chlorine.ageSeconds).toBeLessThan(3600);
    expect(phase).toMatchObject({ value: 'flush' });
    // The other tenant's newest water temperature is not this device's.
    for (const none of [waterTemp, program])
      expect(none).toMatchObject({ value: null, time: null, ts: null, ageSeconds: null });
  });

  it('answers 404 for an unknown code, another tenant’s device and a device outside the data scope', async () => {
    const unknown = await modelData(admin, 'NOPE-1');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe('设备 NOPE-1 不存在或无权访问');
    expect((await modelData(other, 'WL-2')).statusCode).toBe(404);
    expect((await modelData(south, 'WL-1')).statusCode).toBe(404);
    expect(dataOf<ModelDataItem[]>(await modelData(south, 'WL-2'))).toHaveLength(4);
  });

  it('refuses a missing or malformed device code with a 400, and callers without iot:read with a 403', async () => {
    const missing = await get(admin, `/api${IOT_MODEL_DATA_PATH}`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('缺少必要的请求参数: deviceCode');
    expect((await modelData(admin, 'mes/+/#')).statusCode).toBe(400);
    expect((await modelData(outsider, 'WL-1')).statusCode).toBe(403);
  });
});

describe('iot/model-list', () => {
  it('answers raw points when the range holds at most maxPoints', async () => {
    const reply = dataOf<ModelListReply>(
      await modelList(admin, { deviceCode: 'WL-1', field: 'chlorine', startTime: T0, endTime: T0 + 99_000 }),
    );
    expect(reply).toMatchObject({ deviceCode: 'WL-1', field: 'chlorine', unit: 'mg/L', bucketSeconds: 0 });
    expect(reply.from).toBe(T0);
    expect(reply.to).toBe(T0 + 99_000);
    expect(reply.points).toHaveLength(100);
    expect(reply.points[0]).toEqual({ ts: T0, value: 0, min: 0, max: 0, count: 1 });
    expect(reply.points[99]).toEqual({ ts: T0 + 99_000, value: 99, min: 99, max: 99, count: 1 });
  });

  it('takes the contract’s time format as well as epoch milliseconds', async () => {
    const reply = dataOf<ModelListReply>(
      await modelList(admin, {
        deviceCode: 'WL-1',
        field: 'chlorine',
        startTime: formatDateTime(new Date(T0 + 10_000)),
        endTime: formatDateTime(new Date(T0 + 19_000)),
      }),
    );
    expect(reply.points.map((p) => p.value)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });

  it('downsamples a long range into at most maxPoints buckets with average, min, max and count', async () => {
    const query = { deviceCode: 'WL-1', field: 'chlorine', startTime: T0, endTime: T0 + (HOUR_POINTS - 1) * 1000 };
    const coarse = dataOf<ModelListReply>(await modelList(admin, { ...query, maxPoints: 60 }));
    // 3,599 s over at most 59 steps needs 61 s: the next round width is 2 minutes, 30 buckets.
    expect(coarse.bucketSeconds).toBe(120);
    expect(coarse.points).toHaveLength(30);
    coarse.points.forEach((p, i) =>
      expect(p).toEqual({ ts: T0 + i * 120_000, value: i * 120 + 59.5, min: i * 120, max: i * 120 + 119, count: 120 }),
    );
    // A window starting and ending inside a minute: its whole minutes come from the per-minute
    // rollup, its part-minutes from the raw points, added into the same buckets.
    const inside = dataOf<ModelListReply>(
      await modelList(admin, { ...query, startTime: T0 + 30_000, endTime: T0 + 3570_000, maxPoints: 40 }),
    );
    expect(inside.bucketSeconds).toBe(120);
    expect(inside.points[0]).toEqual({ ts: T0, value: 74.5, min: 30, max: 119, count: 90 });
    expect(inside.points.at(-1)).toEqual({ ts: T0 + 3480_000, value: 3525, min: 3480, max: 3570, count: 91 });
    expect(inside.points.reduce((n, p) => n + p.count, 0)).toBe(3541);
    const fine = dataOf<ModelListReply>(await modelList(admin, query));
    expect(fine.bucketSeconds).toBe(5);
    expect(fine.points.length).toBeLessThanOrEqual(1000);
    expect(fine.points.reduce((n, p) => n + p.count, 0)).toBe(HOUR_POINTS);
    expect(fine.points.at(-1)).toEqual({
      ts: T0 + 3595_000,
      value: 3597,
      min: 3595,
      max: 3599,
      count: 5,
    });
  });

  it('keeps the per-minute rollup exact when one minute arrives in several batches, late points included', async () => {
    const at = pointOf('WL-R');
    await rollup([at(0, '7.10'), at(10, '7.30'), at(70, '6.90')]);
    // A late point of the first minute, and a text value (not rolled up).
    await rollup([at(59, '6.85'), { ...at(20, '0'), num: null, text: 'flush' }]);
    const rows = await t.ctx.db.execute(sql`
      select minute, points, total::text, low::text, high::text from mes_telemetry_minute
      where device_code = 'WL-R' and field = 'ph' order by minute`);
    expect(rows.rows.map((r) => ({ ...r, minute: new Date(r.minute as string).getTime() }))).toEqual([
      { minute: T0, points: 3, total: '21.250000', low: '6.850000', high: '7.300000' },
      { minute: T0 + 60_000, points: 1, total: '6.900000', low: '6.900000', high: '6.900000' },
    ]);
  });

  it('keeps every tenant to its own points, and answers 404 for a device outside the data scope', async () => {
    const theirs = dataOf<ModelListReply>(
      await modelList(other, { deviceCode: 'WL-1', field: 'chlorine', startTime: T0, endTime: T0 + 9_000 }),
    );
    expect(theirs.points.map((p) => p.value)).toEqual([
      100_000, 100_001, 100_002, 100_003, 100_004, 100_005, 100_006, 100_007, 100_008, 100_009,
    ]);
    expect((await modelList(other, { deviceCode: 'WL-2', field: 'chlorine' })).statusCode).toBe(404);
    expect((await modelList(south, { deviceCode: 'WL-1', field: 'chlorine' })).statusCode).toBe(404);
    const empty = dataOf<ModelListReply>(await modelList(south, { deviceCode: 'WL-2', field: 'chlorine' }));
    expect(empty.points).toEqual([]);
    // Without a range: the last 24 hours up to now.
    expect(empty.to - empty.from).toBe(24 * 3600_000);
  });

  it('refuses bad ranges, sizes and fields with a 400 that says why', async () => {
    const refused = async (query: Record<string, string | number>, msg: string) => {
      const res = await modelList(admin, { deviceCode: 'WL-1', field: 'chlorine', ...query });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toBe(msg);
    };
    await refused({ startTime: T0 + 1000, endTime: T0 }, '开始时间不能晚于结束时间');
    await refused({ startTime: T0 - 367 * 86_400_000, endTime: T0 }, '查询时间范围不能超过 366 天,请缩小范围');
    await refused(
      { startTime: 'yesterday' },
      '请求参数 startTime 不正确: 应为 yyyy-MM-dd HH:mm:ss 格式的时间或毫秒时间戳',
    );
    await refused(
      { endTime: '2026-02-30 00:00:00' },
      '请求参数 endTime 不正确: 应为 yyyy-MM-dd HH:mm:ss 格式的时间或毫秒时间戳',
    );
    await refused({ maxPoints: 5001 }, '请求参数 maxPoints 不正确: 应为 10 到 5000 之间的整数');
    await refused({ maxPoints: 'all' }, '请求参数 maxPoints 不正确: 应为 10 到 5000 之间的整数');
    await refused({ field: 'pressure' }, '字段 pressure 不是设备 WL-1 所属产品物模型中的字段');
    await refused({ field: 'phase' }, '字段 phase 是文本类型,无法绘制曲线,请在最新数据中查看');
    await refused({ field: '1bad' }, '请求参数 field 不正确: 应为物模型字段标识(字母开头,字母、数字和 _)');
    const noField = await modelList(admin, { deviceCode: 'WL-1' });
    expect(noField.json().msg).toBe('缺少必要的请求参数: field');
  });
});

describe('iot/model-list from the per-quarter-hour rollup', () => {
  /** 2026-11-03 00:00 UTC: three hours of `waterTemp` with two decimals, one a second, from here. */
  const T1 = T0 + 2 * 86_400_000;
  const SECONDS = 3 * 3600;
  const MIN = 60_000;
  const valueAt = (g: number) => (20 + ((g * 37) % 1000) / 100).toFixed(2);

  beforeAll(async () => {
    const rows = Array.from({ length: SECONDS }, (_, g) => ({
      tenantId: '000000',
      deviceCode: 'WL-1',
      field: 'waterTemp',
      ts: new Date(T1 + g * 1000),
      num: valueAt(g),
      text: null,
    }));
    const base = lastPointId;
    lastPointId += SECONDS;
    await t.ctx.db.execute(sql`
      insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol)
      select ${base}::bigint + g, '000000', 'WL-1', ${new Date(T1)}::timestamptz + g * interval '1 second',
             jsonb_build_object('waterTemp', (${sql.raw(`array[${rows.map((r) => r.num).join(',')}]`)}::numeric[])[g + 1]), '', 'json'
      from generate_series(0, ${SECONDS - 1}) g`);
    // As ingestion would: in batches of 1,000 points, so periods span batches.
    for (let i = 0; i < rows.length; i += 1000) await rollup(rows.slice(i, i + 1000));
  });

  /** The buckets of `[from, to]` computed from the raw points alone, as the reply writes them. */
  async function fromRaw(from: number, to: number, bucketSeconds: number) {
    const rows = await t.ctx.db.execute(sql`
      select extract(epoch from date_bin(make_interval(secs => ${bucketSeconds}), ts, timestamptz '1970-01-01 00:00:00+00')) * 1000 as ts,
             sum(num_value)::text as sum, min(num_value)::text as min, max(num_value)::text as max, count(*)::int as count
      from mes_telemetry
      where tenant_id = '000000' and device_code = 'WL-1' and field = 'waterTemp'
        and ts >= ${new Date(from)} and ts <= ${new Date(to)}
      group by 1 order by 1`);
    return rows.rows.map((r) => ({
      ts: Number(r.ts),
      value: Number(r.sum) / Number(r.count),
      min: Number(r.min),
      max: Number(r.max),
      count: Number(r.count),
    }));
  }

  const listed = async (from: number, to: number, maxPoints: number) =>
    dataOf<ModelListReply>(
      await modelList(admin, { deviceCode: 'WL-1', field: 'waterTemp', startTime: from, endTime: to, maxPoints }),
    );

  it('answers the same buckets as the raw points, edges included, for every split of the window', async () => {
    const windows: [number, number, number, number][] = [
      // Mid-second start, mid-minute end: quarters, minutes and raw points at both edges.
      [T1 + 7 * MIN + 30_500, T1 + 170 * MIN + 10_000, 10, 1800],
      [T1 + 7 * MIN + 30_500, T1 + 170 * MIN + 10_000, 12, 900],
      // 600 s is no multiple of 15 minutes: whole minutes and raw points only.
      [T1 + 7 * MIN + 30_500, T1 + 170 * MIN + 10_000, 20, 600],
      // Whole quarters only, and the same ending on a boundary (its point read raw).
      [T1 + 15 * MIN, T1 + 165 * MIN - 1, 10, 1800],
      [T1 + 15 * MIN, T1 + 165 * MIN, 10, 1800],
      // The first and the last point of the series at the window's two ends.
      [T1, T1 + (SECONDS - 1) * 1000, 10, 1800],
    ];
    for (const [from, to, maxPoints, bucketSeconds] of windows) {
      const reply = await listed(from, to, maxPoints);
      expect(reply.bucketSeconds, `${from}–${to} / ${maxPoints}`).toBe(bucketSeconds);
      expect(reply.points, `${from}–${to} / ${maxPoints}`).toEqual(await fromRaw(from, to, bucketSeconds));
    }
  });

  it('reads the whole quarters from the quarter rollup and the edge minutes from the minute rollup', async () => {
    const from = T1 + 7 * MIN + 30_500;
    const to = T1 + 170 * MIN + 10_000;
    const before = await listed(from, to, 12);
    const highOf = (reply: ModelListReply, at: number) => reply.points.find((p) => p.ts === at)?.max ?? 0;
    /** Raises one rollup row's maximum by 1,000 while `check` runs: a bucket that reads it shows it. */
    const raised = async (table: 'quarter' | 'minute', at: number, check: (reply: ModelListReply) => void) => {
      const bump = (delta: number) =>
        t.ctx.db.execute(sql`update ${sql.raw(`mes_telemetry_${table}`)} set high = high + ${delta}
          where tenant_id = '000000' and device_code = 'WL-1' and field = 'waterTemp'
            and ${sql.raw(table)} = ${new Date(at)}`);
      await bump(1000);
      try {
        check(await listed(from, to, 12));
      } finally {
        await bump(-1000);
      }
    };
    // The values are 20–29.99: a maximum over 1,000 is the raised row's.
    // The quarter at 60 min is read from the quarter level: its bucket shows the raised row.
    await raised('quarter', T1 + 60 * MIN, (reply) => expect(highOf(reply, T1 + 60 * MIN)).toBeGreaterThan(1000));
    // The minute at 8 min is at the start's edge, read from the minute level.
    await raised('minute', T1 + 8 * MIN, (reply) => expect(highOf(reply, T1)).toBeGreaterThan(1000));
    // A minute inside a whole quarter is not read: the quarter row stands for it.
    await raised('minute', T1 + 31 * MIN, (reply) => expect(reply.points).toEqual(before.points));
    expect((await listed(from, to, 12)).points).toEqual(before.points);
  });

  it('keeps the quarter rollup exact when one quarter arrives in several batches, late points included', async () => {
    const at = pointOf('WL-Q');
    await rollup([at(0, '7.10'), at(70, '7.30'), at(900, '6.90')]);
    // A late point of the first quarter, in another minute, and a text value (not rolled up).
    await rollup([at(899, '6.85'), { ...at(20, '0'), num: null, text: 'flush' }]);
    const rows = await t.ctx.db.execute(sql`
      select quarter, points, total::text, low::text, high::text from mes_telemetry_quarter
      where device_code = 'WL-Q' and field = 'ph' order by quarter`);
    expect(rows.rows.map((r) => ({ ...r, quarter: new Date(r.quarter as string).getTime() }))).toEqual([
      { quarter: T0, points: 3, total: '21.250000', low: '6.850000', high: '7.300000' },
      { quarter: T0 + 900_000, points: 1, total: '6.900000', low: '6.900000', high: '6.900000' },
    ]);
  });
});

describe('iot page and detail (the engine’s series routes)', () => {
  it('answers the BladeX page shape within the default range, and no list route', async () => {
    const now = t.ctx.clock.now();
    await points('000000', 'WL-1', 'waterTemp', now - 3600_000, 3, 40);
    const res = await get(admin, `/api${telemetryResource.api}/page`, { deviceCode: 'WL-1', size: 2 });
    const page = dataOf<{ records: Body[]; total: number; size: number; current: number; pages: number }>(res);
    expect(page).toMatchObject({ total: 3, size: 2, current: 1, pages: 2 });
    expect(page.records[0]).toMatchObject({ deviceCode: 'WL-1', field: 'waterTemp', numValue: '42.000000' });
    const detail = dataOf<Body>(
      await get(admin, `/api${telemetryResource.api}/detail`, { id: String(page.records[0]?.id) }),
    );
    expect(detail).toMatchObject({ deviceCode: 'WL-1', field: 'waterTemp' });
    expect((await get(admin, `/api${telemetryResource.api}/list`)).statusCode).toBe(404);
    expect((await get(other, `/api${telemetryResource.api}/page`, { deviceCode: 'WL-1' })).json().data.total).toBe(0);
  });
});

describe('iot page and detail within the data scope of devices', () => {
  it('shows a scoped user the points of the devices of their departments only', async () => {
    const now = t.ctx.clock.now();
    await points('000000', 'WL-2', 'chlorine', now - 1800_000, 2, 7);
    const page = async (token: string, query: Record<string, string | number> = {}) =>
      dataOf<{ records: Body[]; total: number }>(await get(token, `/api${telemetryResource.api}/page`, query));
    const theirs = await page(south);
    expect(theirs.records.map((r) => r.deviceCode)).toEqual(['WL-2', 'WL-2']);
    expect(theirs.total).toBe(2);
    expect((await page(south, { deviceCode: 'WL-1' })).total).toBe(0);
    const detail = (token: string, id: unknown) =>
      get(token, `/api${telemetryResource.api}/detail`, { id: String(id) });
    expect(dataOf<Body>(await detail(south, theirs.records[0]?.id))).toMatchObject({ deviceCode: 'WL-2' });
    const wl1 = (await page(admin, { deviceCode: 'WL-1' })).records[0]?.id;
    expect((await detail(admin, wl1)).statusCode).toBe(200);
    const hidden = await detail(south, wl1);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().msg).toBe('数据不存在或无权访问');
  });
});

describe('dashboard/deviceCount', () => {
  it('counts the devices of the caller’s tenant and data scope', async () => {
    const count = async (token: string) =>
      dataOf<DeviceCountReply>(await get(token, `/api${DASHBOARD_DEVICE_COUNT_PATH}`));
    // The seed may hold demo devices of its own: the tenant's figures are compared by difference.
    const before = await count(admin);
    expect(before.online + before.offline).toBe(before.total);
    const productId = dataOf<{ records: { id: string }[] }>(
      await get(admin, '/api/basic/product/list', { productCode: 'WL-100' }),
    ).records[0]?.id;
    idOf(
      await post(admin, '/api/basic/device/submit', {
        productId,
        deviceCode: 'WL-3',
        deviceName: '三号机',
        deptId: SOUTH_CLINIC,
      }),
    );
    await t.ctx.db.execute(
      sql`update mes_device set online = true, run_state = ${DeviceRunState.fault} where device_code = 'WL-3'`,
    );
    expect(await count(admin)).toEqual({
      total: before.total + 1,
      online: before.online + 1,
      offline: before.offline,
      fault: before.fault + 1,
    });
    // Scope 3 of the south clinic: WL-2 (offline, in fault) and WL-3 (online, in fault).
    expect(await count(south)).toEqual({ total: 2, online: 1, offline: 1, fault: 2 });
    expect(await count(other)).toEqual({ total: 1, online: 0, offline: 1, fault: 0 });
    // Any signed-in user may read the welcome page's figures; without a data scope, the tenant's.
    expect(await count(outsider)).toEqual(await count(admin));
  });
});

describe('the device’s department', () => {
  it('is a clinic or a base: the picker’s source says so and the server refuses another department', async () => {
    const source = optionSourceOf(deviceResource.fields.deptId);
    expect(source).toMatchObject({ where: { field: 'deptCategory', in: [4, 5] } });
    const productId = dataOf<{ records: { id: string }[] }>(
      await get(admin, '/api/basic/product/list', { productCode: 'WL-100' }),
    ).records[0]?.id;
    const refused = await post(admin, '/api/basic/device/submit', {
      productId,
      deviceCode: 'WL-9',
      deviceName: '九号机',
      deptId: DEPT_IDS.east,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe('所选所属机构不在可选范围内');
  });
});

describe('telemetry retention', () => {
  it('is a seeded parameter that the series upkeep reads', async () => {
    const series = telemetryResource.series;
    if (!series) throw new Error('telemetry is a series');
    const [row] = await t.ctx.db
      .select({ value: param.paramValue })
      .from(param)
      .where(eq(param.paramKey, TELEMETRY_RETENTION_PARAM));
    expect(row?.value).toBe('90');
    expect(await retentionDaysOf(t.ctx.db, series)).toBe(90);
    await t.ctx.db.update(param).set({ paramValue: '30' }).where(eq(param.paramKey, TELEMETRY_RETENTION_PARAM));
    expect(await retentionDaysOf(t.ctx.db, series)).toBe(30);
  });
});
