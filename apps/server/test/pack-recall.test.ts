import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatDateTime,
  PACK_MOVE_PATH,
  PackState,
  RECALL_ACTION_PATH,
  RECALL_CLOSE_PATH,
  RECALL_DETAIL_PATH,
  RECALL_EXPORT_PATH,
  RECALL_NOTICE_PATH,
  RECALL_PATHS,
  RecallAction,
  RecallReason,
  RecallSource,
  RecallState,
  type PackMoveRow,
  type RecallView,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { addDays, dayStart, zoneDay } from '../src/modules/welcome/welcome-days';
import { sweepExpiredPacks } from '../src/modules/business/packs/pack-expiry';
import { disinfectionRecordChain, recordsFromCycles } from '../src/modules/business/disinfection/records-from-cycles';
import { createTestApp, type TestApp } from './support/test-app';
import { signInToNewTenant, signInWithScopes } from './support/scoped-user';

/**
 * Issue 29 points 4 and 5 (docs/packs.md "Recalls", "Expiry"): a failed biological indicator or
 * Bowie-Dick test recalls every pack of the device's loads since the last pass, each listed where
 * it is now and, once used, with its patient case; each pack's action is recorded with who and
 * when and moves it to `recalled` where the state allows; the recall closes only when every pack
 * is handled; other tenants neither see nor act; bad input is a 400 in zh and en. A pack past its
 * validity is moved to `expired` by the sweep with one warning at its clinic, and cannot be used.
 */

let t: TestApp;
let admin: string;
const TENANT = '000000';
const HOUR = 3_600_000;
const PASS = 1;
const FAIL = 2;
const BD = 1;
const BIOLOGICAL = 4;

interface Reply<T = string> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

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

/** Two days ago in the console's zone, so every time below is in the past. */
const day = () => zoneDay(Date.now() - 48 * HOUR);
const at = (hours: number) => new Date(dayStart(day()).getTime() + hours * HOUR);

