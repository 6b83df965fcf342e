import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_REPORTS, ReportFileStatus, type PageResult, type ReportData } from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { runDueSchedules } from '../src/modules/report/report-runs';
import { waitFor } from './support/mqtt-kit';
import { startSecondProcess } from './support/second-process';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Reports (docs/reports.md): each built-in report on seeded rows against the same figures
 * computed in SQL, a file generated as xlsx and PDF by the job and downloaded, and a due
 * schedule swept by two server processes at once making one file.
 */
let t: TestApp;
let token: string;
const T = '000000';
const FROM = '2026-10-01';
const TO = '2026-10-31';
const at = (day: number, hour = 10) => new Date(2026, 9, day, hour, 0, 0);

type Row = Record<string, unknown>;
const rowsOf = async (q: ReturnType<typeof sql>) => (await t.ctx.db.execute(q)).rows as Row[];

async function get<T>(url: string): Promise<T> {
  const res = await t.as(token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: T }).data;
}

async function templateId(code: string): Promise<string> {
  const page = await get<PageResult<Row>>('/api/blade-report/template/list?size=100');
  const row = page.records.find((r) => r.code === code);
  if (!row) throw new Error(`no template ${code}`);
  return String(row.id);
}

const dataOf = async (code: string) =>
  get<ReportData>(
    `/api/blade-report/template/data?id=${await templateId(code)}&params=${encodeURIComponent(JSON.stringify({ from: FROM, to: TO }))}`,
  );

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
  token = (await t.signIn()).access_token;
  const devices = ['DEV-A', 'DEV-B', 'DEV-C'];
  for (let i = 0; i < 40; i++) {
    const device = devices[i % 3] as string;
    // Day 0 is September (outside the range), so the range is checked too.
    const when = at(i % 31, 8 + (i % 10));
    await t.ctx.db
      .execute(sql`insert into mes_warning (id, tenant_id, warning_no, device_code, level, start_time, repeat_count)
      values (${nextId()}, ${T}, ${`W${i}`}, ${device}, ${1 + (i % 4)}, ${when}, ${1 + (i % 5)})`);
    await t.ctx.db
      .execute(sql`insert into mes_onoff (id, tenant_id, device_code, event, on_time, off_time, duration_seconds, create_time)
      values (${nextId()}, ${T}, ${device}, 'offline', ${when}, ${when}, ${60 * (i + 1)}, ${when})`);
    await t.ctx.db
      .execute(sql`insert into mes_verification_record (id, tenant_id, record_no, device_code, verification_type, result, test_time, recall_triggered, chain_seq)
      values (${nextId()}, ${T}, ${`V${i}`}, ${device}, ${1 + (i % 3)}, ${1 + (i % 2)}, ${when}, ${i % 6 === 1}, ${i})`);
  }
  // Another tenant's rows never count.
  await t.ctx.db
    .execute(sql`insert into mes_warning (id, tenant_id, warning_no, device_code, level, start_time, repeat_count)
    values (${nextId()}, 'other1', 'WX', 'DEV-A', 1, ${at(5)}, 100)`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const inOctober = (column: string) =>
  sql`${sql.raw(column)} >= ${new Date(2026, 9, 1)} and ${sql.raw(column)} < ${new Date(2026, 10, 1)}`;

describe('built-in reports', () => {
  it('are seeded for the tenant', async () => {
    const page = await get<PageResult<Row>>('/api/blade-report/template/list?size=100');
    expect(page.records.map((r) => r.code).sort()).toEqual(BUILT_IN_REPORTS.map((r) => r.code).sort());
  });

  it('warnings by device and level match SQL', async () => {
    const data = await dataOf('builtin.warnings-by-device-level');
    const expected = await rowsOf(sql`select device_code, level, count(*)::int as n, sum(repeat_count)::int as s
      from mes_warning where tenant_id = ${T} and ${inOctober('start_time')} group by 1, 2 order by 1, 2`);
    expect(data.rows.map((r) => [r.deviceCode, r.m0, r.m1])).toEqual(expected.map((e) => [e.device_code, e.n, e.s]));
    const [sum] = await rowsOf(sql`select count(*)::int as n, sum(repeat_count)::int as s from mes_warning
      where tenant_id = ${T} and ${inOctober('start_time')}`);
    expect(data.totals).toEqual({ m0: sum?.n, m1: sum?.s });
  });

  it('device online time by day matches SQL', async () => {
    const data = await dataOf('builtin.device-online-daily');
    const expected = await rowsOf(sql`select to_char(date_trunc('day', on_time), 'YYYY-MM-DD') as d, device_code,
      sum(duration_seconds)::int as s, count(*)::int as n
      from mes_onoff where tenant_id = ${T} and ${inOctober('on_time')} group by 1, 2 order by 1, 2`);
    expect(data.rows.map((r) => [r.period, r.deviceCode, r.m0, r.m1])).toEqual(
      expected.map((e) => [e.d, e.device_code, e.s, e.n]),
    );
    expect(data.totals?.m0).toBe(expected.reduce((s, e) => s + Number(e.s), 0));
  });

  it('verification results and recalls match SQL', async () => {
    const data = await dataOf('builtin.verification-results');
    const [sum] = await rowsOf(sql`select count(*)::int as n, (count(*) filter (where recall_triggered))::int as r
      from mes_verification_record where tenant_id = ${T} and ${inOctober('test_time')}`);
    expect(data.totals).toEqual({ m0: sum?.n, m1: sum?.r });
    const groups = await rowsOf(sql`select count(*)::int as n from (select 1 from mes_verification_record
      where tenant_id = ${T} and ${inOctober('test_time')} group by device_code, verification_type, result) g`);
    expect(data.rows).toHaveLength(Number(groups[0]?.n));
  });

  it('keeps the layout the designer saves, and refuses one that is not an object', async () => {
    const id = await templateId('builtin.warnings-by-device-level');
    const layout = { basePdf: { width: 297, height: 210, padding: [10, 10, 10, 10] }, schemas: [[]] };
    const save = (body: Row) =>
      t.as(token, { method: 'POST', url: '/api/blade-report/template/layout', payload: body });
    const saved = await save({ id, layout });
    expect(saved.json(), saved.body).toMatchObject({ success: true });
    expect((await get<Row>(`/api/blade-report/template/detail?id=${id}`)).layout).toEqual(layout);
    const refused = await save({ id, layout: 'not a layout' });
    expect(refused.statusCode).toBe(400);
    expect((await get<Row>(`/api/blade-report/template/detail?id=${id}`)).layout).toEqual(layout);
    const [logged] = await rowsOf(
      sql`select operation from blade_log_operation where resource_code = 'report_template' and ids = ${id}`,
    );
    expect(logged).toMatchObject({ operation: 'update' });
    expect((await save({ id, layout: null })).json()).toMatchObject({ success: true });
  });

  it('a bad range is a 400 with a message', async () => {
    const id = await templateId('builtin.warnings-by-device-level');
    const res = await t.as(token, {
      method: 'GET',
      url: `/api/blade-report/template/data?id=${id}&params=${encodeURIComponent(JSON.stringify({ from: '2026-13-01' }))}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('yyyy-MM-dd');
  });
});

async function generate(format: 'xlsx' | 'pdf'): Promise<Row> {
  const res = await t.as(token, {
    method: 'POST',
    url: '/api/blade-report/report/rest/generate',
    payload: {
      templateId: await templateId('builtin.warnings-by-device-level'),
      format,
      params: { from: FROM, to: TO },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = (res.json() as { data: string }).data;
  let row: Row = {};
  await waitFor(async () => {
    row = await get<Row>(`/api/blade-report/report/rest/detail?id=${id}`);
    return row.state === ReportFileStatus.done || row.state === ReportFileStatus.failed;
  }, 60_000);
  expect(row.error).toBe('');
  expect(row.state).toBe(ReportFileStatus.done);
  return row;
}

describe('report files', () => {
  it('generates an xlsx with a frozen header and totals, and removes it', async () => {
    const row = await generate('xlsx');
    expect(row.progress).toBe(100);
    expect(Number(row.size)).toBeGreaterThan(0);
    const res = await t.as(token, {
      method: 'GET',
      url: `/api/blade-report/report/rest/download?id=${String(row.id)}`,
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getCell(1, 1).value).toBe('告警统计(按设备和级别)');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 3 });
    const last = sheet.getRow(sheet.rowCount);
    const [sum] = await rowsOf(
      sql`select count(*)::int as n from mes_warning where tenant_id = ${T} and ${inOctober('start_time')}`,
    );
    expect(last.getCell(1).value).toBe('合计');
    expect(last.getCell(3).value).toBe(sum?.n);
    const list = await get<PageResult<Row>>('/api/blade-report/report/rest/list');
    expect(list.records.some((r) => r.id === row.id && r.createUserName)).toBe(true);
    const removed = await t.as(token, {
      method: 'POST',
      url: `/api/blade-report/report/rest/remove?ids=${String(row.id)}`,
    });
    expect(removed.statusCode).toBe(200);
    const gone = await t.as(token, {
      method: 'GET',
      url: `/api/blade-report/report/rest/download?id=${String(row.id)}`,
    });
    expect(gone.statusCode).toBe(404);
  }, 90_000);

  it('generates a PDF in the worker thread', async () => {
    const row = await generate('pdf');
    const res = await t.as(token, {
      method: 'GET',
      url: `/api/blade-report/report/rest/download?id=${String(row.id)}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);
});

describe('schedules', () => {
  it('a due schedule swept by two server processes at once makes one file', async () => {
    const res = await t.as(token, {
      method: 'POST',
      url: '/api/blade-report/schedule/submit',
      payload: {
        name: '每日告警',
        templateId: await templateId('builtin.warnings-by-device-level'),
        format: 'xlsx',
        frequency: 'daily',
        runAt: '06:00',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { data: string }).data;
    await t.ctx.db.execute(
      sql`update mes_report_schedule set next_run_time = now() - interval '1 minute' where id = ${id}`,
    );
    const second = await startSecondProcess(t);
    try {
      const started = await Promise.all([runDueSchedules(t.ctx), runDueSchedules(second.ctx), runDueSchedules(t.ctx)]);
      // The queue's own minute sweep may have claimed it first: then none of these did.
      expect(started.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
      const files = await rowsOf(sql`select id from mes_report_file where schedule_id = ${id}`);
      const [s] = await rowsOf(sql`select * from mes_report_schedule where id = ${id}`);
      expect(files, JSON.stringify({ started, s })).toHaveLength(1);
      const [schedule] = await rowsOf(sql`select next_run_time from mes_report_schedule where id = ${id}`);
      expect(new Date(String(schedule?.next_run_time)).getTime()).toBeGreaterThan(Date.now());
    } finally {
      await second.close();
    }
  }, 60_000);
});
