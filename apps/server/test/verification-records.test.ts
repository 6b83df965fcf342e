import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatDateTime,
  VERIFICATION_HANDLE_RECALL_PATH,
  VERIFICATION_RECALLS_PATH,
  VERIFICATION_RELEASE_PATH,
  type DeviceRelease,
  type RecalledLoad,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { dayStart, zoneDay } from '../src/modules/welcome/welcome-days';
import { createTestApp, type TestApp } from './support/test-app';
import { signInToNewTenant } from './support/scoped-user';

/**
 * Verification records (docs/records.md "Verification records, recall and release"): a failed
 * biological indicator recalls exactly the device's loads since its last passing one and raises
 * one critical warning; the chain and retention of the record engine; the daily BD release of
 * steam sterilisers and the requalification after a repair; another tenant sees none of it.
 */

let t: TestApp;
let admin: string;
const TENANT = '000000';
const API = '/api/blade-business/verification';
const DISINFECTION = '/api/blade-business/disinfection';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BD = 1;
const BIOLOGICAL = 4;
const REQUALIFICATION = 9;
const PASS = 1;
const FAIL = 2;

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

/** A device of a product of this category (1 waterline, 2 steam steriliser). */
async function device(category: number): Promise<{ id: string; code: string }> {
  const productId = nextId();
  const id = nextId();
  const code = `V${randomBytes(4).toString('hex')}`;
  await rows(
    `insert into mes_product (id, tenant_id, product_code, product_name, category) values ($1, $2, $3, $3, $4)`,
    [productId, TENANT, `P${code}`, category],
  );
  await rows(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id)
     values ($1, $2, $3, $3, $4, $5)`,
    [id, TENANT, code, productId, `c-${code}`],
  );
  return { id, code };
}

const stamp = (ms: number) => formatDateTime(new Date(ms));

interface Reply<T = string> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

async function post<T = string>(token: string, url: string, body: Record<string, unknown>) {
  return (await t.as(token, { method: 'POST', url, payload: body })).json<Reply<T>>();
}
const get = async <T>(token: string, url: string) => (await t.as(token, { method: 'GET', url })).json<Reply<T>>();

/** A disinfection record of the device ending at `endMs`. */
async function load(deviceId: string, endMs: number, batchNo: string) {
  const made = await post(admin, `${DISINFECTION}/submit`, {
    deviceId,
    startTime: stamp(endMs - 30 * 60_000),
    endTime: stamp(endMs),
    result: 1,
    batchNo,
    load: `器械包 ${batchNo}`,
  });
  expect(made.success, made.msg).toBe(true);
  return made.data;
}

async function verification(deviceId: string, type: number, result: number, atMs: number, extra = {}) {
  const made = await post(admin, `${API}/submit`, {
    deviceId,
    verificationType: type,
    testTime: stamp(atMs),
    result,
    indicatorBrand: '3M Attest',
    indicatorLot: 'L-2026',
    incubationTemperature: '56.0',
    incubationHours: '24',
    ...extra,
  });
  expect(made.success, made.msg).toBe(true);
  return made.data;
}

const recalled = async (token: string, id: string) =>
  (await get<RecalledLoad[]>(token, `/api${VERIFICATION_RECALLS_PATH}?id=${id}`)).data;

const indicatorWarnings = (code: string) =>
  rows<{ level: number; warning_type: string; message: string; repeat_count: number; trigger_value: string }>(
    `select level, warning_type, message, repeat_count, trigger_value from mes_warning where device_code = $1`,
    [code],
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('recall after a failed biological indicator', () => {
  it('flags exactly the current loads since the last pass, lists them, marks them and raises one critical warning', async () => {
    const now = Date.now();
    const d = await device(2);
    const other = await device(2);
    const before = await load(d.id, now - 10 * DAY, 'B-10');
    await verification(d.id, BIOLOGICAL, PASS, now - 9 * DAY);
    const between = await load(d.id, now - 8 * DAY, 'B-08');
    await verification(d.id, BIOLOGICAL, PASS, now - 7 * DAY); // the last pass
    const first = await load(d.id, now - 6 * DAY, 'B-06');
    const corrected = await load(d.id, now - 4 * DAY, 'B-04');
    const second = await load(d.id, now - 2 * DAY, 'B-02');
    const otherDevice = await load(other.id, now - 3 * DAY, 'O-03');
    // A correction: its superseded version is not flagged, the current one is.
    const current = await post(admin, `${DISINFECTION}/correct`, {
      id: corrected,
      startTime: stamp(now - 4 * DAY - 30 * 60_000),
      endTime: stamp(now - 4 * DAY),
      result: 1,
      batchNo: 'B-04b',
      load: '器械包 B-04b',
    });
    expect(current.success, current.msg).toBe(true);
    // A check of another kind in between changes nothing.
    await verification(d.id, BD, PASS, now - 5 * DAY);

    const failed = await verification(d.id, BIOLOGICAL, FAIL, now - DAY);
    const after = await load(d.id, now - DAY + HOUR, 'B-00');

    const recalls = await rows<{ disinfection_id: string }>(
      `select disinfection_id::text from mes_record_recall where verification_id = $1 order by disinfection_id`,
      [failed],
    );
    expect(recalls.map((r) => r.disinfection_id).sort()).toEqual([first, current.data, second].sort());
    const detail = await get<Record<string, unknown>>(admin, `${API}/detail?id=${failed}`);
    expect(detail.data).toMatchObject({ recallTriggered: true, result: FAIL, verificationType: BIOLOGICAL });

    const loads = await recalled(admin, failed);
    expect(loads.map((l) => [l.batchNo, l.load])).toEqual([
      ['B-06', '器械包 B-06'],
      ['B-04b', '器械包 B-04b'],
      ['B-02', '器械包 B-02'],
    ]);
    expect(loads[0]).toMatchObject({ endTime: stamp(now - 6 * DAY), handled: false, recordNo: expect.any(String) });

    // The disinfection list marks the recalled records (both versions share the number), and no other.
    const page = await get<{ records: { id: string; recalled: boolean }[] }>(
      admin,
      `${DISINFECTION}/page?size=100&deviceCode=${d.code}`,
    );
    const marked = Object.fromEntries(page.data.records.map((r) => [r.id, r.recalled]));
    expect(marked).toMatchObject({
      [before]: false,
      [between]: false,
      [first]: true,
      [corrected]: true,
      [current.data]: true,
      [second]: true,
      [after]: false,
    });
    const others = await get<{ records: { id: string; recalled: boolean }[] }>(
      admin,
      `${DISINFECTION}/page?size=100&deviceCode=${other.code}`,
    );
    expect(others.data.records.find((r) => r.id === otherDevice)?.recalled).toBe(false);

    const warnings = await indicatorWarnings(d.code);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 1, warning_type: 'indicator', repeat_count: 1, trigger_value: '3' });
    expect(warnings[0]?.message).toContain('召回自上次合格以来的 3 个批次');
    expect(await indicatorWarnings(other.code)).toEqual([]);

    // A correction that keeps the fail recalls nothing twice and raises no second warning.
    const again = await post(admin, `${API}/correct`, {
      id: failed,
      verificationType: BIOLOGICAL,
      testTime: stamp(now - DAY),
      result: FAIL,
      remark: '复核',
    });
    expect(again.success, again.msg).toBe(true);
    const [count] = await rows<{ n: string }>(
      `select count(*) n from mes_record_recall where device_code = $1 and is_deleted = 0`,
      [d.code],
    );
    expect(Number(count?.n)).toBe(3);
    expect(await recalled(admin, again.data)).toHaveLength(3);
    expect(await indicatorWarnings(d.code)).toHaveLength(1);

    // A later pass undoes nothing.
    await verification(d.id, BIOLOGICAL, PASS, now - HOUR);
    expect(await recalled(admin, failed)).toHaveLength(3);
  });

  it('recalls when a correction turns a pass into a fail, from the start when there was no earlier pass', async () => {
    const now = Date.now();
    const d = await device(2);
    const old = await load(d.id, now - 30 * DAY, 'C-30');
    const recent = await load(d.id, now - 2 * DAY, 'C-02');
    const passed = await verification(d.id, BIOLOGICAL, PASS, now - DAY);
    expect(await recalled(admin, passed)).toEqual([]);
    expect(await indicatorWarnings(d.code)).toEqual([]);
    const failed = await post(admin, `${API}/correct`, {
      id: passed,
      verificationType: BIOLOGICAL,
      testTime: stamp(now - DAY),
      result: FAIL,
    });
    expect(failed.success, failed.msg).toBe(true);
    expect((await recalled(admin, failed.data)).map((l) => l.disinfectionId)).toEqual([old, recent]);
    expect(await indicatorWarnings(d.code)).toHaveLength(1);
  });

  it('handles recalls once, with a result', async () => {
    const now = Date.now();
    const d = await device(2);
    await load(d.id, now - 2 * DAY, 'H-02');
    const failed = await verification(d.id, BIOLOGICAL, FAIL, now - DAY);
    const [recall] = await recalled(admin, failed);
    const url = `/api${VERIFICATION_HANDLE_RECALL_PATH}`;
    expect(await post(admin, url, { ids: recall?.id })).toMatchObject({ code: 400, msg: '请输入处理结果' });
    expect((await post(admin, url, { ids: recall?.id, result: '已追回并重新灭菌' })).success).toBe(true);
    expect((await recalled(admin, failed))[0]).toMatchObject({ handled: true, handleResult: '已追回并重新灭菌' });
    expect(await post(admin, url, { ids: recall?.id, result: '再次' })).toMatchObject({
      code: 400,
      msg: '所选召回已处理',
    });
    const page = await get<{ records: { recalled: boolean; recallHandled: boolean }[] }>(
      admin,
      `${DISINFECTION}/page?deviceCode=${d.code}`,
    );
    expect(page.data.records[0]).toMatchObject({ recalled: true, recallHandled: true });
  });
});

describe('the record engine on verification records', () => {
  it('finds an edit made with plain SQL, and refuses removal before the retention', async () => {
    const d = await device(2);
    const ids: string[] = [];
    for (let i = 3; i >= 1; i -= 1) ids.push(await verification(d.id, BD, PASS, Date.now() - i * DAY));
    const clean = await get<{ broken: unknown; checked: number }>(admin, `${API}/verify?deviceCode=${d.code}`);
    expect(clean.data).toMatchObject({ checked: 3, broken: null });
    await rows(`update mes_verification_record set result = 2 where id = $1`, [ids[1]]);
    const report = await get<{ broken: { id: string; chainSeq: number } | null }>(admin, `${API}/verify`);
    expect(report.data.broken).toMatchObject({ id: ids[1], chainSeq: 2 });
    expect(report.msg).toContain(ids[1]);
    await rows(`delete from mes_verification_record where device_code = $1`, [d.code]);

    const kept = await verification(d.id, BD, PASS, Date.now() - DAY);
    const refused = await t.as(admin, { method: 'POST', url: `${API}/remove?ids=${kept}` });
    expect(refused.json()).toMatchObject({ code: 400, msg: expect.stringContaining('灭菌记录须保存 1096 天') });
    expect(await rows(`select 1 from mes_verification_record where id = $1 and is_deleted = 0`, [kept])).toHaveLength(
      1,
    );
  });

  it('refuses a disinfection record of another device as the test’s cycle', async () => {
    const d = await device(2);
    const other = await device(2);
    const foreign = await load(other.id, Date.now() - DAY, 'X-01');
    const refused = await post(admin, `${API}/submit`, {
      deviceId: d.id,
      verificationType: BD,
      testTime: stamp(Date.now()),
      result: PASS,
      disinfectionRecordId: foreign,
    });
    expect(refused.code).toBe(400);
  });
});

describe('release of steam sterilisers (daily BD test)', () => {
  it('releases a steriliser today only on a passing BD test of today, and holds it during requalification', async () => {
    const now = Date.now();
    const todayStart = dayStart(zoneDay(now)).getTime();
    const today = Math.max(now - 60_000, todayStart);
    const passed = await device(2);
    const failed = await device(2);
    const none = await device(2);
    const yesterday = await device(2);
    const waterline = await device(1);
    const repaired = await device(2);
    await verification(passed.id, BD, PASS, today);
    await verification(failed.id, BD, PASS, today - 1_000);
    await verification(failed.id, BD, FAIL, today);
    await verification(yesterday.id, BD, PASS, todayStart - HOUR);
    await verification(waterline.id, BD, PASS, today);
    await verification(repaired.id, BD, PASS, today);
    await verification(repaired.id, REQUALIFICATION, PASS, now - 3 * HOUR);
    await verification(repaired.id, REQUALIFICATION, PASS, now - 2 * HOUR);

    const release = async () => {
      const reply = await get<DeviceRelease[]>(admin, `/api${VERIFICATION_RELEASE_PATH}`);
      return Object.fromEntries(reply.data.map((r) => [r.deviceCode, r]));
    };
    const states = await release();
    expect(states[passed.code]).toMatchObject({ released: true, block: null, bdTime: stamp(today) });
    expect(states[failed.code]).toMatchObject({ released: false, block: 'bdFailed' });
    expect(states[none.code]).toMatchObject({ released: false, block: 'noBd', bdTime: null });
    expect(states[yesterday.code]).toMatchObject({ released: false, block: 'noBd' });
    expect(states[waterline.code]).toBeUndefined();
    expect(states[repaired.code]).toMatchObject({ released: false, block: 'requalifying', requalificationPasses: 2 });

    // The third passing run in a row closes the requalification.
    await verification(repaired.id, REQUALIFICATION, PASS, now - HOUR);
    expect((await release())[repaired.code]).toMatchObject({ released: true, requalificationPasses: null });
    // A failed run opens it again.
    await verification(repaired.id, REQUALIFICATION, FAIL, now - 30 * 60_000);
    expect((await release())[repaired.code]).toMatchObject({ block: 'requalifying', requalificationPasses: 0 });
  });
});

describe('tenant isolation', () => {
  it('shows another tenant none of the records, recalls or releases', async () => {
    const d = await device(2);
    await load(d.id, Date.now() - 2 * DAY, 'T-02');
    const failed = await verification(d.id, BIOLOGICAL, FAIL, Date.now() - DAY);
    const other = await signInToNewTenant(t, '300777', [
      'verification:read',
      'verification:recall',
      'verification:verify',
      'device_info:read',
    ]);
    const recalls = await t.as(other, { method: 'GET', url: `/api${VERIFICATION_RECALLS_PATH}?id=${failed}` });
    expect(recalls.json().success).toBe(false);
    const [recall] = await recalled(admin, failed);
    const handle = await post(other, `/api${VERIFICATION_HANDLE_RECALL_PATH}`, { ids: recall?.id, result: 'x' });
    expect(handle.success).toBe(false);
    expect((await recalled(admin, failed))[0]?.handled).toBe(false);
    const page = await get<{ total: number }>(other, `${API}/page`);
    expect(page.data.total).toBe(0);
    const release = await get<DeviceRelease[]>(other, `/api${VERIFICATION_RELEASE_PATH}`);
    expect(release.data).toEqual([]);
  });
});
