import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISINFECTION_LEDGER_ROUTE,
  formatDateTime,
  LOAD_RELEASE_PATH,
  PACK_HISTORY_PATH,
  PACK_LABEL_PATH,
  PACK_MOVE_PATH,
  PackState,
  type LedgerRow,
  type PackMoveRow,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { addDays, dayStart, zoneDay } from '../src/modules/welcome/welcome-days';
import { disinfectionRecordChain, recordsFromCycles } from '../src/modules/business/disinfection/records-from-cycles';
import { createTestApp, type TestApp } from './support/test-app';
import { signInToNewTenant } from './support/scoped-user';

/**
 * Issue 29 points 1 and 3 (docs/packs.md): packs move only as the one transition table allows
 * (a refusal names both states, in the caller's language), each move kept in the pack's history
 * with who, when and where; a load is released only on a cycle that passed parametrically and
 * passing indicators, and its release makes its packs sterile with an expiry from their pack
 * material; labels print as a PDF with their Chinese text; the disinfection record shows its load
 * and the ledger counts its packs; another tenant reaches none of it.
 */

let t: TestApp;
let admin: string;
const TENANT = '000000';
const HOUR = 3_600_000;
const PASS = 1;
const FAIL = 2;
const BD = 1;
const CHEMICAL_INNER = 2;

interface Reply<T = string> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];
const stamp = (ms: number) => formatDateTime(new Date(ms));

async function post<T = string>(url: string, body: Record<string, unknown>, lang = 'zh', token = admin) {
  const reply = await t.as(token, { method: 'POST', url, payload: body, headers: { 'accept-language': lang } });
  expect(reply.statusCode, reply.body).toBeLessThan(500);
  return { status: reply.statusCode, ...reply.json<Reply<T>>() };
}
async function get<T>(url: string, token = admin) {
  const reply = await t.as(token, { method: 'GET', url });
  return { status: reply.statusCode, ...reply.json<Reply<T>>() };
}
async function ok<T = string>(url: string, body: Record<string, unknown>) {
  const made = await post<T>(url, body);
  expect(made.success, made.msg).toBe(true);
  return made.data;
}

