import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PACK_BY_CODES_PATH,
  PACK_CASE_PATH,
  PACK_LOAD_PATH,
  PACK_MOVE_PATH,
  PACK_STOCK_PATH,
  PACK_TRACE_PATH,
  PackState,
  type PackBrief,
  type PackByCodes,
  type PackLoadPacks,
  type PackTrace,
  type PackUseRow,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { addDays, zoneDay } from '../src/modules/welcome/welcome-days';
import { createTestApp, type TestApp } from './support/test-app';
import { signInToNewTenant } from './support/scoped-user';

/**
 * Issue 29 point 6 (docs/packs.md "Look-ups"): a pack's whole history by its code, the packs used
 * on a patient case, the packs of a load and a clinic's sterile stock by expiry, plus the scan
 * screen's code look-up; each reads only the caller's tenant and refuses bad input with a 400 in
 * the caller's language.
 */

let t: TestApp;
let admin: string;
let other: string;
const TENANT = '000000';

interface Reply<T> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

async function get<T>(url: string, token = admin, lang = 'zh') {
  const reply = await t.as(token, { method: 'GET', url, headers: { 'accept-language': lang } });
  return { status: reply.statusCode, ...reply.json<Reply<T>>() };
}
async function post<T>(url: string, body: Record<string, unknown>) {
  const reply = await t.as(admin, { method: 'POST', url, payload: body });
  const json = reply.json<Reply<T>>();
  expect(json.success, json.msg).toBe(true);
  return json.data;
}

let articleId: string;
let clinic: string;
let device: string;

async function newPacks(n: number): Promise<{ id: string; code: string }[]> {
  const made: { id: string; code: string }[] = [];
  for (let i = 0; i < n; i += 1) {
    const id = await post<string>('/api/blade-business/pack/submit', { articleId });
    const [row] = await rows<{ code: string }>(`select code from mes_pack where id = $1`, [id]);
    made.push({ id, code: (row as { code: string }).code });
  }
  return made;
}

