import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disinfectionRecordResource, RecordType } from '@mes/contracts';
import { createDeviceDirectory } from '../src/modules/device';
import { nextId } from '../src/platform/db/ids';
import { disinfectionRecord } from '../src/platform/db/schema';
import { Ingestion } from '../src/modules/telemetry/ingestion';
import { removeExpiredRecords } from '../src/engine/records/record-retention-job';
import { createTestApp, type TestApp } from './support/test-app';
import { signInToNewTenant, signInWithScopes } from './support/scoped-user';
import { waitFor } from './support/mqtt-kit';
import { sendBatch } from './support/ingestion-batch';

/**
 * Disinfection records end to end (docs/records.md): manual entry, the hash chain and its
 * verification against an edit made in plain SQL, review by a second person, corrections as new
 * versions, retention (refused removal, the minimums of the parameters, the retention job), a
 * finished cycle through the real ingestion becoming a record, and tenant isolation.
 */

let t: TestApp;
let admin: string;
let reviewer: string;
const TENANT = '000000';
const API = '/api/blade-business/disinfection';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

/** A device of a product of this category (1 waterline, 2 steam steriliser, 4 washer). */
async function device(category: number): Promise<{ id: string; code: string }> {
  const productId = nextId();
  const id = nextId();
  const code = `D${randomBytes(4).toString('hex')}`;
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

const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

function entry(deviceId: string, endMs = Date.now() - HOUR) {
  return {
    deviceId,
    startTime: stamp(endMs - 30 * 60_000),
    endTime: stamp(endMs),
    result: 1,
    programName: '134℃ 标准',
    maxTemperature: '134.50',
    batchNo: 'B-01',
  };
}

async function submit(token: string, body: Record<string, unknown>, path = 'submit') {
  const res = await t.as(token, { method: 'POST', url: `${API}/${path}`, payload: body });
  return res.json<{ code: number; success: boolean; data: string; msg: string }>();
}

const get = async <T>(token: string, url: string) =>
  (await t.as(token, { method: 'GET', url })).json<{ code: number; success: boolean; data: T; msg: string }>();

const review = async (token: string, ids: string) =>
  (await t.as(token, { method: 'POST', url: `${API}/review`, payload: { ids } })).json<{
    code: number;
    success: boolean;
    msg: string;
  }>();

interface Report {
  checked: number;
  chains: number;
  broken: { id: string; partition: string; chainSeq: number; reason: string } | null;
}

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
  admin = (await t.signIn()).access_token;
  reviewer = await signInWithScopes(t, {
    account: 'checker',
    codes: ['disinfection:read', 'disinfection:review', 'disinfection:verify'],
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('manual entry and the chain', () => {
  it('takes the record type from the product, numbers the chain per device and links each row to the previous', async () => {
    const d = await device(2);
    const first = await submit(admin, entry(d.id));
    expect(first.success).toBe(true);
    const second = await submit(admin, entry(d.id));
    const chain = await rows<{
      id: string;
      record_type: number;
      chain_seq: number;
      prev_hash: string;
      row_hash: string;
    }>(
      `select id::text, record_type, chain_seq, prev_hash, row_hash from mes_disinfection_record
        where device_code = $1 order by chain_seq`,
      [d.code],
    );
    expect(chain.map((r) => [r.id, r.chain_seq, r.record_type])).toEqual([
      [first.data, 1, RecordType.sterilisation],
      [second.data, 2, RecordType.sterilisation],
    ]);
    expect(chain[0]?.prev_hash).toBe('0'.repeat(64));
    expect(chain[1]?.prev_hash).toBe(chain[0]?.row_hash);
    expect(chain[1]?.row_hash).toMatch(/^[0-9a-f]{64}$/);
    const detail = await get<Record<string, unknown>>(admin, `${API}/detail?id=${first.data}`);
    expect(detail.data).toMatchObject({ deviceCode: d.code, operatorName: expect.any(String), recordVersion: 1 });
  });

  it('never forks a chain: concurrent entries of one device take consecutive positions', async () => {
    const d = await device(4);
    const results = await Promise.all(Array.from({ length: 8 }, () => submit(admin, entry(d.id))));
    expect(results.every((r) => r.success)).toBe(true);
    const seqs = await rows<{ chain_seq: number }>(
      `select chain_seq from mes_disinfection_record where device_code = $1 order by chain_seq`,
      [d.code],
    );
    expect(seqs.map((r) => r.chain_seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const report = await get<Report>(admin, `${API}/verify?deviceCode=${d.code}`);
    expect(report.data).toMatchObject({ checked: 8, chains: 1, broken: null });
  });

  it('finds an edit made with plain SQL behind the application’s back, and names the first broken row', async () => {
    const d = await device(1);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await submit(admin, entry(d.id))).data);
    expect((await get<Report>(admin, `${API}/verify`)).data.broken).toBeNull();
    await rows(`update mes_disinfection_record set max_temperature = 121.00 where id = $1`, [ids[1]]);
    const report = await get<Report>(admin, `${API}/verify`);
    expect(report.data.broken).toMatchObject({ id: ids[1], partition: d.code, chainSeq: 2 });
    expect(report.data.broken?.reason).toContain('记录被改动');
    expect(report.msg).toContain(ids[1]);
    // Re-hashing the edited row does not hide it: the next row still names the old hash.
    await rows(`update mes_disinfection_record set row_hash = repeat('a', 64) where id = $1`, [ids[1]]);
    const relinked = await get<Report>(admin, `${API}/verify?deviceCode=${d.code}`);
    expect(relinked.data.broken?.id).toBe(ids[1]);
    await rows(`delete from mes_disinfection_record where device_code = $1`, [d.code]);
  });
});

describe('records outlive what they name', () => {
  it('keeps a record as written when its device and department are removed, and its chain holds', async () => {
    const d = await device(1);
    const deptId = nextId();
    await rows(
      `insert into blade_dept (id, tenant_id, parent_id, ancestors, dept_name, full_name, dept_category)
       values ($1, $2, 0, '0', $3, $3, 5)`,
      [deptId, TENANT, `诊所${d.code}`],
    );
    await rows(`update mes_device set dept_id = $1 where id = $2`, [deptId, d.id]);
    const id = (await submit(admin, entry(d.id))).data;
    const removeDevice = await t.as(admin, { method: 'POST', url: `/api/basic/device/remove?ids=${d.id}` });
    expect(removeDevice.json()).toMatchObject({ success: true });
    const removeDept = await t.as(admin, { method: 'POST', url: `/api/blade-system/dept/remove?ids=${deptId}` });
    expect(removeDept.json()).toMatchObject({ success: true });
    const [kept] = await rows<{ device_id: string; dept_id: string }>(
      `select device_id, dept_id from mes_disinfection_record where id = $1`,
      [id],
    );
    expect(kept).toEqual({ device_id: d.id, dept_id: deptId });
    expect((await get<Report>(admin, `${API}/verify?deviceCode=${d.code}`)).data.broken).toBeNull();
  });
});

describe('review and correction', () => {
  it('refuses review by the operator, reviews once, and keeps every record read-only', async () => {
    const d = await device(2);
    const id = (await submit(admin, entry(d.id))).data;
    const own = await review(admin, id);
    expect(own).toMatchObject({ code: 400, msg: '审核人不能是记录的操作人' });
    expect((await review(reviewer, id)).success).toBe(true);
    expect(await review(reviewer, id)).toMatchObject({ code: 400, msg: '记录已审核,不能再次审核' });
    const detail = await get<Record<string, unknown>>(admin, `${API}/detail?id=${id}`);
    expect(detail.data).toMatchObject({ reviewStatus: 1, reviewerName: 'checker' });
    const edit = await submit(admin, { ...entry(d.id), id, batchNo: 'B-99' });
    expect(edit).toMatchObject({ code: 400, msg: expect.stringContaining('记录不能修改') });
    // A submit cannot pose as a correction: it is a new record, and the reviewed one is untouched.
    const posing = await submit(admin, { ...entry(d.id), corrects: id });
    expect(posing.data).not.toBe(id);
    const [kept] = await rows<{ superseded: boolean }>(`select superseded from mes_disinfection_record where id = $1`, [
      id,
    ]);
    expect(kept?.superseded).toBe(false);
    // The reviewer holds no correct scope.
    const denied = await t.as(reviewer, { method: 'POST', url: `${API}/correct`, payload: { ...entry(d.id), id } });
    expect(denied.statusCode).toBe(403);
  });

  it('corrects by a new version that keeps the old one visible', async () => {
    const d = await device(2);
    const id = (await submit(admin, entry(d.id))).data;
    expect((await review(reviewer, id)).success).toBe(true);
    const { deviceId: _device, ...edited } = entry(d.id);
    const corrected = await submit(admin, { ...edited, id, batchNo: 'B-02' }, 'correct');
    expect(corrected.success).toBe(true);
    expect(corrected.data).not.toBe(id);
    const versions = await get<Record<string, unknown>[]>(admin, `${API}/versions?id=${corrected.data}`);
    expect(versions.data.map((v) => [v.id, v.recordVersion, v.superseded, v.batchNo, v.reviewStatus])).toEqual([
      [id, 1, true, 'B-01', 1],
      [corrected.data, 2, false, 'B-02', 0],
    ]);
    expect(versions.data[0]?.recordNo).toBe(versions.data[1]?.recordNo);
    // The old version stays, unchanged, and cannot be corrected or reviewed again.
    expect((await submit(admin, { ...entry(d.id), id }, 'correct')).msg).toContain('已被更正');
    expect((await review(reviewer, id)).msg).toContain('已被更正');
    expect((await review(reviewer, corrected.data)).success).toBe(true);
    const report = await get<Report>(admin, `${API}/verify?deviceCode=${d.code}`);
    expect(report.data).toMatchObject({ checked: 2, broken: null });
  });

  it('answers bad input with a 400 in Chinese', async () => {
    const d = await device(2);
    const missing = await submit(admin, { deviceId: d.id, result: 1 });
    expect(missing.code).toBe(400);
    expect(missing.msg).toMatch(/请/);
    expect((await review(reviewer, 'abc')).code).toBe(400);
    const unknownDevice = await submit(admin, entry('123456789012345678'));
    expect(unknownDevice).toMatchObject({ code: 400, msg: '所选设备不存在' });
  });
});

describe('retention', () => {
  it('refuses removal before the retention, naming the rule, and after it leaves removal to the job', async () => {
    const d = await device(2);
    const recent = (await submit(admin, entry(d.id))).data;
    const refused = await t.as(admin, { method: 'POST', url: `${API}/remove?ids=${recent}` });
    expect(refused.json()).toMatchObject({ code: 400 });
    expect(refused.json().msg).toContain('灭菌记录须保存 1096 天');
    expect(refused.json().msg).toContain('WS 310.3');
    expect(refused.json().msg).toContain('records.retention.sterilisation.days');

    const old = (await submit(admin, entry(d.id, Date.now() - 1100 * DAY))).data;
    const late = await t.as(admin, { method: 'POST', url: `${API}/remove?ids=${old}` });
    expect(late.json().msg).toContain('只由保存期任务删除');

    const removed = await removeExpiredRecords(t.ctx, [{ def: disinfectionRecordResource, table: disinfectionRecord }]);
    expect(removed.flatMap((r) => r.ids)).toEqual([old]);
    expect(await rows(`select 1 from mes_disinfection_record where id = $1`, [recent])).toHaveLength(1);
    await t.ctx.logs.flush();
    const logged = await rows<{ log_data: string }>(
      `select log_data from blade_log_usual where log_id = 'records.retention'`,
    );
    expect(logged.some((l) => l.log_data.includes(old))).toBe(true);
    // The chain left behind starts at the oldest row kept.
    expect((await get<Report>(admin, `${API}/verify?deviceCode=${d.code}`)).data.broken).toBeNull();
  });

  it('refuses a retention parameter below the standard’s minimum', async () => {
    const [row] = await rows<{ id: string }>(
      `select id::text from blade_param where param_key = 'records.retention.waterline.days'`,
    );
    const body = { id: row?.id, paramName: '水路消毒记录保存天数', paramKey: 'records.retention.waterline.days' };
    const low = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-system/param/submit',
      payload: { ...body, paramValue: '200' },
    });
    expect(low.json()).toMatchObject({ code: 400, msg: expect.stringContaining('不能少于 366 天') });
    const longer = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-system/param/submit',
      payload: { ...body, paramValue: '400' },
    });
    expect(longer.json().success).toBe(true);
  });
});