/** A device of a product of this category (2 steam steriliser: daily BD; 3 plasma: none). */
async function steriliser(category: number): Promise<{ id: string; code: string }> {
  const productId = nextId();
  const id = nextId();
  const code = `S${randomBytes(4).toString('hex')}`;
  await rows(
    `insert into mes_product (id, tenant_id, product_code, product_name, category) values ($1, $2, $3, $3, $4)`,
    [productId, TENANT, `P${code}`, category],
  );
  await rows(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id)
     values ($1, $2, $3, $4, $5, $6)`,
    [id, TENANT, code, `灭菌器${code}`, productId, `c-${code}`],
  );
  return { id, code };
}

/** Yesterday in the console's zone, so every time below is in the past and on one local day. */
const day = () => zoneDay(Date.now() - 24 * HOUR);
const at = (hours: number) => dayStart(day()).getTime() + hours * HOUR;

/** A finished cycle of the device (as ingestion stores one) with this parametric result (null: not judged). */
async function cycle(d: { id: string; code: string }, startHour: number, parametric: number | null, result = PASS) {
  const id = nextId();
  await rows(
    `insert into mes_device_cycle (id, tenant_id, device_id, device_code, program_name, start_time, end_time,
       duration_seconds, result, parametric_result, parametric_reason)
     values ($1, $2, $3, $4, '134℃ 器械', $5, $6, 2400, $7, $8, $9)`,
    [
      id,
      TENANT,
      d.id,
      d.code,
      new Date(at(startHour)),
      new Date(at(startHour) + 40 * 60_000),
      result,
      parametric,
      parametric === FAIL ? '维持时间 120 秒,低于 180 秒' : '',
    ],
  );
  return id;
}

/** The current record the records job made of a cycle. */
async function recordOf(cycleId: string): Promise<string> {
  await recordsFromCycles(t.ctx, disinfectionRecordChain(), TENANT);
  const [row] = await rows<{ id: string }>(
    `select id::text from mes_disinfection_record where cycle_id = $1 and not superseded and is_deleted = 0`,
    [cycleId],
  );
  expect(row).toBeDefined();
  return (row as { id: string }).id;
}

async function verification(deviceId: string, type: number, result: number, atMs: number, recordId?: string) {
  return ok('/api/blade-business/verification/submit', {
    deviceId,
    verificationType: type,
    testTime: stamp(atMs),
    result,
    ...(recordId ? { disinfectionRecordId: recordId } : {}),
  });
}

let articleId: string;
let clinic: string;

async function newPacks(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) ids.push(await ok('/api/blade-business/pack/submit', { articleId }));
  return ids;
}

const move = (ids: string[], state: number, extra: Record<string, unknown> = {}, lang = 'zh') =>
  post<number>(`/api${PACK_MOVE_PATH}`, { ids: ids.join(','), state, ...extra }, lang);

const stateOf = async (id: string) =>
  (
    await get<{ state: number; sterileDate: string; expiryDate: string; loadId: string }>(
      `/api/blade-business/pack/detail?id=${id}`,
    )
  ).data;

const history = async (id: string) => (await get<PackMoveRow[]>(`/api${PACK_HISTORY_PATH}?id=${id}`)).data;

/** Packs moved from new through cleaned, ready to go into a load. */
async function cleanedPacks(n: number): Promise<string[]> {
  const ids = await newPacks(n);
  for (const state of [PackState.pickedUp, PackState.cleaning, PackState.cleaned]) {
    const moved = await move(ids, state, state === PackState.pickedUp ? { deptId: clinic } : {});
    expect(moved.success, moved.msg).toBe(true);
  }
  return ids;
}

async function newLoad(deviceId: string, cycleId?: string): Promise<string> {
  return ok('/api/blade-business/load/submit', { deviceId, ...(cycleId ? { cycleId } : {}) });
}

const release = (id: string, lang = 'zh') => post<number>(`/api${LOAD_RELEASE_PATH}?id=${id}`, {}, lang);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  articleId = await ok('/api/blade-business/article/submit', {
    code: `A${randomBytes(3).toString('hex')}`,
    barCode: `B${randomBytes(4).toString('hex')}`,
    name: '口腔检查器械包',
    category: 1,
    contents: '口镜、镊子、探针',
    packMaterial: 3,
  });
  const [dept] = await rows<{ id: string }>(
    `select id::text from blade_dept where tenant_id = $1 and is_deleted = 0 limit 1`,
    [TENANT],
  );
  clinic = (dept as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('packs and their moves', () => {
  it('gives a new pack a code and a first history row, and moves it as the table allows, each move recorded', async () => {
    const [id] = (await newPacks(1)) as [string];
    const made = await stateOf(id);
    expect(made.state).toBe(PackState.awaitingPickup);
    // A car of a base (a department of category 4), as the pick-up rounds use.
    const base = nextId();
    await rows(
      `insert into blade_dept (id, tenant_id, parent_id, ancestors, dept_name, full_name, dept_category)
       values ($1, $2, 0, '0', '消毒供应中心', '消毒供应中心', 4)`,
      [base, TENANT],
    );
    const car = await ok('/api/blade-business/car/submit', {
      name: '回收车',
      plate: `苏E${String(Date.now()).slice(-5)}`,
      barCode: `C${randomBytes(3).toString('hex')}`,
      base,
    });
    const picked = await move([id], PackState.pickedUp, { deptId: clinic, carId: car, remark: '回收' });
    expect(picked.success, picked.msg).toBe(true);
    expect(picked.data).toBe(1);
    expect((await move([id], PackState.cleaning)).success).toBe(true);
    const moves = await history(id);
    expect(moves.map((m) => [m.fromState, m.toState])).toEqual([
      [null, PackState.awaitingPickup],
      [PackState.awaitingPickup, PackState.pickedUp],
      [PackState.pickedUp, PackState.cleaning],
    ]);
    const pickup = moves[1] as PackMoveRow;
    expect(pickup.deptId).toBe(clinic);
    expect(pickup.deptName).not.toBe('');
    expect(pickup.userName).not.toBe('');
    expect(pickup.remark).toBe('回收');
    expect(pickup.moveTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(pickup.carId).toBe(car);
    expect(pickup.carName).toBe('回收车');
    expect((await stateOf(id)).state).toBe(PackState.cleaning);
  });

  it('refuses a move the state does not allow with a 400 naming both states, in Chinese and in English, and moves nothing', async () => {
    const [a, b] = (await newPacks(2)) as [string, string];
    expect((await move([a], PackState.pickedUp, { deptId: clinic })).success).toBe(true);
    // b is still awaiting pickup: the whole batch is refused, a stays picked up.
    const zh = await move([a, b], PackState.cleaning);
    expect(zh.status).toBe(400);
    expect(zh.msg).toContain('「待回收」');
    expect(zh.msg).toContain('「清洗中」');
    const en = await move([b], PackState.cleaned, {}, 'en');
    expect(en.status).toBe(400);
    expect(en.msg).toContain('"Awaiting pickup"');
    expect(en.msg).toContain('"Cleaned"');
    expect((await stateOf(a)).state).toBe(PackState.pickedUp);
    expect((await stateOf(b)).state).toBe(PackState.awaitingPickup);
    expect(await history(a)).toHaveLength(2);
    // Sterile only by a release; a load is needed to sterilise; an unknown state is refused.
    const sterile = await move([a], PackState.sterile);
    expect(sterile.status).toBe(400);
    expect(sterile.msg).toContain('批次放行');
    expect((await move([a], 99)).status).toBe(400);
  });

  it('keeps state and place out of the generic submit', async () => {
    const [id] = (await newPacks(1)) as [string];
    const changed = await post('/api/blade-business/pack/submit', { id, state: PackState.sterile, remark: '改备注' });
    expect(changed.success, changed.msg).toBe(true);
    expect((await stateOf(id)).state).toBe(PackState.awaitingPickup);
  });
});

describe('loads and their release', () => {
  it('refuses a release while the cycle is not judged, failed parametrically or failed on the device', async () => {
    const d = await steriliser(3);
    for (const [hour, parametric, result, text] of [
      [8, null, PASS, '未判定'],
      [10, FAIL, PASS, '参数判定不合格'],
      [12, PASS, FAIL, '未合格完成'],
    ] as const) {
      const c = await cycle(d, hour, parametric, result);
      const l = await newLoad(d.id, c);
      const packs = await cleanedPacks(1);
      expect((await move(packs, PackState.sterilising, { loadId: l })).success).toBe(true);
      const refused = await release(l);
      expect(refused.status, text).toBe(400);
      expect(refused.msg).toContain(text);
      expect((await stateOf(packs[0] as string)).state).toBe(PackState.sterilising);
    }
    const en = await release(await newLoad(d.id, await cycle(d, 15, null)), 'en');
    expect(en.msg).toContain('not been judged');
    // No cycle yet.
    expect((await release(await newLoad(d.id))).msg).toContain('尚未关联灭菌周期');
  });

  it('refuses a release when an indicator of the cycle failed, or when no indicator was recorded', async () => {
    const d = await steriliser(3);
    const c = await cycle(d, 9, PASS);
    const record = await recordOf(c);
    const l = await newLoad(d.id, c);
    const packs = await cleanedPacks(1);
    expect((await move(packs, PackState.sterilising, { loadId: l })).success).toBe(true);
    const none = await release(l);
    expect(none.status).toBe(400);
    expect(none.msg).toContain('无监测指示物结果');
    const failed = await verification(d.id, CHEMICAL_INNER, FAIL, at(10), record);
    const refused = await release(l);
    expect(refused.status).toBe(400);
    expect(refused.msg).toContain('包内化学指示物不合格');
    const [row] = await rows<{ record_no: string }>(`select record_no from mes_verification_record where id = $1`, [
      failed,
    ]);
    expect(refused.msg).toContain((row as { record_no: string }).record_no);
  });

  it('refuses a steam steriliser without a passing Bowie-Dick test that day', async () => {
    const d = await steriliser(2);
    const c = await cycle(d, 9, PASS);
    const record = await recordOf(c);
    await verification(d.id, CHEMICAL_INNER, PASS, at(10), record);
    const l = await newLoad(d.id, c);
    expect((await move(await cleanedPacks(1), PackState.sterilising, { loadId: l })).success).toBe(true);
    expect((await release(l)).msg).toContain('无BD测试记录');
    await verification(d.id, BD, FAIL, at(7));
    expect((await release(l)).msg).toContain('BD测试不合格');
  });

  it('releases a load whose cycle and indicators passed: its packs become sterile, with history, dates and the releaser', async () => {
    const d = await steriliser(2);
    await verification(d.id, BD, PASS, at(7));
    const c = await cycle(d, 11, PASS);
    const record = await recordOf(c);
    await verification(d.id, CHEMICAL_INNER, PASS, at(12), record);
    const l = await newLoad(d.id, c);
    const packs = await cleanedPacks(3);
    expect((await move(packs, PackState.sterilising, { loadId: l })).success).toBe(true);
    // One waits for review already; the others go through review at the release.
    expect((await move([packs[0] as string], PackState.awaitingReview)).success).toBe(true);
    const released = await release(l);
    expect(released.success, released.msg).toBe(true);
    expect(released.data).toBe(3);
    const loadRow = (await get<Record<string, unknown>>(`/api/blade-business/load/detail?id=${l}`)).data;
    expect(loadRow.state).toBe(2);
    expect(loadRow.releaseUserName).not.toBe('');
    expect(loadRow.releaseTime).toMatch(/^\d{4}-/);
    expect(loadRow.packCount).toBe(3);
    expect(loadRow.cycleName).toContain(d.code);
    for (const id of packs) {
      const p = await stateOf(id);
      expect(p.state).toBe(PackState.sterile);
      expect(p.sterileDate).toBe(day());
      // Non-woven wrap keeps 180 days.
      expect(p.expiryDate).toBe(addDays(day(), 180));
      const last = (await history(id)).slice(-2);
      expect(last.map((m) => m.toState)).toEqual([PackState.awaitingReview, PackState.sterile]);
      expect(last[1]?.loadId).toBe(l);
      expect(last[1]?.userName).toBe(loadRow.releaseUserName);
    }
    // Once only, and no more packs go in.
    expect((await release(l)).msg).toContain('已放行');
    const late = await move(await cleanedPacks(1), PackState.sterilising, { loadId: l });
    expect(late.status).toBe(400);
    expect(late.msg).toContain('已放行');
    const edit = await post('/api/blade-business/load/submit', { id: l, deviceId: d.id, remark: 'x' });
    expect(edit.status).toBe(400);

    // The record of the cycle shows its load; the ledger counts its packs.
    const shown = (await get<Record<string, unknown>>(`/api/blade-business/disinfection/detail?id=${record}`)).data;
    expect(shown.loadId).toBe(l);
    expect(shown.loadNo).toBe(loadRow.loadNo);
    expect(shown.loadPacks).toBe(3);
    const listed = await get<{ records: Record<string, unknown>[] }>(
      `/api/blade-business/disinfection/page?deviceCode=${d.code}`,
    );
    expect(listed.data.records.map((r) => r.loadNo)).toEqual([loadRow.loadNo]);
    const ledger = await get<{ records: LedgerRow[] }>(
      `/api${DISINFECTION_LEDGER_ROUTE}?startDate=${day()}&endDate=${day()}&deviceCode=${d.code}&size=50`,
    );
    expect(ledger.success, ledger.msg).toBe(true);
    expect(ledger.data.records.map((r) => r.packs)).toEqual([3]);

    // Delivered to a clinic, used on a patient (the case is required), then back for pickup.
    const [first] = packs as [string];
    expect((await move([first], PackState.delivered, { deptId: clinic })).success).toBe(true);
    const noCase = await move([first], PackState.inUse);
    expect(noCase.status).toBe(400);
    expect(noCase.msg).toContain('病历号');
    const used = await move([first], PackState.inUse, {
      patientCase: 'MZ2026-0042',
      chairNo: '3',
      clinician: '李医生',
    });
    expect(used.success, used.msg).toBe(true);
    const useMove = (await history(first)).at(-1) as PackMoveRow;
    expect([useMove.patientCase, useMove.chairNo, useMove.clinician]).toEqual(['MZ2026-0042', '3', '李医生']);

    // A pack past its expiry cannot be used.
    const second = packs[1] as string;
    expect((await move([second], PackState.delivered, { deptId: clinic })).success).toBe(true);
    await rows(`update mes_pack set expiry_date = current_date - 2 where id = $1`, [second]);
    const stale = await move([second], PackState.inUse, { patientCase: 'MZ1' });
    expect(stale.status).toBe(400);
    expect(stale.msg).toContain('过期');
    expect((await move([second], PackState.expired)).success).toBe(true);

    // The label: a PDF with its Chinese text.
    const label = await t.as(admin, { method: 'GET', url: `/api${PACK_LABEL_PATH}?ids=${packs[2]}` });
    expect(label.statusCode, label.body.slice(0, 200)).toBe(200);
    expect(label.headers['content-type']).toContain('application/pdf');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'label-')), 'label.pdf');
    fs.writeFileSync(file, label.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    const code = (await get<{ code: string }>(`/api/blade-business/pack/detail?id=${packs[2]}`)).data.code;
    for (const expected of [
      '口腔检查器械包',
      '口镜、镊子、探针',
      '医用无纺布',
      `灭菌日期: ${day()}`,
      `失效日期: ${addDays(day(), 180)}`,
      String(loadRow.loadNo),
      `灭菌器${d.code}`,
      code,
    ])
      expect(text, expected).toContain(expected);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    // 60 × 40 mm is 170.08 × 113.39 pt.
    expect(info).toMatch(/Page size:\s+170\.\d+ x 113\.\d+ pts/);
  }, 60_000);

  it('refuses a cycle of another steriliser', async () => {
    const d = await steriliser(3);
    const other = await steriliser(3);
    const c = await cycle(other, 13, PASS);
    const refused = await post('/api/blade-business/load/submit', { deviceId: d.id, cycleId: c });
    expect(refused.status).toBe(400);
    expect(refused.msg).toContain('该灭菌器');
  });
});

describe('tenancy', () => {
  it('another tenant neither sees nor moves nor releases the packs and loads of this one', async () => {
    const [id] = (await newPacks(1)) as [string];
    const d = await steriliser(3);
    const l = await newLoad(d.id);
    const other = await signInToNewTenant(t, '771234', [
      'pack:read',
      'pack:move',
      'pack:label',
      'load:read',
      'load:release',
    ]);
    const moved = await post(`/api${PACK_MOVE_PATH}`, { ids: id, state: PackState.pickedUp }, 'zh', other);
    expect(moved.success).toBe(false);
    expect((await get(`/api${PACK_HISTORY_PATH}?id=${id}`, other)).success).toBe(false);
    expect((await post(`/api${LOAD_RELEASE_PATH}?id=${l}`, {}, 'zh', other)).success).toBe(false);
    const label = await t.as(other, { method: 'GET', url: `/api${PACK_LABEL_PATH}?ids=${id}` });
    expect(label.statusCode).toBe(404);
    const page = await get<{ total: number }>('/api/blade-business/pack/page', other);
    expect(page.data.total).toBe(0);
    expect((await stateOf(id)).state).toBe(PackState.awaitingPickup);
  });
});
