import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PACK_MOVE_PATH,
  PackState,
  ReportFileStatus,
  type PageResult,
  type ReportData,
  type ReportFormat,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { addDays, dayStart, zoneDay } from '../src/modules/welcome/welcome-days';
import { disinfectionRecordChain, recordsFromCycles } from '../src/modules/business/disinfection/records-from-cycles';
import { waitFor } from './support/mqtt-kit';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 30 point 1: the built-in 月度消毒登记台账 reads as a register. Without a range it covers
 * the current month (not every record ever made); record types and results read by their names;
 * its rows stand in sections of month × department closed by subtotals (records and packs); a
 * record made from a cycle shows the batch (load no) and the load (its packs by article) of that
 * cycle. The same in the xlsx (read back with exceljs) and the PDF (read back with pdftotext).
 */
let t: TestApp;
let token: string;
const TENANT = '000000';
const HOUR = 3_600_000;
const CODE = 'builtin.disinfection-ledger-monthly';
const suffix = randomBytes(3).toString('hex');
const EAST = { id: nextId(), name: `东区门诊${suffix}` };
const WEST = { id: nextId(), name: `西区门诊${suffix}` };

type Row = Record<string, unknown>;
const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

async function get<T>(url: string): Promise<T> {
  const res = await t.as(token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: T }).data;
}
async function ok<T = string>(url: string, body: Record<string, unknown>): Promise<T> {
  const res = await t.as(token, { method: 'POST', url, payload: body });
  const reply = res.json() as { success: boolean; msg: string; data: T };
  expect(reply.success, reply.msg).toBe(true);
  return reply.data;
}

async function templateId(): Promise<string> {
  const page = await get<PageResult<Row>>('/api/blade-report/template/list?size=100');
  return String(page.records.find((r) => r.code === CODE)?.id);
}

/** Today in the product's zone, and an instant `hours` into its month's first day. */
const today = () => zoneDay(Date.now());
const monthStart = () => `${today().slice(0, 7)}-01`;
const inMonth = (hours: number) => new Date(dayStart(monthStart()).getTime() + hours * HOUR);
const lastMonth = () => new Date(dayStart(addDays(monthStart(), -3) as string).getTime() + 10 * HOUR);

/** A steam steriliser (product category 2: sterilisation records) of a department. */
async function steriliser(deptId: string): Promise<{ id: string; code: string; deptId: string }> {
  const productId = nextId();
  const id = nextId();
  const code = `R${randomBytes(4).toString('hex')}`;
  await rows(
    `insert into mes_product (id, tenant_id, product_code, product_name, category) values ($1, $2, $3, $3, 2)`,
    [productId, TENANT, `P${code}`],
  );
  await rows(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, dept_id, mqtt_client_id)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [id, TENANT, code, `灭菌器${code}`, productId, deptId, `c-${code}`],
  );
  return { id, code, deptId };
}

/** A finished cycle of the device, from which the records job makes a record. */
async function cycle(d: { id: string; code: string; deptId: string }, start: Date): Promise<string> {
  const id = nextId();
  await rows(
    `insert into mes_device_cycle (id, tenant_id, device_id, device_code, dept_id, program_name, start_time, end_time,
       duration_seconds, result, parametric_result, parametric_reason)
     values ($1, $2, $3, $4, $5, '134℃ 器械', $6, $7, 2400, 1, 1, '')`,
    [id, TENANT, d.id, d.code, d.deptId, start, new Date(start.getTime() + 40 * 60_000)],
  );
  return id;
}

/** `n` packs of the article moved into a load of the cycle (the load's packs, as the ledger counts them). */
async function loadOf(deviceId: string, cycleId: string, packs: { articleId: string; n: number }[]): Promise<string> {
  const loadId = await ok('/api/blade-business/load/submit', { deviceId, cycleId });
  for (const { articleId, n } of packs) {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) ids.push(await ok('/api/blade-business/pack/submit', { articleId }));
    for (const state of [PackState.pickedUp, PackState.cleaning, PackState.cleaned]) {
      await ok(`/api${PACK_MOVE_PATH}`, {
        ids: ids.join(','),
        state,
        ...(state === PackState.pickedUp ? { deptId: EAST.id } : {}),
      });
    }
    await ok(`/api${PACK_MOVE_PATH}`, { ids: ids.join(','), state: PackState.sterilising, loadId });
  }
  const [row] = await rows<{ load_no: string }>('select load_no from mes_load where id = $1', [loadId]);
  return String(row?.load_no);
}