const move = (ids: string[], state: number, extra: Record<string, unknown> = {}) =>
  post<number>(`/api${PACK_MOVE_PATH}`, { ids: ids.join(','), state, ...extra });

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  articleId = await post<string>('/api/blade-business/article/submit', {
    code: `A${randomBytes(3).toString('hex')}`,
    barCode: `B${randomBytes(4).toString('hex')}`,
    name: '口腔检查器械包',
    category: 1,
    contents: '口镜、镊子、探针',
    packMaterial: 3,
  });
  clinic = nextId();
  await rows(
    `insert into blade_dept (id, tenant_id, parent_id, ancestors, dept_name, full_name, dept_category)
     values ($1, $2, 0, '0', '东区诊所', '东区诊所', 5)`,
    [clinic, TENANT],
  );
  const productId = nextId();
  device = nextId();
  const code = `S${randomBytes(4).toString('hex')}`;
  await rows(
    `insert into mes_product (id, tenant_id, product_code, product_name, category) values ($1, $2, $3, $3, 3)`,
    [productId, TENANT, `P${code}`],
  );
  await rows(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id)
     values ($1, $2, $3, $3, $4, $5)`,
    [device, TENANT, code, productId, `c-${code}`],
  );
  other = await signInToNewTenant(t, '772345', ['pack:read', 'pack:move']);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('pack look-ups', () => {
  it('finds scanned codes in the order scanned, with state and place, and names the unknown ones', async () => {
    const [a, b] = (await newPacks(2)) as [{ id: string; code: string }, { id: string; code: string }];
    await move([a.id], PackState.pickedUp, { deptId: clinic });
    const found = await get<PackByCodes>(`/api${PACK_BY_CODES_PATH}?codes=${b.code},NOPE1,${a.code}`);
    expect(found.success, found.msg).toBe(true);
    expect(found.data.packs.map((p) => [p.code, p.state])).toEqual([
      [b.code, PackState.awaitingPickup],
      [a.code, PackState.pickedUp],
    ]);
    expect(found.data.packs[1]?.deptName).toBe('东区诊所');
    expect(found.data.packs[0]?.articleName).toBe('口腔检查器械包');
    expect(found.data.unknown).toEqual(['NOPE1']);
  });

  it("traces a pack's whole history by its code, and says when no pack has the code", async () => {
    const [a] = (await newPacks(1)) as [{ id: string; code: string }];
    await move([a.id], PackState.pickedUp, { deptId: clinic });
    await move([a.id], PackState.cleaning);
    const trace = await get<PackTrace>(`/api${PACK_TRACE_PATH}?code=${a.code}`);
    expect(trace.data.pack.state).toBe(PackState.cleaning);
    expect(trace.data.moves.map((m) => [m.fromState, m.toState])).toEqual([
      [null, PackState.awaitingPickup],
      [PackState.awaitingPickup, PackState.pickedUp],
      [PackState.pickedUp, PackState.cleaning],
    ]);
    expect(trace.data.moves[1]?.deptName).toBe('东区诊所');
    const none = await get(`/api${PACK_TRACE_PATH}?code=NOPE2`, admin, 'en');
    expect(none.status).toBe(404);
    expect(none.msg).toBe('No pack has the code NOPE2');
  });

  it("lists a load's packs from their history, still there after they were reprocessed elsewhere", async () => {
    const packs = await newPacks(3);
    const ids = packs.map((p) => p.id);
    await move(ids, PackState.pickedUp, { deptId: clinic });
    await move(ids, PackState.cleaning);
    await move(ids, PackState.cleaned);
    const loadId = await post<string>('/api/blade-business/load/submit', { deviceId: device });
    await move(ids.slice(0, 2), PackState.sterilising, { loadId });
    const byId = await get<PackLoadPacks>(`/api${PACK_LOAD_PATH}?loadId=${loadId}`);
    expect(byId.data.packs.map((p) => p.code).sort()).toEqual(
      packs
        .slice(0, 2)
        .map((p) => p.code)
        .sort(),
    );
    expect(byId.data.packs.every((p) => p.state === PackState.sterilising)).toBe(true);
    // Recalled and back in cleaning: the pack left the load but the load still names it.
    await move([ids[0] as string], PackState.awaitingReview);
    await move([ids[0] as string], PackState.recalled);
    await move([ids[0] as string], PackState.cleaning);
    const byNo = await get<PackLoadPacks>(`/api${PACK_LOAD_PATH}?loadNo=${byId.data.load.loadNo}`);
    expect(byNo.data.load.id).toBe(loadId);
    const first = byNo.data.packs.find((p) => p.id === ids[0]);
    expect(first?.state).toBe(PackState.cleaning);
    expect(byNo.data.packs).toHaveLength(2);
  });

  it('lists the packs used on a patient case, newest first, with chair and clinician', async () => {
    const [a, b] = (await newPacks(2)) as [{ id: string; code: string }, { id: string; code: string }];
    const future = addDays(zoneDay(Date.now()), 30);
    await rows(`update mes_pack set state = $1, expiry_date = $2 where id = any($3::bigint[])`, [
      PackState.delivered,
      future,
      [a.id, b.id],
    ]);
    const patientCase = `MR${randomBytes(3).toString('hex')}`;
    await move([a.id], PackState.inUse, { patientCase, chairNo: '3', clinician: '李医生', deptId: clinic });
    await move([b.id], PackState.inUse, { patientCase: 'OTHER-CASE' });
    const uses = await get<PackUseRow[]>(`/api${PACK_CASE_PATH}?patientCase=${patientCase}`);
    expect(uses.data.map((u) => [u.pack.code, u.chairNo, u.clinician, u.useDeptName])).toEqual([
      [a.code, '3', '李医生', '东区诊所'],
    ]);
    // Back in the loop, the use still leads to the case.
    await move([a.id], PackState.awaitingPickup);
    const later = await get<PackUseRow[]>(`/api${PACK_CASE_PATH}?patientCase=${patientCase}`);
    expect(later.data.map((u) => [u.pack.code, u.pack.state])).toEqual([[a.code, PackState.awaitingPickup]]);
  });

  it("lists a clinic's sterile stock soonest expiry first, with the ones past their day marked", async () => {
    const packs = await newPacks(4);
    const today = zoneDay(Date.now());
    const expiries = [addDays(today, 20), addDays(today, -1), addDays(today, 5), addDays(today, 9)];
    for (const [i, p] of packs.entries())
      await rows(`update mes_pack set state = $1, expiry_date = $2 where id = $3`, [
        PackState.sterile,
        expiries[i],
        p.id,
      ]);
    // Three delivered to the clinic; the fourth stays at the base and is not the clinic's stock.
    await move(
      packs.slice(0, 3).map((p) => p.id),
      PackState.delivered,
      { deptId: clinic },
    );
    const stock = await get<PackBrief[]>(`/api${PACK_STOCK_PATH}?deptId=${clinic}`);
    const mine = stock.data.filter((p) => packs.some((q) => q.id === p.id));
    expect(mine.map((p) => [p.code, p.expiryDate, p.pastExpiry])).toEqual([
      [packs[1]?.code, expiries[1], true],
      [packs[2]?.code, expiries[2], false],
      [packs[0]?.code, expiries[0], false],
    ]);
    const dates = stock.data.map((p) => p.expiryDate).filter(Boolean);
    expect(dates).toEqual([...dates].sort());
  });
});

describe('tenancy and bad input', () => {
  it('another tenant finds none of these packs, loads, cases or stock', async () => {
    const [a] = (await newPacks(1)) as [{ id: string; code: string }];
    const future = addDays(zoneDay(Date.now()), 30);
    await rows(`update mes_pack set state = $1, expiry_date = $2 where id = $3`, [PackState.delivered, future, a.id]);
    const patientCase = `MR${randomBytes(3).toString('hex')}`;
    await move([a.id], PackState.inUse, { patientCase, deptId: clinic });
    const [used] = await rows<{ load_no: string; id: string }>(
      `select id::text, load_no from mes_load where tenant_id = $1 and is_deleted = 0 limit 1`,
      [TENANT],
    );
    const load = used as { id: string; load_no: string };
    expect((await get<PackLoadPacks>(`/api${PACK_LOAD_PATH}?loadId=${load.id}`)).success).toBe(true);

    const codes = await get<PackByCodes>(`/api${PACK_BY_CODES_PATH}?codes=${a.code}`, other);
    expect(codes.data).toEqual({ packs: [], unknown: [a.code] });
    expect((await get(`/api${PACK_TRACE_PATH}?code=${a.code}`, other)).status).toBe(404);
    expect((await get<PackUseRow[]>(`/api${PACK_CASE_PATH}?patientCase=${patientCase}`, other)).data).toEqual([]);
    expect((await get(`/api${PACK_LOAD_PATH}?loadId=${load.id}`, other)).status).toBe(404);
    expect((await get(`/api${PACK_LOAD_PATH}?loadNo=${load.load_no}`, other)).status).toBe(404);
    expect((await get<PackBrief[]>(`/api${PACK_STOCK_PATH}?deptId=${clinic}`, other)).data).toEqual([]);
    // The same look-ups as this tenant do find them (the test above is not vacuous).
    expect((await get<PackByCodes>(`/api${PACK_BY_CODES_PATH}?codes=${a.code}`)).data.packs).toHaveLength(1);
    expect((await get<PackUseRow[]>(`/api${PACK_CASE_PATH}?patientCase=${patientCase}`)).data).toHaveLength(1);
  });

  it.each([
    [PACK_BY_CODES_PATH, '', '请输入 1 到', 'Enter 1 to'],
    [PACK_BY_CODES_PATH, '?codes=%E5%8C%85', '请输入 1 到', 'Enter 1 to'],
    [PACK_BY_CODES_PATH, '?codes=A&codes=B', '请输入 1 到', 'Enter 1 to'],
    [PACK_TRACE_PATH, '', '请输入包编号', 'Enter a pack code'],
    [PACK_TRACE_PATH, `?code=${'X'.repeat(33)}`, '请输入包编号', 'Enter a pack code'],
    [PACK_TRACE_PATH, "?code=a'b", '请输入包编号', 'Enter a pack code'],
    [PACK_CASE_PATH, '', '请输入病历号', 'Enter a patient case'],
    [PACK_CASE_PATH, `?patientCase=${'9'.repeat(65)}`, '请输入病历号', 'Enter a patient case'],
    [PACK_LOAD_PATH, '', '请选择灭菌批次', 'Choose a load'],
    [PACK_LOAD_PATH, '?loadId=abc', '请选择灭菌批次', 'Choose a load'],
    [PACK_LOAD_PATH, '?loadNo=%20', '请选择灭菌批次', 'Choose a load'],
    [PACK_STOCK_PATH, '', '请选择机构', 'Choose a department'],
    [PACK_STOCK_PATH, '?deptId=-1', '请选择机构', 'Choose a department'],
  ])('%s%s is a 400 in Chinese and English', async (path, query, zh, en) => {
    const inZh = await get(`/api${path}${query}`, admin, 'zh');
    expect(inZh.status).toBe(400);
    expect(inZh.msg).toContain(zh);
    const inEn = await get(`/api${path}${query}`, admin, 'en');
    expect(inEn.status).toBe(400);
    expect(inEn.msg).toContain(en);
  });
});
