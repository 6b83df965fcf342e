import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, LEDGER_MAX_DAYS, type LedgerRow, type PageResult } from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { DEPT_IDS } from '../src/seed/seed-data';
import { grantOwnDeptScope, signInToNewTenant, signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The disinfection ledger (docs/records.md, "Ledger"): its sums per day and per month against
 * the same sums computed by plain SQL over the raw rows, with superseded versions, removed rows,
 * a device that moved department, a removed device, a day boundary in Asia/Shanghai that is not
 * UTC's, warnings, filters, sort, export, tenant isolation, data scope and refused parameters.
 */

let t: TestApp;
let admin: string;
let eastReader: string;
let tenantB: string;

const TENANT = '000000';
const TENANT_B = '200016';
const LEDGER = '/api/blade-business/disinfection/ledger';
const EAST = DEPT_IDS.east;
const SOUTH = DEPT_IDS.south;

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

interface Device {
  id: string;
  code: string;
  dept: string;
}

async function device(tenantId: string, code: string, dept: string, chairs: number, removed = false): Promise<Device> {
  const id = nextId();
  await rows(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, dept_id, chairs, mqtt_client_id, is_deleted)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [id, tenantId, code, `${code} 名称`, nextId(), dept, chairs, `c-${tenantId}-${code}`, removed ? 1 : 0],
  );
  return { id, code, dept };
}

const chainSeq = new Map<string, number>();

/** A record as the chain would hold it (the ledger reads the rows, not the chain). */
async function record(
  tenantId: string,
  d: Device,
  end: string,
  values: {
    result?: number;
    seconds?: number | null;
    concentration?: string | null;
    water?: string | null;
    dept?: string;
    superseded?: boolean;
    deleted?: boolean;
    recordType?: number;
  } = {},
): Promise<void> {
  const key = `${tenantId}:${d.code}`;
  const seq = (chainSeq.get(key) ?? 0) + 1;
  chainSeq.set(key, seq);
  const endAt = new Date(end);
  const seconds = values.seconds === undefined ? 1200 : values.seconds;
  // Without a duration the ledger counts end − start: 25 minutes.
  const startAt = new Date(endAt.getTime() - (seconds ?? 1500) * 1000);
  await rows(
    `insert into mes_disinfection_record (id, tenant_id, record_no, device_id, device_code, dept_id, record_type,
       start_time, end_time, duration_seconds, concentration, water_volume, result, superseded, is_deleted, chain_seq)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      nextId(),
      tenantId,
      `XD${seq}-${d.code}`,
      d.id,
      d.code,
      values.dept ?? d.dept,
      values.recordType ?? 3,
      startAt,
      endAt,
      seconds,
      values.concentration === undefined ? '2.00' : values.concentration,
      values.water === undefined ? '1.50' : values.water,
      values.result ?? 1,
      values.superseded ?? false,
      values.deleted ? 1 : 0,
      seq,
    ],
  );
}

async function raise(tenantId: string, d: Device, start: string, dept = d.dept): Promise<void> {
  const id = nextId();
  await rows(
    `insert into mes_warning (id, tenant_id, warning_no, device_id, device_code, dept_id, warning_type, level,
       rule_key, field, message, start_time, status)
     values ($1, $2, $3, $4, $5, $6, 'threshold', 2, 'threshold:1', 'chlorine', 'low', $7, 1)`,
    [id, tenantId, `W${id}`, d.id, d.code, dept, new Date(start)],
  );
}

/** A verification record of the device, as the chain would hold it. */
async function verified(
  tenantId: string,
  d: Device,
  at: string,
  type: number,
  result: number,
  state: { superseded?: boolean; deleted?: boolean } = {},
): Promise<void> {
  const id = nextId();
  await rows(
    `insert into mes_verification_record (id, tenant_id, record_no, device_id, device_code, dept_id, verification_type,
       test_time, result, superseded, is_deleted, chain_seq)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      id,
      tenantId,
      `YZ${id}`,
      d.id,
      d.code,
      d.dept,
      type,
      new Date(at),
      result,
      state.superseded ?? false,
      state.deleted ? 1 : 0,
      Number(id.slice(-6)),
    ],
  );
}