const article = (name: string) =>
  ok('/api/blade-business/article/submit', {
    code: `A${randomBytes(3).toString('hex')}`,
    barCode: `B${randomBytes(4).toString('hex')}`,
    name,
    category: 1,
    contents: '口镜、镊子',
    packMaterial: 3,
  });

let eastLoadNo: string;
let westLoadNo: string;

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
  token = (await t.signIn()).access_token;
  for (const dept of [EAST, WEST])
    await rows(
      `insert into blade_dept (id, tenant_id, parent_id, ancestors, dept_name, full_name, dept_category)
       values ($1, $2, 0, '0', $3, $3, 5)`,
      [dept.id, TENANT, dept.name],
    );
  const east = await steriliser(EAST.id);
  const west = await steriliser(WEST.id);
  const handpiece = await article(`牙科手机包${suffix}`);
  const basic = await article(`基础器械包${suffix}`);
  // This month: two cycles of the east steriliser (one with a load of 3 + 2 packs), one of the west (1 pack).
  const eastLoaded = await cycle(east, inMonth(9));
  await cycle(east, inMonth(13));
  const westLoaded = await cycle(west, inMonth(10));
  // Last month: a cycle the current month's register leaves out.
  await cycle(east, lastMonth());
  // Looking back past the job's week: the cycles are early this month and in the last.
  await recordsFromCycles(t.ctx, disinfectionRecordChain(), TENANT, 70 * 24 * HOUR);
  eastLoadNo = await loadOf(east.id, eastLoaded, [
    { articleId: handpiece, n: 3 },
    { articleId: basic, n: 2 },
  ]);
  westLoadNo = await loadOf(west.id, westLoaded, [{ articleId: basic, n: 1 }]);
}, 180_000);

afterAll(async () => {
  await t?.close();
});

const mine = (text: unknown) => String(text ?? '').includes(suffix);