describe('records from cycles', () => {
  it('turns a finished cycle stored by ingestion into a record of the device’s chain', async () => {
    const d = await device(1);
    const ingestion = new Ingestion({
      pool: t.database.pool,
      directory: createDeviceDirectory(t.ctx),
      warn: () => undefined,
      now: () => Date.now(),
      batchDelayMs: 5,
      changes: t.ctx.changes,
    });
    const start = Date.now() - 2 * HOUR;
    const payload = {
      program: 2,
      programName: '冲击消毒',
      start: new Date(start).toISOString(),
      end: new Date(start + 600_000).toISOString(),
      durationSeconds: 600,
      result: 'fail',
      faultCode: 12,
      minConcentration: 48.5,
      flushSeconds: 120,
    };
    await sendBatch(ingestion, TENANT, [{ code: d.code, kind: 'cycle', payload }]);
    await ingestion.stop();
    let records: Record<string, unknown>[] = [];
    await waitFor(async () => {
      records = (await get<{ records: Record<string, unknown>[] }>(admin, `${API}/page?deviceCode=${d.code}`)).data
        .records;
      return records.length === 1;
    }, 20_000);
    expect(records[0]).toMatchObject({
      deviceCode: d.code,
      source: 1,
      recordType: RecordType.waterline,
      result: 2,
      concentration: '48.50',
      flushSeconds: 120,
      failReason: '故障码 12',
      chainSeq: 1,
    });
  }, 30_000);
});

describe('tenant isolation', () => {
  it('another tenant cannot read, review, correct or verify this tenant’s records', async () => {
    const d = await device(2);
    const id = (await submit(admin, entry(d.id))).data;
    const other = await signInToNewTenant(t, '774411', [
      'disinfection:read',
      'disinfection:write',
      'disinfection:review',
      'disinfection:correct',
      'disinfection:verify',
    ]);
    expect((await get(other, `${API}/detail?id=${id}`)).code).toBe(404);
    expect((await review(other, id)).code).toBe(404);
    expect((await get(other, `${API}/versions?id=${id}`)).code).toBe(404);
    expect((await submit(other, { ...entry(d.id), id }, 'correct')).code).toBe(404);
    const page = await get<{ total: number }>(other, `${API}/page`);
    expect(page.data.total).toBe(0);
    const report = await get<Report>(other, `${API}/verify?deviceCode=${d.code}`);
    expect(report.data).toMatchObject({ checked: 0, broken: null });
    const still = await rows<{ review_status: number; superseded: boolean }>(
      `select review_status, superseded from mes_disinfection_record where id = $1`,
      [id],
    );
    expect(still).toEqual([{ review_status: 0, superseded: false }]);
  });
});
