import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_REPORTS, ReportFileStatus, type PageResult, type ReportData } from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { defaultLayout } from '../src/modules/report/report-pdf';
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

/** The file row once its job has made it (done) or given up (failed). */
async function finished(id: string): Promise<Row> {
  let row: Row = {};
  await waitFor(async () => {
    row = await get<Row>(`/api/blade-report/report/rest/detail?id=${id}`);
    return row.state === ReportFileStatus.done || row.state === ReportFileStatus.failed;
  }, 60_000);
  return row;
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
  // Disinfection records of October (and one of September), one line each in the monthly register.
  for (let i = 0; i < 12; i++) {
    const start = at(i % 31, 9 + (i % 8));
    await t.ctx.db.execute(sql`insert into mes_disinfection_record (id, tenant_id, record_no, device_code, record_type,
      start_time, end_time, result, chain_seq)
      values (${nextId()}, ${T}, ${`XD-R${i}`}, ${devices[i % 3]}, 3, ${start}, ${new Date(start.getTime() + 1_800_000)},
        ${1 + (i % 2)}, ${1000 + i})`);
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

  it('the monthly disinfection register lists the month’s records, as SQL finds them', async () => {
    const data = await dataOf('builtin.disinfection-ledger-monthly');
    const expected = await rowsOf(sql`select record_no from mes_disinfection_record
      where tenant_id = ${T} and is_deleted = 0 and ${inOctober('start_time')} order by record_no`);
    expect(data.rows.map((r) => r.recordNo).sort()).toEqual(expected.map((e) => e.record_no));
    expect(expected.length).toBeGreaterThan(0);
    // A register: its rows in sections of month × department (the department heads its section).
    expect(data.sections?.reduce((n, section) => n + section.size, 0)).toBe(data.rows.length);
    expect(data.summary?.[0]).toMatchObject({ label: { zh: '记录数' }, value: data.rows.length });
    // Enumerations by name: the seeded records are waterline records (record type 3).
    expect(new Set(data.rows.map((r) => r.recordType))).toEqual(new Set(['水路消毒']));
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

/** A 1×1 PNG. */
const LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/**
 * A layout the generator prints: the plain layout (bound title, subtitle and table) with a fixed
 * (read-only) text, a line and a logo added.
 */
function goodLayout(): Row {
  const plain = defaultLayout({ columns: [{ key: 'a', label: { zh: '甲', en: 'A' }, type: 'text' }] });
  const fixed = [
    {
      name: 'hospital',
      type: 'text',
      readOnly: true,
      content: '口腔医院 第 {currentPage} 页',
      position: { x: 12, y: 24 },
      width: 186,
      height: 6,
    },
    { name: 'rule', type: 'line', position: { x: 12, y: 31 }, width: 186, height: 0.5, color: '#000000' },
    // A logo: an image the designer placed, printed as it is.
    { name: 'logo', type: 'image', readOnly: true, content: LOGO, position: { x: 12, y: 2 }, width: 10, height: 8 },
  ];
  return JSON.parse(JSON.stringify({ ...plain, schemas: [[...(plain.schemas[0] ?? []), ...fixed]] })) as Row;
}

type Layout = { basePdf?: unknown; schemas: Row[][] };
/** The good layout with one change made by `change`. */
function layoutWith(change: (layout: Layout) => void): Layout {
  const layout = structuredClone(goodLayout()) as Layout;
  change(layout);
  return layout;
}
const elementOf = (layout: Layout, name: string) => layout.schemas[0]!.find((s) => s.name === name)!;

describe('layouts the generator cannot print', () => {
  const saveLayout = async (id: string, layout: unknown, language = 'zh-CN') =>
    t.as(token, {
      method: 'POST',
      url: '/api/blade-report/template/layout',
      payload: { id, layout },
      headers: { 'accept-language': language },
    });

  // Each: the layout, and what its message names.
  const BAD: [string, unknown, string][] = [
    ['no basePdf', { schemas: [[]] }, 'basePdf'],
    ['a basePdf that is not a PDF', { basePdf: 'data:application/pdf;base64,aGVsbG8=', schemas: [[]] }, 'basePdf'],
    ['schemas not a list of pages', { basePdf: goodLayout().basePdf, schemas: {} }, 'schemas'],
    ['an element with no position', layoutWith((l) => delete elementOf(l, 'title').position), 'position'],
    ['a width that is not a number', layoutWith((l) => (elementOf(l, 'title').width = 'wide')), 'width'],
    [
      'an image that holds no picture',
      layoutWith((l) => (elementOf(l, 'logo').content = 'data:image/png;base64,aGVsbG8=')),
      'logo',
    ],
    ['a type pdfme does not know', layoutWith((l) => (elementOf(l, 'rule').type = 'qrcode')), 'qrcode'],
    [
      'a text bound to a field the report does not fill',
      layoutWith((l) => (elementOf(l, 'title').name = 'deviceCode')),
      'deviceCode',
    ],
    ['a table bound to an unknown field', layoutWith((l) => (elementOf(l, 'rows').name = 'details')), 'details'],
    ['rows as text, not a table', layoutWith((l) => (elementOf(l, 'title').name = 'rows')), 'rows'],
    ['a table without its cell styles', layoutWith((l) => delete elementOf(l, 'rows').headStyles), 'headStyles'],
    ['a font the server does not have', layoutWith((l) => (elementOf(l, 'title').fontName = 'Arial')), 'Arial'],
    [
      'a read-only table whose content is not rows of text',
      layoutWith((l) => Object.assign(elementOf(l, 'rows'), { name: 'fixed', readOnly: true, content: '{"a":1}' })),
      'fixed',
    ],
    [
      'head and widths that disagree',
      layoutWith((l) => (elementOf(l, 'rows').headWidthPercentages = [50, 50])),
      'rows',
    ],
  ];

  it('refuses each with a 400 naming the problem, in both languages, and keeps the stored layout', async () => {
    const id = await templateId('builtin.device-online-daily');
    const kept = goodLayout();
    const saved = await saveLayout(id, kept);
    expect(saved.statusCode, saved.body).toBe(200);
    for (const [what, layout, named] of BAD) {
      const res = await saveLayout(id, layout);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      const msg = String(res.json().msg);
      expect(msg, what).toContain(named);
      expect(msg, what).toMatch(/^版式/);
      const en = await saveLayout(id, layout, 'en-US');
      expect(String(en.json().msg), what).toMatch(/^Layout .*: /);
      expect(String(en.json().msg), what).toContain(named);
    }
    expect((await get<Row>(`/api/blade-report/template/detail?id=${id}`)).layout).toEqual(kept);
    // The designer's preview of a layout being designed says the same, not a 5xx.
    const preview = await t.as(token, {
      method: 'POST',
      url: '/api/blade-report/template/preview',
      payload: { id, layout: BAD[0]![1] },
    });
    expect(preview.statusCode).toBe(400);
    expect(preview.json().msg).toContain('basePdf');
    expect((await saveLayout(id, null)).statusCode).toBe(200);
  }, 120_000);

  it('a bad layout stored before the checks makes a failed file that says why, never a 5xx', async () => {
    const id = await templateId('builtin.device-online-daily');
    const bad = layoutWith((l) => (elementOf(l, 'rows').name = 'details'));
    await t.ctx.db.execute(sql`update mes_report_template set layout = ${JSON.stringify(bad)}::jsonb where id = ${id}`);
    try {
      const res = await t.as(token, {
        method: 'POST',
        url: '/api/blade-report/report/rest/generate',
        payload: { templateId: id, format: 'pdf', params: { from: FROM, to: TO } },
      });
      expect(res.statusCode, res.body).toBe(200);
      const fileId = (res.json() as { data: string }).data;
      const row = await finished(fileId);
      expect(row.state).toBe(ReportFileStatus.failed);
      expect(row.error).toContain('details');
      expect(row.error).toMatch(/版式.*\(Layout .*\)/);
      const download = await t.as(token, { method: 'GET', url: `/api/blade-report/report/rest/download?id=${fileId}` });
      expect(download.statusCode).toBe(404);
    } finally {
      await t.ctx.db.execute(sql`update mes_report_template set layout = null where id = ${id}`);
    }
  }, 90_000);
});

describe('what a template reads', () => {
  const submit = (body: Row) =>
    t.as(token, { method: 'POST', url: '/api/blade-report/template/submit', payload: body });
  const base = { name: '消毒记录月报', source: 'warning', dateField: 'startTime' };

  it('refuses fields its source does not have, naming them, and stores nothing', async () => {
    const before = await rowsOf(sql`select count(*)::int as n from mes_report_template where tenant_id = ${T}`);
    const cases: [Row, string][] = [
      [{ ...base, source: 'no_such_source' }, 'no_such_source'],
      [{ ...base, columns: ['deviceCode', 'noSuchColumn'] }, 'noSuchColumn'],
      [{ ...base, groupBy: ['noSuchGroup'] }, 'noSuchGroup'],
      [{ ...base, dateField: 'deviceCode' }, 'deviceCode'],
      [{ ...base, groupBy: ['level'], measures: [{ fn: 'sum', field: 'deviceCode' }] }, 'deviceCode'],
    ];
    for (const [body, named] of cases) {
      const res = await submit(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(String(res.json().msg), JSON.stringify(body)).toContain(named);
    }
    const after = await rowsOf(sql`select count(*)::int as n from mes_report_template where tenant_id = ${T}`);
    expect(after).toEqual(before);
  });

  it('keeps the layout out of the generic submit: saved by its own route, answered by detail', async () => {
    const added = await submit({ ...base, columns: ['deviceCode', 'level'], layout: goodLayout() });
    expect(added.statusCode, added.body).toBe(200);
    const id = (added.json() as { data: string }).data;
    try {
      expect((await get<Row>(`/api/blade-report/template/detail?id=${id}`)).layout).toBeNull();
      const layout = goodLayout();
      const saved = await t.as(token, {
        method: 'POST',
        url: '/api/blade-report/template/layout',
        payload: { id, layout },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const edited = await submit({ id, ...base, name: '消毒记录月报(改)', layout: { schemas: 'overwritten' } });
      expect(edited.statusCode, edited.body).toBe(200);
      const detail = await get<Row>(`/api/blade-report/template/detail?id=${id}`);
      expect(detail).toMatchObject({ name: '消毒记录月报(改)', layout });
    } finally {
      await t.ctx.db.execute(sql`delete from mes_report_template where id = ${id}`);
    }
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
  const row = await finished((res.json() as { data: string }).data);
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