describe('the monthly disinfection register', () => {
  it('covers the current month by default, in sections of month × department with subtotals', async () => {
    const data = await get<ReportData>(`/api/blade-report/template/data?id=${await templateId()}`);
    const month = today().slice(0, 7);
    const last = addDays(`${addDays(monthStart(), 40)?.slice(0, 7)}-01`, -1);
    expect(data.subtitle).toContain(`${monthStart()} ~ ${last}`);
    // Not a column of its own: each section names its department.
    expect(data.columns.map((c) => c.key)).not.toContain('deptId');
    const sections = (data.sections ?? []).filter((s) => mine(s.label));
    expect(sections.map((s) => s.label)).toEqual([`${month} · ${EAST.name}`, `${month} · ${WEST.name}`]);
    expect(sections.map((s) => s.subtotals.map((f) => [f.label.zh, f.value]))).toEqual([
      [
        ['记录数', 2],
        ['器械包数', 5],
      ],
      [
        ['记录数', 1],
        ['器械包数', 1],
      ],
    ]);
    // The sections cover the rows in order: the east section's rows are its two records, in time order.
    let at = 0;
    for (const section of data.sections ?? []) {
      if (section.label === sections[0]?.label) break;
      at += section.size;
    }
    const east = data.rows.slice(at, at + 2);
    expect(east.map((r) => r.startTime)).toEqual([...east.map((r) => r.startTime)].sort());
    // Labels, not codes: a steam steriliser's records are 灭菌 records, its results 合格.
    expect(east.map((r) => r.recordType)).toEqual(['灭菌', '灭菌']);
    expect(east.every((r) => typeof r.result === 'string' && !/^\d+$/.test(String(r.result)))).toBe(true);
    // Batch and load from the cycle's load; the unloaded cycle leaves them empty.
    const loaded = east.find((r) => r.batchNo);
    expect(loaded?.batchNo).toBe(eastLoadNo);
    expect(String(loaded?.load)).toContain(`牙科手机包${suffix}×3`);
    expect(String(loaded?.load)).toContain(`基础器械包${suffix}×2`);
    // Last month's record is not in this month's register.
    const [old] = await rows<{ record_no: string }>(
      `select record_no from mes_disinfection_record r join mes_device d on d.id = r.device_id
       where d.dept_id = $1 and r.start_time < $2`,
      [EAST.id, dayStart(monthStart())],
    );
    expect(old).toBeDefined();
    expect(data.rows.map((r) => r.recordNo)).not.toContain(old?.record_no);
    expect(data.summary?.[0]?.value).toBe(data.rows.length);
  });

  it('reads another period when the run names one', async () => {
    const from = addDays(monthStart(), -20) as string;
    const to = addDays(monthStart(), -1) as string;
    const params = encodeURIComponent(JSON.stringify({ from, to }));
    const data = await get<ReportData>(`/api/blade-report/template/data?id=${await templateId()}&params=${params}`);
    expect(data.subtitle).toContain(`${from} ~ ${to}`);
    const sections = (data.sections ?? []).filter((s) => mine(s.label));
    expect(sections.map((s) => s.label)).toEqual([`${from.slice(0, 7)} · ${EAST.name}`]);
    expect(sections[0]?.subtotals[0]?.value).toBe(1);
  });

  it('prints the same register in the xlsx: section headings, rows with batch and load, subtotals', async () => {
    const bytes = await generate('xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getCell(1, 1).value).toBe('月度消毒登记台账');
    const lines: string[][] = [];
    sheet.eachRow((row) =>
      lines.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))),
    );
    const header = lines[2] ?? [];
    const col = (label: string) => header.indexOf(label);
    expect(header).toEqual(expect.arrayContaining(['记录类型', '批次号', '装载物品', '结果']));
    const heading = lines.findIndex((l) => l[0] === `${today().slice(0, 7)} · ${EAST.name}`);
    expect(heading).toBeGreaterThan(2);
    const section = lines.slice(heading + 1, heading + 4);
    expect(section.slice(0, 2).map((l) => l[col('记录类型')])).toEqual(['灭菌', '灭菌']);
    const loaded = section.find((l) => l[col('批次号')] === eastLoadNo);
    expect(loaded?.[col('装载物品')]).toContain(`牙科手机包${suffix}×3`);
    expect(section[2]?.slice(0, 3)).toEqual(['小计', '记录数 2', '器械包数 5']);
    const west = lines.findIndex((l) => l[0] === `${today().slice(0, 7)} · ${WEST.name}`);
    expect(lines[west + 1]?.[col('批次号')]).toBe(westLoadNo);
    expect(lines[lines.length - 1]?.[0]).toBe('合计');
  }, 90_000);

  it('prints the same register in the PDF', async () => {
    const bytes = await generate('pdf');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'register-'));
    try {
      const file = path.join(dir, 'register.pdf');
      fs.writeFileSync(file, bytes);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('月度消毒登记台账');
      expect(text).toContain(`${today().slice(0, 7)} · ${EAST.name}`);
      expect(text).toContain(`${today().slice(0, 7)} · ${WEST.name}`);
      expect(text).toContain('小计');
      expect(text).toContain('器械包数 5');
      expect(text).toContain(eastLoadNo);
      expect(text).toContain('灭菌');
      expect(text).toContain(`牙科手机包${suffix}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A file of the register for the current month (no range given), as the job makes it. */
async function generate(format: ReportFormat): Promise<Buffer> {
  const res = await t.as(token, {
    method: 'POST',
    url: '/api/blade-report/report/rest/generate',
    payload: { templateId: await templateId(), format },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = (res.json() as { data: string }).data;
  let row: Row = {};
  await waitFor(async () => {
    row = await get<Row>(`/api/blade-report/report/rest/detail?id=${id}`);
    return row.state === ReportFileStatus.done || row.state === ReportFileStatus.failed;
  }, 60_000);
  expect(row.error).toBe('');
  const file = await t.as(token, { method: 'GET', url: `/api/blade-report/report/rest/download?id=${id}` });
  expect(file.statusCode).toBe(200);
  return file.rawPayload;
}