async function steriliser(): Promise<{ id: string; code: string }> {
  const productId = nextId();
  const id = nextId();
  const code = `R${randomBytes(4).toString('hex')}`;
  await rows(
    `insert into mes_product (id, tenant_id, product_code, product_name, category) values ($1, $2, $3, $3, 3)`,
    [productId, TENANT, `P${code}`],
  );
  await rows(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id)
     values ($1, $2, $3, $4, $5, $6)`,
    [id, TENANT, code, `灭菌器${code}`, productId, `c-${code}`],
  );
  return { id, code };
}

const verification = (deviceId: string, type: number, result: number, when: Date) =>
  ok('/api/blade-business/verification/submit', {
    deviceId,
    verificationType: type,
    testTime: formatDateTime(when),
    result,
  });

/** A load of the device made at `when` (the recall window reads a load's creation). */
async function loadAt(deviceId: string, when: Date): Promise<string> {
  const id = await ok('/api/blade-business/load/submit', { deviceId });
  await rows(`update mes_load set create_time = $2 where id = $1`, [id, when]);
  return id;
}

/** A finished cycle of the device that ended at `end`, with this parametric result (null: not judged). */
async function cycleEnded(d: { id: string; code: string }, end: Date, parametric: number | null = null) {
  const id = nextId();
  await rows(
    `insert into mes_device_cycle (id, tenant_id, device_id, device_code, program_name, start_time, end_time,
       duration_seconds, result, parametric_result, parametric_reason)
     values ($1, $2, $3, $4, '134℃ 器械', $5, $6, 2400, 1, $7, $8)`,
    [
      id,
      TENANT,
      d.id,
      d.code,
      new Date(end.getTime() - 40 * 60_000),
      end,
      parametric,
      parametric === FAIL ? '维持时间 120 秒,低于 180 秒' : '',
    ],
  );
  return id;
}

/** Gives the load its cycle, as the load screen does (the generic submit). */
const giveCycle = (loadId: string, deviceId: string, cycleId: string, remark = '') =>
  ok('/api/blade-business/load/submit', { id: loadId, deviceId, cycleId, remark });

let articleId: string;
let clinic: string;
let clinicName: string;

/**
 * A pack of the load, put where a pack of that state is (set directly: the moves that bring it
 * there are packs.test.ts's subject).
 */
async function packIn(
  loadId: string,
  state: PackState,
  place: { deptId?: string; patientCase?: string; expiryDate?: string } = {},
): Promise<{ id: string; code: string }> {
  const id = await ok('/api/blade-business/pack/submit', { articleId });
  await rows(
    `update mes_pack set state = $2, load_id = $3, dept_id = $4, patient_case = $5, expiry_date = $6 where id = $1`,
    [id, state, loadId, place.deptId ?? null, place.patientCase ?? '', place.expiryDate ?? null],
  );
  const [row] = await rows<{ code: string }>(`select code from mes_pack where id = $1`, [id]);
  return { id, code: (row as { code: string }).code };
}

const recallOf = async (verificationId: string, token = admin) =>
  (await get<RecallView | null>(`/api${RECALL_DETAIL_PATH}?id=${verificationId}`, token)).data;

const act = (ids: string[], action: number, lang = 'zh', token = admin, remark?: string) =>
  post(`/api${RECALL_ACTION_PATH}`, { ids: ids.join(','), action, ...(remark ? { remark } : {}) }, lang, token);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  articleId = await ok('/api/blade-business/article/submit', {
    code: `A${randomBytes(3).toString('hex')}`,
    barCode: `B${randomBytes(4).toString('hex')}`,
    name: '根管治疗器械包',
    category: 1,
    contents: '根管锉、扩大针',
    packMaterial: 3,
  });
  const [dept] = await rows<{ id: string; dept_name: string }>(
    `select id::text, dept_name from blade_dept where tenant_id = $1 and is_deleted = 0 order by id limit 1`,
    [TENANT],
  );
  clinic = (dept as { id: string }).id;
  clinicName = (dept as { dept_name: string }).dept_name;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a recall that acts', () => {
  let failed: string;
  let packs: Record<'shelf' | 'clinic' | 'used' | 'review' | 'returned', { id: string; code: string }>;
  let before: { id: string; code: string };

  beforeAll(async () => {
    const d = await steriliser();
    const old = await loadAt(d.id, at(1));
    before = await packIn(old, PackState.delivered, { deptId: clinic });
    await verification(d.id, BIOLOGICAL, PASS, at(2)); // the last pass
    const first = await loadAt(d.id, at(3));
    const second = await loadAt(d.id, at(5));
    packs = {
      shelf: await packIn(first, PackState.sterile),
      clinic: await packIn(first, PackState.delivered, { deptId: clinic }),
      used: await packIn(second, PackState.inUse, { deptId: clinic, patientCase: 'BL-2026-0815' }),
      review: await packIn(second, PackState.awaitingReview),
      returned: await packIn(second, PackState.awaitingPickup, { deptId: clinic }),
    };
    // Used after the recalled sterilisation and returned since: its history names the use.
    const history = (toState: number, when: Date, extra: { loadId?: string; deptId?: string; patientCase?: string }) =>
      rows(
        `insert into mes_pack_move (id, tenant_id, pack_id, pack_code, from_state, to_state, move_time, user_name,
           load_id, dept_id, patient_case)
         values ($1, $2, $3, $4, null, $5, $6, '测试', $7, $8, $9)`,
        [
          nextId(),
          TENANT,
          packs.returned.id,
          packs.returned.code,
          toState,
          when,
          extra.loadId ?? null,
          extra.deptId ?? null,
          extra.patientCase ?? '',
        ],
      );
    await history(PackState.inUse, at(4), { deptId: clinic, patientCase: 'BL-OLD' });
    await history(PackState.sterilising, at(5), { loadId: second });
    await history(PackState.inUse, at(7), { deptId: clinic, patientCase: 'BL-2026-0900' });
    failed = await verification(d.id, BIOLOGICAL, FAIL, at(8));
  });

  it('lists every pack of the loads since the last pass with where it is now and the patient case of a used one', async () => {
    const recall = await recallOf(failed);
    expect(recall).not.toBeNull();
    const view = recall as RecallView;
    expect(view).toMatchObject({ reason: RecallReason.biological, state: RecallState.open, handled: 0, total: 5 });
    const byCode = new Map(view.packs.map((p) => [p.packCode, p]));
    // The load made before the last pass is not recalled.
    expect(byCode.has(before.code)).toBe(false);
    expect(byCode.get(packs.shelf.code)).toMatchObject({
      state: PackState.sterile,
      action: null,
      articleName: '根管治疗器械包',
    });
    expect(byCode.get(packs.clinic.code)).toMatchObject({ state: PackState.delivered, deptName: clinicName });
    expect(byCode.get(packs.used.code)).toMatchObject({
      state: PackState.inUse,
      deptName: clinicName,
      usedDeptName: clinicName,
      patientCase: 'BL-2026-0815',
    });
    // Back at the clinic awaiting pickup: the use after this load's sterilisation, not the one before.
    expect(byCode.get(packs.returned.code)).toMatchObject({
      state: PackState.awaitingPickup,
      usedDeptName: clinicName,
      patientCase: 'BL-2026-0900',
    });
    expect(byCode.get(packs.shelf.code)).toMatchObject({ usedDeptName: '', patientCase: '' });
    // The warning names the packs.
    const [warning] = await rows<{ message: string }>(`select message from mes_warning where rule_key = $1`, [
      `indicator:${(await get<{ recordNo: string }>(`/api/blade-business/verification/detail?id=${failed}`)).data.recordNo}`,
    ]);
    expect(warning?.message).toContain('5 个器械包');
  });

  it('records each pack’s action with who and when, moves it to recalled, and refuses to close until all are handled', async () => {
    const view = (await recallOf(failed)) as RecallView;
    const idOf = (code: string) => view.packs.find((p) => p.packCode === code)?.id as string;
    const acted = await act([idOf(packs.used.code)], RecallAction.patientNotified, 'zh', admin, '已电话告知');
    expect(acted.success, acted.msg).toBe(true);
    expect(acted.msg).toBe('已处置 1 个器械包');

    const closing = await post(`/api${RECALL_CLOSE_PATH}`, { id: view.id }, 'zh');
    expect(closing.status).toBe(400);
    expect(closing.msg).toBe('还有 4 个器械包未处置,不能关闭召回');
    const closingEn = await post(`/api${RECALL_CLOSE_PATH}`, { id: view.id }, 'en');
    expect(closingEn.msg).toBe('4 packs are not handled yet; the recall cannot be closed');

    const after = (await recallOf(failed)) as RecallView;
    const used = after.packs.find((p) => p.packCode === packs.used.code);
    expect(used).toMatchObject({
      action: RecallAction.patientNotified,
      actionUserName: expect.any(String),
      remark: '已电话告知',
    });
    expect(used?.actionUserName).not.toBe('');
    expect(used?.actionTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // Moved through the move table: its history has the recall's row.
    expect(used?.state).toBe(PackState.recalled);
    const history = (await get<PackMoveRow[]>(`/api/blade-business/pack/history?id=${packs.used.id}`)).data;
    expect(history.at(-1)).toMatchObject({ fromState: PackState.inUse, toState: PackState.recalled });
    expect(after).toMatchObject({ handled: 1, total: 5 });

    const rest = [packs.shelf, packs.clinic, packs.review].map((p) => idOf(p.code));
    expect((await act(rest, RecallAction.retrieved)).success).toBe(true);
    // Awaiting pickup cannot move to recalled: the action is recorded, the pack stays as it is.
    expect((await act([idOf(packs.returned.code)], RecallAction.reprocessed)).success).toBe(true);
    const handled = (await recallOf(failed)) as RecallView;
    expect(handled).toMatchObject({ handled: 5, total: 5 });
    expect(
      handled.packs
        .filter((p) => p.state === PackState.recalled)
        .map((p) => p.packCode)
        .sort(),
    ).toEqual([packs.shelf, packs.clinic, packs.used, packs.review].map((p) => p.code).sort());
    expect(handled.packs.find((p) => p.packCode === packs.returned.code)).toMatchObject({
      state: PackState.awaitingPickup,
      action: RecallAction.reprocessed,
    });

    const closed = await post(`/api${RECALL_CLOSE_PATH}`, { id: view.id }, 'en');
    expect(closed.success, closed.msg).toBe(true);
    const final = (await recallOf(failed)) as RecallView;
    expect(final.state).toBe(RecallState.closed);
    expect(final.closeUserName).not.toBe('');
    // A closed recall takes no more actions and no second close.
    expect((await act([idOf(packs.shelf.code)], RecallAction.destroyed, 'en')).msg).toBe('The recall is closed');
    expect((await post(`/api${RECALL_CLOSE_PATH}`, { id: view.id })).status).toBe(400);
  });

  it('exports the packs as xlsx and prints the notice as a PDF', async () => {
    const view = (await recallOf(failed)) as RecallView;
    const sheet = await t.as(admin, { method: 'GET', url: `/api${RECALL_EXPORT_PATH}?id=${view.id}` });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toContain('spreadsheetml');
    // An xlsx is a zip: its first bytes are PK.
    expect(sheet.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const pdf = await t.as(admin, { method: 'GET', url: `/api${RECALL_NOTICE_PATH}?id=${view.id}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('places each load in time by its cycle’s end, by its creation only while it has no cycle', async () => {
    const d = await steriliser();
    // Assembled before the last pass, sterilised after it: not covered by that pass.
    const lateRun = await loadAt(d.id, at(1));
    await giveCycle(lateRun, d.id, await cycleEnded(d, at(6)));
    // Assembled after the pass, given a cycle that ran before it: covered by the pass.
    const earlyRun = await loadAt(d.id, at(5));
    await giveCycle(earlyRun, d.id, await cycleEnded(d, at(3)));
    // No cycle yet: its creation places it.
    const waiting = await loadAt(d.id, at(7));
    const late = await packIn(lateRun, PackState.sterile);
    const early = await packIn(earlyRun, PackState.sterile);
    const open = await packIn(waiting, PackState.sterilising);
    await verification(d.id, BIOLOGICAL, PASS, at(4));
    const view = (await recallOf(await verification(d.id, BIOLOGICAL, FAIL, at(8)))) as RecallView;
    const codes = view.packs.map((p) => p.packCode);
    expect(codes).toContain(late.code);
    expect(codes).toContain(open.code);
    expect(codes).not.toContain(early.code);
  });

  it('a Bowie-Dick failure recalls too', async () => {
    const d = await steriliser();
    const l = await loadAt(d.id, at(3));
    const p = await packIn(l, PackState.sterile);
    const bd = await verification(d.id, BD, FAIL, at(4));
    const view = (await recallOf(bd)) as RecallView;
    expect(view.reason).toBe(RecallReason.bowieDick);
    expect(view.packs.map((x) => x.packCode)).toEqual([p.code]);
    // A failed BD test with no pack to recall (retested before the day's cycles) makes no recall and no warning.
    const idle = await steriliser();
    const retested = await verification(idle.id, BD, FAIL, at(4));
    expect(await recallOf(retested)).toBeNull();
    expect(await rows(`select 1 from mes_warning where device_code = $1`, [idle.code])).toHaveLength(0);
  });

  it('another tenant neither sees nor acts (404), a user without the recall button is refused (403)', async () => {
    const view = (await recallOf(failed)) as RecallView;
    const other = await signInToNewTenant(t, '772901', ['verification:read', 'verification:recall']);
    const seen = await get(`/api${RECALL_DETAIL_PATH}?id=${failed}`, other);
    expect(seen.status).toBe(404);
    expect((await act([view.packs[0]?.id as string], RecallAction.destroyed, 'zh', other)).status).toBe(404);
    expect((await post(`/api${RECALL_CLOSE_PATH}`, { id: view.id }, 'zh', other)).status).toBe(404);
    const sheet = await t.as(other, { method: 'GET', url: `/api${RECALL_EXPORT_PATH}?id=${view.id}` });
    expect(sheet.statusCode).toBe(404);
    const reader = await signInWithScopes(t, {
      account: `rd${randomBytes(3).toString('hex')}`,
      codes: ['verification:read'],
    });
    expect((await act([view.packs[0]?.id as string], RecallAction.destroyed, 'zh', reader)).status).toBe(403);
  });

  it('answers bad input with a 400 in zh and en', async () => {
    const view = (await recallOf(failed)) as RecallView;
    const id = view.packs[0]?.id as string;
    const noAction = await act([id], 9, 'zh');
    expect(noAction.status).toBe(400);
    expect(noAction.msg).toBe('请选择处置方式');
    expect((await act([id], 9, 'en')).msg).toBe('Please choose what was done with the packs');
    const long = await post(`/api${RECALL_ACTION_PATH}`, { ids: id, action: 1, remark: 'x'.repeat(256) }, 'en');
    expect(long.status).toBe(400);
    expect(long.msg).toBe('The remark must be at most 255 characters');
    const badId = await post(`/api${RECALL_ACTION_PATH}`, { ids: 'abc', action: 1 }, 'zh');
    expect(badId.status).toBe(400);
    expect((await get(`/api${RECALL_DETAIL_PATH}?id=x`)).status).toBe(400);
    expect((await post(`/api${RECALL_CLOSE_PATH}`, {}, 'en')).status).toBe(400);
  });
});