type Page = PageResult<LedgerRow>;

async function ledger(token: string, query: string): Promise<Page> {
  const res = await t.as(token, { method: 'GET', url: `${LEDGER}?size=1000&${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Page }>().data;
}

/** What a row sums, keyed by period, department and device, as text compared exactly. */
const figures = (r: {
  cycles: number;
  passes: number;
  fails: number;
  aborts: number;
  totalMinutes: string | null;
  avgConcentration: string | null;
  minConcentration: string | null;
  waterVolume: string | null;
  disinfectantMg: string | null;
  warnings: number;
  chairs: number | null;
}) =>
  [
    r.cycles,
    r.passes,
    r.fails,
    r.aborts,
    r.totalMinutes,
    r.avgConcentration,
    r.minConcentration,
    r.waterVolume,
    r.disinfectantMg,
    r.warnings,
    r.chairs,
  ].join(' ');

/**
 * The ledger computed again from the raw rows in plain SQL, its own way: the range as local
 * times (not days), results by sums of booleans, warnings and chairs looked up separately.
 */
async function expected(tenantId: string, unit: 'day' | 'month', from: string, to: string) {
  const sums = await rows<Record<string, string | number | null>>(
    `select to_char(date_trunc($2, end_time at time zone 'Asia/Shanghai'), 'YYYY-MM-DD') as start,
            dept_id::text as dept, device_code as code, max(device_id)::text as device,
            count(*)::int as cycles, sum((result = 1)::int)::int as passes, sum((result = 2)::int)::int as fails,
            sum((result = 3)::int)::int as aborts,
            round(sum(coalesce(duration_seconds, extract(epoch from end_time - start_time))) / 60, 1)::text as minutes,
            round(avg(concentration), 2)::text as avg, min(concentration)::text as min,
            sum(water_volume)::text as water, round(sum(water_volume * concentration), 2)::text as mg
       from mes_disinfection_record
      where tenant_id = $1 and is_deleted = 0 and superseded is false
        and end_time at time zone 'Asia/Shanghai' >= $3::timestamp
        and end_time at time zone 'Asia/Shanghai' < $4::timestamp
      group by 1, 2, 3`,
    [tenantId, unit, from, to],
  );
  const warnings = await rows<{ key: string; n: number }>(
    `select concat_ws(' ', to_char(date_trunc($2, start_time at time zone 'Asia/Shanghai'), 'YYYY-MM-DD'),
              dept_id::text, device_code) as key, count(*)::int as n
       from mes_warning where tenant_id = $1 and is_deleted = 0 group by 1`,
    [tenantId, unit],
  );
  const chairs = await rows<{ id: string; chairs: number }>(
    `select id::text, chairs from mes_device where tenant_id = $1 and is_deleted = 0`,
    [tenantId],
  );
  const warned = new Map(warnings.map((w) => [w.key, w.n]));
  const seats = new Map(chairs.map((c) => [c.id, c.chairs]));
  return new Map(
    sums.map((s) => {
      const key = `${String(s.start)} ${String(s.dept)} ${String(s.code)}`;
      const row = {
        cycles: s.cycles as number,
        passes: s.passes as number,
        fails: s.fails as number,
        aborts: s.aborts as number,
        totalMinutes: s.minutes as string,
        avgConcentration: s.avg as string | null,
        minConcentration: s.min as string | null,
        waterVolume: s.water as string | null,
        disinfectantMg: s.mg as string | null,
        warnings: warned.get(key) ?? 0,
        chairs: seats.get(String(s.device)) ?? null,
      };
      return [key, figures(row)] as const;
    }),
  );
}

const actual = (page: Page) =>
  new Map(page.records.map((r) => [`${r.periodStart} ${r.deptId ?? ''} ${r.deviceCode}`, figures(r)] as const));

let devices: Record<'a' | 'b' | 'c' | 'gone', Device>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  devices = {
    a: await device(TENANT, 'LG-A', EAST, 4),
    b: await device(TENANT, 'LG-B', EAST, 2),
    c: await device(TENANT, 'LG-C', SOUTH, 6),
    gone: await device(TENANT, 'LG-GONE', SOUTH, 9, true),
  };
  const next = random(16);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  // 120 records over 2026-10-20 .. 2026-11-09 (Shanghai), every figure sometimes missing.
  for (let i = 0; i < 120; i++) {
    const d = pick([devices.a, devices.b, devices.c, devices.gone]);
    const day = 20 + Math.floor(next() * 21);
    const at = new Date(Date.UTC(2026, 9, day, 0, 0, 0) + Math.floor(next() * 86_400_000));
    await record(TENANT, d, at.toISOString(), {
      result: pick([1, 1, 1, 2, 3]),
      seconds: next() < 0.2 ? null : 600 + Math.floor(next() * 1800),
      concentration: next() < 0.2 ? null : (1 + next() * 4).toFixed(2),
      water: next() < 0.2 ? null : (next() * 3).toFixed(2),
      // Device a moved from east to south during the period.
      dept: d === devices.a && day > 30 ? SOUTH : undefined,
    });
  }
  // Shanghai days that are not UTC days: 00:30 on the 1st of November is still October in UTC.
  await record(TENANT, devices.b, '2026-11-01T00:30:00+08:00', { result: 2, concentration: '0.50' });
  await record(TENANT, devices.b, '2026-10-31T23:30:00+08:00', { result: 1 });
  // A corrected record: the old version must not count, the new one must.
  await record(TENANT, devices.c, '2026-11-02T10:00:00+08:00', { result: 2, superseded: true, concentration: '0.10' });
  await record(TENANT, devices.c, '2026-11-02T10:00:00+08:00', { result: 1, concentration: '3.00' });
  // A removed row, alone on its day: no ledger row for it at all.
  await record(TENANT, devices.b, '2026-11-15T09:00:00+08:00', { deleted: true });
  await record(TENANT, devices.b, '2026-11-16T09:00:00+08:00', { superseded: true });
  for (let i = 0; i < 40; i++) {
    const d = pick([devices.a, devices.b, devices.c, devices.gone]);
    const at = new Date(Date.UTC(2026, 9, 20, 0, 0, 0) + Math.floor(next() * 21 * 86_400_000));
    await raise(
      TENANT,
      d,
      at.toISOString(),
      d === devices.a && at.getTime() > Date.UTC(2026, 9, 30, 16) ? SOUTH : d.dept,
    );
  }
  await raise(TENANT, devices.b, '2026-11-01T00:10:00+08:00');

  // Tenant B: the same device code and department ids, its own records and warnings.
  tenantB = await signInToNewTenant(t, TENANT_B, ['disinfection_ledger:read']);
  const bDevice = await device(TENANT_B, 'LG-A', EAST, 1);
  await record(TENANT_B, bDevice, '2026-11-03T12:00:00+08:00', { result: 3 });
  await raise(TENANT_B, bDevice, '2026-11-03T12:00:00+08:00');

  // A reader of the ledger whose role sees its own department (east) only.
  const roleId = nextId();
  eastReader = await signInWithScopes(t, {
    account: 'eastlg',
    codes: ['disinfection_ledger:read'],
    deptId: EAST,
    roleId: await (async () => {
      await rows(`insert into blade_role (id, tenant_id, role_name, role_alias) values ($1, $2, 'east', 'east')`, [
        roleId,
        TENANT,
      ]);
      return roleId;
    })(),
  });
  await grantOwnDeptScope(t, roleId, 'disinfection_ledger');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('last verification', () => {
  it('shows the device’s newest current verification tested before each period ended', async () => {
    const c = devices.c;
    await verified(TENANT, c, '2026-11-01T08:00:00+08:00', 1, 1);
    await verified(TENANT, c, '2026-11-02T09:00:00+08:00', 4, 2);
    // A corrected version and a removed row never count.
    await verified(TENANT, c, '2026-11-02T11:00:00+08:00', 4, 1, { superseded: true });
    await verified(TENANT, c, '2026-11-03T08:00:00+08:00', 1, 1, { deleted: true });
    // Another tenant's device with the same code is not this one.
    await verified(TENANT_B, { ...c, id: nextId() }, '2026-11-02T12:00:00+08:00', 1, 1);
    // Instants travel as the server's local time (the contract's one format).
    const failedAt = formatDateTime(new Date('2026-11-02T09:00:00+08:00')).slice(0, 16);
    const last = (r: LedgerRow | undefined) =>
      r && [r.lastVerificationType, r.lastVerificationResult, r.lastVerificationTime?.slice(0, 16)];
    const days = await ledger(admin, 'period=day&startDate=2026-10-20&endDate=2026-11-30&deviceCode=LG-C');
    const day = (d: string) => days.records.find((r) => r.periodStart === d);
    // The corrected record of 11-02 makes that day's row.
    expect(last(day('2026-11-02'))).toEqual([4, 2, failedAt]);
    for (const r of days.records.filter((row) => row.periodStart < '2026-11-01'))
      expect(last(r)).toEqual([null, null, undefined]);
    const months = await ledger(admin, 'period=month&startDate=2026-10&endDate=2026-11&deviceCode=LG-C');
    const month = (m: string) => months.records.find((r) => r.periodStart === m && r.deptId === SOUTH);
    expect(last(month('2026-11-01'))).toEqual([4, 2, failedAt]);
    expect(last(month('2026-10-01'))).toEqual([null, null, undefined]);
  });
});

describe('sums', () => {
  it('sums each Shanghai day × department × device as plain SQL over the raw rows does', async () => {
    const page = await ledger(admin, 'period=day&startDate=2026-10-20&endDate=2026-11-30');
    const want = await expected(TENANT, 'day', '2026-10-20', '2026-12-01');
    expect(page.total).toBe(want.size);
    expect(actual(page)).toEqual(want);
    expect(page.records.every((r) => r.period === 'day')).toBe(true);
    // The superseded and the removed rows alone on their days make no row.
    expect(page.records.filter((r) => ['2026-11-15', '2026-11-16'].includes(r.periodStart))).toEqual([]);
    // 00:30 Shanghai on the 1st is November's; the corrected record counts once, as corrected.
    const b1 = page.records.find((r) => r.periodStart === '2026-11-01' && r.deviceCode === 'LG-B');
    expect(b1?.minConcentration).toBe('0.50');
    const c2 = page.records.find((r) => r.periodStart === '2026-11-02' && r.deviceCode === 'LG-C');
    expect(Number(c2?.minConcentration)).toBeGreaterThan(0.1);
  });

  it('sums each month the same way, a moved device in each of its departments', async () => {
    const page = await ledger(admin, 'period=month&startDate=2026-10&endDate=2026-11');
    const want = await expected(TENANT, 'month', '2026-10-01', '2026-12-01');
    expect(actual(page)).toEqual(want);
    expect(page.records.filter((r) => r.deviceCode === 'LG-A').map((r) => r.deptId)).toContain(SOUTH);
    expect(page.records.filter((r) => r.deviceCode === 'LG-A').map((r) => r.deptId)).toContain(EAST);
    // The months' cycles are the days' cycles.
    const days = await ledger(admin, 'period=day&startDate=2026-10-01&endDate=2026-11-30');
    const total = (p: Page) => p.records.reduce((n, r) => n + r.cycles, 0);
    expect(total(page)).toBe(total(days));
    expect(total(page)).toBe(
      (
        await rows<{ n: number }>(
          `select count(*)::int as n from mes_disinfection_record where tenant_id = $1 and is_deleted = 0 and not superseded`,
          [TENANT],
        )
      )[0]?.n,
    );
  });

  it('sums exactly the days asked, and whole months for a monthly range', async () => {
    const days = await ledger(admin, 'startDate=2026-10-25&endDate=2026-11-01');
    expect(actual(days)).toEqual(await expected(TENANT, 'day', '2026-10-25', '2026-11-02'));
    expect(days.records.every((r) => r.periodStart >= '2026-10-25' && r.periodStart <= '2026-11-01')).toBe(true);
    const november = await ledger(admin, 'period=month&startDate=2026-11-15&endDate=2026-11-16');
    const want = await expected(TENANT, 'month', '2026-11-01', '2026-12-01');
    expect(actual(november)).toEqual(want);
    expect(november.total).toBe(want.size);
  });

  it('names the department and the device, and leaves a removed device without name or chairs', async () => {
    const page = await ledger(admin, 'period=month&startDate=2026-11&endDate=2026-11');
    const a = page.records.find((r) => r.deviceCode === 'LG-A' && r.deptId === SOUTH);
    expect(a).toMatchObject({ deviceId: devices.a.id, deviceIdName: 'LG-A 名称', chairs: 4, recordType: 3 });
    expect(a?.deptIdName).toBeTruthy();
    const gone = page.records.find((r) => r.deviceCode === 'LG-GONE');
    expect(gone).toMatchObject({ deviceIdName: '', chairs: null });
  });

  it('defaults to the days of the current month', async () => {
    const now = await ledger(admin, '');
    expect(now.records.every((r) => r.period === 'day')).toBe(true);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    expect(now.records.every((r) => r.periodStart.slice(0, 7) === today.slice(0, 7))).toBe(true);
  });
});

describe('filters, sort and export', () => {
  const range = 'period=day&startDate=2026-10-20&endDate=2026-11-30';

  it('filters by department, device, device code and record type', async () => {
    const all = await ledger(admin, range);
    const south = await ledger(admin, `${range}&deptId=${SOUTH}`);
    expect(south.records.map((r) => r.id).sort()).toEqual(
      all.records
        .filter((r) => r.deptId === SOUTH)
        .map((r) => r.id)
        .sort(),
    );
    const byId = await ledger(admin, `${range}&deviceId=${devices.c.id}`);
    expect(byId.total).toBeGreaterThan(0);
    expect(byId.records.every((r) => r.deviceCode === 'LG-C')).toBe(true);
    const byCode = await ledger(admin, `${range}&deviceCode=LG-B`);
    expect(byCode.total).toBe(all.records.filter((r) => r.deviceCode === 'LG-B').length);
    expect((await ledger(admin, `${range}&recordType=3`)).total).toBe(all.total);
    expect((await ledger(admin, `${range}&recordType=2`)).total).toBe(0);
  });

  it('sorts and pages', async () => {
    const sorted = await ledger(admin, `${range}&descs=cycles`);
    const cycles = sorted.records.map((r) => r.cycles);
    expect(cycles).toEqual([...cycles].sort((x, y) => y - x));
    const first = await t.as(admin, { method: 'GET', url: `${LEDGER}?${range}&size=5&current=2` });
    const paged = first.json<{ data: Page }>().data;
    expect(paged).toMatchObject({ size: 5, current: 2, total: sorted.total });
    expect(paged.records).toHaveLength(5);
    expect(paged.pages).toBe(Math.ceil(sorted.total / 5));
  });

  it('exports the rows it lists as xlsx, with the department and device by name', async () => {
    const list = await ledger(admin, 'period=month&startDate=2026-10&endDate=2026-11');
    const res = await t.as(admin, {
      method: 'GET',
      url: `${LEDGER}/export?period=month&startDate=2026-10&endDate=2026-11`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const header = (sheet?.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(
      expect.arrayContaining(['日期', '所属机构', '设备', '消毒次数', '消毒剂用量(mg)', '告警数']),
    );
    expect(sheet?.rowCount).toBe(list.total + 1);
    const cyclesColumn = header.indexOf('消毒次数') + 1;
    let sum = 0;
    sheet?.eachRow((row, n) => {
      if (n > 1) sum += Number(row.getCell(cyclesColumn).value);
    });
    expect(sum).toBe(list.records.reduce((n, r) => n + r.cycles, 0));
  });
});

describe('who sees what', () => {
  it('keeps tenants apart: the same device code and department sum separately', async () => {
    const b = await ledger(tenantB, 'period=month&startDate=2026-10&endDate=2026-11');
    expect(b.records.map((r) => figures(r))).toEqual([
      figures({
        cycles: 1,
        passes: 0,
        fails: 0,
        aborts: 1,
        totalMinutes: '20.0',
        avgConcentration: '2.00',
        minConcentration: '2.00',
        waterVolume: '1.50',
        disinfectantMg: '3.00',
        warnings: 1,
        chairs: 1,
      }),
    ]);
    const a = await ledger(admin, 'period=month&startDate=2026-10&endDate=2026-11');
    expect(actual(a)).toEqual(await expected(TENANT, 'month', '2026-10-01', '2026-12-01'));
    const exported = await t.as(tenantB, {
      method: 'GET',
      url: `${LEDGER}/export?period=month&startDate=2026-10&endDate=2026-11`,
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]?.rowCount).toBe(2);
  });

  it('applies the data scope by department', async () => {
    const east = await ledger(eastReader, 'period=day&startDate=2026-10-20&endDate=2026-11-30');
    const all = await ledger(admin, 'period=day&startDate=2026-10-20&endDate=2026-11-30');
    expect(east.total).toBeGreaterThan(0);
    expect(east.records.map((r) => r.id).sort()).toEqual(
      all.records
        .filter((r) => r.deptId === EAST)
        .map((r) => r.id)
        .sort(),
    );
  });

  it('refuses a caller without the ledger scope', async () => {
    const other = await signInWithScopes(t, { account: 'recsonly', codes: ['disinfection:read'] });
    const res = await t.as(other, { method: 'GET', url: LEDGER });
    expect(res.statusCode).toBe(403);
  });
});

describe('refused parameters', () => {
  it.each([
    ['period=week', 'period'],
    ['startDate=2026-13-01', 'startDate'],
    ['endDate=yesterday', 'endDate'],
    ['startDate=2026-11-10&endDate=2026-11-01', 'endDate'],
    [`startDate=2025-01-01&endDate=2026-01-02`, 'endDate'],
    ['period=month&startDate=2010-01&endDate=2026-11', 'endDate'],
    ['period=day&period=month', 'period'],
    ['foo=1', 'foo'],
    ['descs=device_name', 'device_name'],
  ])('%s → 400 naming %s', async (query, param) => {
    const res = await t.as(admin, { method: 'GET', url: `${LEDGER}?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ msg: string }>().msg).toContain(param);
  });

  it('takes a full year of days and ten years of months', async () => {
    const end = '2026-12-31';
    expect((await ledger(admin, `startDate=2026-01-01&endDate=${end}`)).total).toBeGreaterThan(0);
    expect(LEDGER_MAX_DAYS).toBe(366);
    expect((await ledger(admin, 'startDate=2024-01-01&endDate=2024-12-31')).total).toBe(0);
    expect((await ledger(admin, 'period=month&startDate=2017-01&endDate=2026-12')).total).toBeGreaterThan(0);
  });
});