describe('expiry', () => {
  it('moves packs past their validity to expired with one warning at their clinic, and refuses using them', async () => {
    const d = await steriliser();
    const l = await loadAt(d.id, at(1));
    const yesterday = zoneDay(Date.now() - 24 * HOUR);
    const longAgo = addDays(yesterday, -3) as string;
    const stale = await packIn(l, PackState.delivered, { deptId: clinic, expiryDate: longAgo });
    const fresh = await packIn(l, PackState.delivered, {
      deptId: clinic,
      expiryDate: addDays(yesterday, 30) as string,
    });

    // Before the sweep: using it is refused for its expiry, in the caller's language.
    const use = (lang: string) =>
      post(`/api${PACK_MOVE_PATH}`, { ids: stale.id, state: PackState.inUse, patientCase: 'BL-1' }, lang);
    const zh = await use('zh');
    expect(zh.status).toBe(400);
    expect(zh.msg).toBe(`器械包 ${stale.code} 已于 ${longAgo} 过期,不能使用`);
    expect((await use('en')).msg).toBe(`Pack ${stale.code} expired on ${longAgo} and cannot be used`);

    await sweepExpiredPacks(t.ctx);
    await sweepExpiredPacks(t.ctx);
    const states = await rows<{ id: string; state: number }>(
      `select id::text, state from mes_pack where id in ($1, $2)`,
      [stale.id, fresh.id],
    );
    expect(new Map(states.map((s) => [s.id, s.state]))).toEqual(
      new Map([
        [stale.id, PackState.expired],
        [fresh.id, PackState.delivered],
      ]),
    );
    const warnings = await rows<{ dept_id: string; repeat_count: number; warning_type: string; message: string }>(
      `select dept_id::text, repeat_count, warning_type, message, device_code, trigger_value, threshold
         from mes_warning where rule_key = $1`,
      [`pack-expiry:${stale.id}`],
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      dept_id: clinic,
      repeat_count: 1,
      warning_type: 'pack-expiry',
      // A pack is no device: no device code; the pack is the trigger, its expiry day the threshold.
      device_code: '',
      trigger_value: stale.code,
      threshold: longAgo,
    });
    expect(warnings[0]?.message).toContain(`Pack ${stale.code} expired on ${longAgo}`);
    expect(warnings[0]?.message).toContain(stale.code);
    expect(await rows(`select 1 from mes_warning where rule_key = $1`, [`pack-expiry:${fresh.id}`])).toHaveLength(0);

    // After it: the state refuses the move, naming both states.
    const after = await use('en');
    expect(after.status).toBe(400);
    expect(after.msg).toBe(`Pack ${stale.code} is "Expired" and cannot move to "In use"`);
    const history = (await get<PackMoveRow[]>(`/api/blade-business/pack/history?id=${stale.id}`)).data;
    expect(history.at(-1)).toMatchObject({ fromState: PackState.delivered, toState: PackState.expired });
  });
});

describe('a parametric failure', () => {
  const paths = RECALL_PATHS[RecallSource.disinfection];
  const recordOfCycle = async (cycleId: string) => {
    await recordsFromCycles(t.ctx, disinfectionRecordChain(), TENANT);
    const [row] = await rows<{ id: string; record_no: string }>(
      `select id::text, record_no from mes_disinfection_record where cycle_id = $1 and not superseded and is_deleted = 0`,
      [cycleId],
    );
    expect(row).toBeDefined();
    return row as { id: string; record_no: string };
  };
  const viewOf = async (recordId: string, token = admin) =>
    (await get<RecallView | null>(`/api${paths.detail}?id=${recordId}`, token)).data;
  const warningsOf = (recordNo: string) =>
    rows<{ level: number; repeat_count: number; warning_type: string; message: string }>(
      `select level, repeat_count, warning_type, message from mes_warning where rule_key = $1`,
      [`parametric:${recordNo}`],
    );

  let d: { id: string; code: string };
  let record: { id: string; record_no: string };
  let loadId: string;
  let inLoad: { id: string; code: string }[];

  beforeAll(async () => {
    d = await steriliser();
    const failedCycle = await cycleEnded(d, at(10), FAIL);
    // Judged by the records job before any load names the cycle: nothing to recall yet.
    record = await recordOfCycle(failedCycle);
    loadId = await loadAt(d.id, at(9));
    inLoad = [await packIn(loadId, PackState.awaitingReview), await packIn(loadId, PackState.sterilising)];
    // A passing cycle's load recalls nothing.
    const good = await loadAt(d.id, at(9));
    await packIn(good, PackState.awaitingReview);
    await giveCycle(good, d.id, await cycleEnded(d, at(11), PASS));
    expect(await viewOf(record.id)).toBeNull();
    await giveCycle(loadId, d.id, failedCycle);
  });

  it('recalls the packs of the cycle’s load once, keyed by the disinfection record, with one critical warning', async () => {
    const view = (await viewOf(record.id)) as RecallView;
    expect(view).toMatchObject({
      reason: RecallReason.parametric,
      source: RecallSource.disinfection,
      sourceNo: record.record_no,
      state: RecallState.open,
      total: 2,
    });
    expect(view.packs.map((p) => p.packCode).sort()).toEqual(inLoad.map((p) => p.code).sort());
    // The load edited again and the job run again: the same recall, the same warning, not repeated.
    await giveCycle(
      loadId,
      d.id,
      (await rows<{ cycle_id: string }>(`select cycle_id::text from mes_load where id = $1`, [loadId]))[0]
        ?.cycle_id as string,
      '再次保存',
    );
    await recordsFromCycles(t.ctx, disinfectionRecordChain(), TENANT);
    expect(await rows(`select 1 from mes_recall where source_no = $1`, [record.record_no])).toHaveLength(1);
    expect(((await viewOf(record.id)) as RecallView).total).toBe(2);
    const warnings = await warningsOf(record.record_no);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 1, repeat_count: 1, warning_type: 'parametric' });
    expect(warnings[0]?.message).toContain('2 个器械包');
    expect(warnings[0]?.message).toContain('2 packs');
  });

  it('takes in a pack put into the failed load later, and a load named before the record is made', async () => {
    const late = await packIn(loadId, PackState.cleaned);
    await ok(`/api${PACK_MOVE_PATH}`, { ids: late.id, state: PackState.sterilising, loadId });
    const view = (await viewOf(record.id)) as RecallView;
    expect(view.total).toBe(3);
    expect(view.packs.map((p) => p.packCode)).toContain(late.code);
    // The cycle already named by a load when the records job judges it: the job recalls.
    const other = await cycleEnded(d, at(14), FAIL);
    const early = await loadAt(d.id, at(13));
    const p = await packIn(early, PackState.sterilising);
    await giveCycle(early, d.id, other);
    const made = await recordOfCycle(other);
    const byJob = (await viewOf(made.id)) as RecallView;
    expect(byJob.packs.map((x) => x.packCode)).toEqual([p.code]);
    expect(byJob.recallUserName).toBe('系统(参数判定)');
  });

  it('acts, closes, exports and prints from the disinfection record, not from the verification routes', async () => {
    const view = (await viewOf(record.id)) as RecallView;
    // Not a verification record's recall: those routes do not reach it.
    expect((await post(`/api${RECALL_CLOSE_PATH}`, { id: view.id })).status).toBe(404);
    expect((await act([view.packs[0]?.id as string], RecallAction.reprocessed)).status).toBe(404);
    const done = await post(`/api${paths.action}`, {
      ids: view.packs.map((p) => p.id).join(','),
      action: RecallAction.reprocessed,
    });
    expect(done.success, done.msg).toBe(true);
    const after = (await viewOf(record.id)) as RecallView;
    expect(after.handled).toBe(after.total);
    expect(after.packs.every((p) => p.state === PackState.recalled && p.action === RecallAction.reprocessed)).toBe(
      true,
    );
    const sheet = await t.as(admin, { method: 'GET', url: `/api${paths.export}?id=${view.id}` });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const pdf = await t.as(admin, { method: 'GET', url: `/api${paths.notice}?id=${view.id}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const closed = await post(`/api${paths.close}`, { id: view.id }, 'en');
    expect(closed.success, closed.msg).toBe(true);
    expect(((await viewOf(record.id)) as RecallView).state).toBe(RecallState.closed);
  }, 60_000);

  it('reads under the disinfection records’ scope, acts under their recall button; another tenant gets 404', async () => {
    const view = (await viewOf(record.id)) as RecallView;
    const reader = await signInWithScopes(t, {
      account: `dr${randomBytes(3).toString('hex')}`,
      codes: ['disinfection:read'],
    });
    expect(((await viewOf(record.id, reader)) as RecallView).id).toBe(view.id);
    const refused = await post(
      `/api${paths.action}`,
      { ids: view.packs[0]?.id, action: RecallAction.destroyed },
      'zh',
      reader,
    );
    expect(refused.status).toBe(403);
    const verifier = await signInWithScopes(t, {
      account: `vr${randomBytes(3).toString('hex')}`,
      codes: ['verification:read', 'verification:recall'],
    });
    expect((await get(`/api${paths.detail}?id=${record.id}`, verifier)).status).toBe(403);
    const other = await signInToNewTenant(t, '772902', ['disinfection:read', 'disinfection:recall']);
    expect((await get(`/api${paths.detail}?id=${record.id}`, other)).status).toBe(404);
    expect((await post(`/api${paths.close}`, { id: view.id }, 'zh', other)).status).toBe(404);
    expect((await get(`/api${paths.detail}?id=x`)).status).toBe(400);
  });
});
