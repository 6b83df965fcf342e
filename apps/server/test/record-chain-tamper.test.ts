import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disinfectionRecordResource } from '@mes/contracts';
import { createDeviceDirectory } from '../src/modules/device';
import { nextId } from '../src/platform/db/ids';
import { disinfectionRecord } from '../src/platform/db/schema';
import { Ingestion } from '../src/modules/telemetry/ingestion';
import { disinfectionRecordChain, recordsFromCycles } from '../src/modules/business/disinfection/records-from-cycles';
import { removeExpiredRecords } from '../src/engine/records/record-retention-job';
import { hashedFields, hashVersionOf, recordHash, stateHash } from '../src/engine/records/record-hash';
import { createTestApp, type TestApp } from './support/test-app';
import { signInWithScopes } from './support/scoped-user';
import { sendBatch } from './support/ingestion-batch';

/**
 * Record chains tampered with in plain SQL on a real PostgreSQL (docs/records.md "The chain
 * head"): the newest, oldest and a middle row deleted, a row re-created, content and review state
 * edited, the head itself deleted; the records-from-cycles job run after a deletion; and a
 * tenant-wide `verify` that names every broken chain with its first fault. Each case keeps to a
 * device of its own; the last test reads them all at once.
 */

let t: TestApp;
let admin: string;
let reviewer: string;
const TENANT = '000000';
const API = '/api/blade-business/disinfection';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Broken {
  id: string;
  partition: string;
  chainSeq: number;
  reason: string;
  reasonEn?: string;
}
interface Report {
  checked: number;
  chains: number;
  broken: Broken | null;
  brokenChains?: Broken[];
  brokenCount?: number;
}

/** What each case expects `verify` to say about its chain: device code → position and reason. */
const expected = new Map<string, { chainSeq: number; reason: string }>();

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];

async function device(category: number): Promise<{ id: string; code: string }> {
  const productId = nextId();
  const id = nextId();
  const code = `T${randomBytes(4).toString('hex')}`;
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

async function submit(token: string, body: Record<string, unknown>) {
  const res = await t.as(token, { method: 'POST', url: `${API}/submit`, payload: body });
  return res.json<{ code: number; success: boolean; data: string; msg: string }>();
}

/** A chain of `n` manual entries; answers their ids in chain order. */
async function chainOf(n: number, category = 2): Promise<{ code: string; deviceId: string; ids: string[] }> {
  const d = await device(category);
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const end = Date.now() - (n - i) * HOUR;
    const added = await submit(admin, {
      deviceId: d.id,
      startTime: stamp(end - 30 * 60_000),
      endTime: stamp(end),
      result: 1,
      maxTemperature: '134.50',
      batchNo: `B-${i + 1}`,
    });
    expect(added.success).toBe(true);
    ids.push(added.data);
  }
  return { code: d.code, deviceId: d.id, ids };
}

async function verify(deviceCode?: string, language?: string) {
  const url = deviceCode ? `${API}/verify?deviceCode=${deviceCode}` : `${API}/verify`;
  const res = await t.as(admin, { method: 'GET', url, headers: language ? { 'accept-language': language } : {} });
  return res.json<{ code: number; data: Report; msg: string }>();
}

/** Asserts the one chain is whole, then that (after the tampering) it breaks where and why expected. */
async function expectBroken(code: string, chainSeq: number, reason: string) {
  const report = (await verify(code)).data;
  console.log(`[chain-tamper] ${code}: ${JSON.stringify(report.broken)}`);
  expect(report.broken).toMatchObject({ partition: code, chainSeq, reason: expect.stringContaining(reason) });
  expected.set(code, { chainSeq, reason });
}

async function expectWhole(code: string) {
  expect((await verify(code)).data.broken).toBeNull();
}

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
  admin = (await t.signIn()).access_token;
  reviewer = await signInWithScopes(t, {
    account: 'tchecker',
    codes: ['disinfection:read', 'disinfection:review', 'disinfection:verify'],
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('deletions behind the application’s back', () => {
  it('finds the newest rows deleted', async () => {
    const c = await chainOf(4);
    await expectWhole(c.code);
    await rows(`delete from mes_disinfection_record where id = any($1::bigint[])`, [[c.ids[2], c.ids[3]]]);
    await expectBroken(c.code, 3, '最新的记录被删除');
  });

  it('finds the oldest row deleted', async () => {
    const c = await chainOf(3);
    await rows(`delete from mes_disinfection_record where id = $1`, [c.ids[0]]);
    await expectBroken(c.code, 1, '第 1 条记录缺失');
  });

  it('finds a row deleted in the middle', async () => {
    const c = await chainOf(3);
    await rows(`delete from mes_disinfection_record where id = $1`, [c.ids[1]]);
    await expectBroken(c.code, 2, '第 2 条记录缺失');
  });

  it('finds a soft delete (is_deleted set in SQL)', async () => {
    const c = await chainOf(3);
    await rows(`update mes_disinfection_record set is_deleted = 1 where id = $1`, [c.ids[1]]);
    await expectBroken(c.code, 2, '第 2 条记录缺失');
  });

  it('finds every row of a chain deleted, from its head alone', async () => {
    const c = await chainOf(2);
    await rows(`delete from mes_disinfection_record where device_code = $1`, [c.code]);
    const report = (await verify(c.code)).data;
    expect(report).toMatchObject({ checked: 0, broken: { partition: c.code, chainSeq: 1, id: '' } });
    expected.set(c.code, { chainSeq: 1, reason: '最新的记录被删除' });
  });

  it('finds a newest row deleted and re-created with a valid hash', async () => {
    const c = await chainOf(3);
    const [copy] = await t.ctx.db
      .select()
      .from(disinfectionRecord)
      .where(eq(disinfectionRecord.id, String(c.ids[2])));
    await rows(`delete from mes_disinfection_record where id = $1`, [c.ids[2]]);
    // Put back at the same position with other content, hashed by the engine's own rule.
    await t.ctx.db.insert(disinfectionRecord).values({ ...copy, batchNo: 'B-forged' } as never);
    await rehash(String(c.ids[2]));
    await expectBroken(c.code, 3, '与链头不符');
  });
});

describe('edits behind the application’s back', () => {
  it('finds review fields edited in SQL, whether a review is faked or undone', async () => {
    const c = await chainOf(3);
    expect(
      (await t.as(reviewer, { method: 'POST', url: `${API}/review`, payload: { ids: c.ids[0] } })).json().success,
    ).toBe(true);
    await expectWhole(c.code);
    await rows(
      `update mes_disinfection_record set review_status = 1, reviewer_name = 'nobody', review_time = now() where id = $1`,
      [c.ids[1]],
    );
    await expectBroken(c.code, 2, '状态被改动');
    const d = await chainOf(2);
    await t.as(reviewer, { method: 'POST', url: `${API}/review`, payload: { ids: d.ids[0] } });
    await rows(`update mes_disinfection_record set reviewer_name = 'someone else' where id = $1`, [d.ids[0]]);
    await expectBroken(d.code, 1, '状态被改动');
  });

  it('finds a correction flag cleared in SQL', async () => {
    const c = await chainOf(2);
    const fixed = await t.as(admin, {
      method: 'POST',
      url: `${API}/correct`,
      payload: {
        id: c.ids[0],
        result: 1,
        startTime: stamp(Date.now() - 3 * HOUR),
        endTime: stamp(Date.now() - 2 * HOUR),
        batchNo: 'B-fixed',
      },
    });
    expect(fixed.json().success).toBe(true);
    await expectWhole(c.code);
    await rows(`update mes_disinfection_record set superseded = false where id = $1`, [c.ids[0]]);
    await expectBroken(c.code, 1, '状态被改动');
  });

  it('finds a row passed off as the older hash version', async () => {
    const c = await chainOf(2);
    await rows(`update mes_disinfection_record set hash_version = 1 where id = $1`, [c.ids[0]]);
    await expectBroken(c.code, 1, '记录被改动');
  });

  it('finds the newest row edited and re-hashed by hand', async () => {
    const c = await chainOf(2);
    await rows(`update mes_disinfection_record set batch_no = 'B-edited' where id = $1`, [c.ids[1]]);
    await rehash(String(c.ids[1]));
    await expectBroken(c.code, 2, '与链头不符');
  });
});

describe('the head itself', () => {
  it('finds a deleted head, and a head set up again after it stays reported', async () => {
    const c = await chainOf(2);
    await rows(`delete from mes_record_chain_head where chain_key = $1`, [c.code]);
    await expectBroken(c.code, 1, '没有链头');
    const more = await submit(admin, {
      deviceId: c.deviceId,
      startTime: stamp(Date.now() - HOUR),
      endTime: stamp(Date.now() - HOUR / 2),
      result: 1,
    });
    expect(more.success).toBe(true);
    await expectBroken(c.code, 1, '链头曾丢失');
  });
});

describe('records from cycles after a deletion', () => {
  it('does not mend the chain: a re-made record takes a new position and the deletion stays reported', async () => {
    const d = await device(1);
    await sendCycles([0, 1, 2].map(cyclesOf(d.code)));
    const chain = disinfectionRecordChain();
    await recordsFromCycles(t.ctx, chain, TENANT);
    const before = await rows<{ id: string; cycle_id: string; chain_seq: number }>(
      `select id::text, cycle_id::text, chain_seq from mes_disinfection_record where device_code = $1 order by chain_seq`,
      [d.code],
    );
    expect(before.map((r) => r.chain_seq)).toEqual([1, 2, 3]);
    await expectWhole(d.code);

    await rows(`delete from mes_disinfection_record where id = $1`, [before[2]?.id]);
    await recordsFromCycles(t.ctx, chain, TENANT);
    const after = await rows<{ cycle_id: string; chain_seq: number }>(
      `select cycle_id::text, chain_seq from mes_disinfection_record where device_code = $1 order by chain_seq`,
      [d.code],
    );
    console.log(`[chain-tamper] cycles: before ${JSON.stringify(before)} after ${JSON.stringify(after)}`);
    // The cycle's record is made again from the stored cycle, after the head — not in the gap.
    expect(after.map((r) => [r.chain_seq, r.cycle_id])).toEqual([
      [1, before[0]?.cycle_id],
      [2, before[1]?.cycle_id],
      [4, before[2]?.cycle_id],
    ]);
    await expectBroken(d.code, 3, '第 3 条记录缺失');
  }, 30_000);
});

describe('records from cycles after a row forged past the head', () => {
  it('does not take the forged position: the cycle waits, the forged row is named', async () => {
    const d = await device(1);
    const cycles = cyclesOf(d.code);
    await sendCycles([cycles(0)]);
    const chain = disinfectionRecordChain();
    await recordsFromCycles(t.ctx, chain, TENANT);
    const [first] = await t.ctx.db.select().from(disinfectionRecord).where(eq(disinfectionRecord.deviceCode, d.code));
    expect(first?.chainSeq).toBe(1);
    await t.ctx.db
      .insert(disinfectionRecord)
      .values({ ...first, id: nextId(), recordNo: `XD${nextId()}`, cycleId: null, chainSeq: 2 } as never);
    await sendCycles([cycles(1)]);
    await recordsFromCycles(t.ctx, chain, TENANT);
    const seqs = await rows<{ chain_seq: number; cycle_id: string | null }>(
      `select chain_seq, cycle_id::text from mes_disinfection_record where device_code = $1 order by chain_seq`,
      [d.code],
    );
    console.log(`[chain-tamper] forged past the head: ${JSON.stringify(seqs)}`);
    expect(seqs.map((r) => r.chain_seq)).toEqual([1, 2]);
    await expectBroken(d.code, 2, '之后,是在应用之外写入的');
  }, 30_000);
});

describe('what is not tampering', () => {
  it('keeps a chain whole when the retention job removes its oldest and a middle row', async () => {
    const d = await device(2);
    const at = (ms: number) => ({
      deviceId: d.id,
      startTime: stamp(ms - 30 * 60_000),
      endTime: stamp(ms),
      result: 1,
    });
    const old1 = (await submit(admin, at(Date.now() - 1200 * DAY))).data;
    const recent = (await submit(admin, at(Date.now() - HOUR))).data;
    const old3 = (await submit(admin, at(Date.now() - 1100 * DAY))).data;
    await submit(admin, at(Date.now() - HOUR));
    const removed = await removeExpiredRecords(t.ctx, [{ def: disinfectionRecordResource, table: disinfectionRecord }]);
    expect(removed.flatMap((r) => r.ids).sort()).toEqual([old1, old3].sort());
    expect((await verify(d.code)).data).toMatchObject({ checked: 2, broken: null });
    expect(recent).toBeTruthy();
    // The head moved past the first removed row; the middle one is recorded by position.
    const [head] = await rows<{ first_seq: number; row_count: number; removed: [number, string][] }>(
      `select first_seq, row_count, removed from mes_record_chain_head where chain_key = $1`,
      [d.code],
    );
    expect(head).toMatchObject({ first_seq: 2, row_count: 2 });
    expect(head?.removed.map(([seq]) => seq)).toEqual([3]);
  });
});

describe('a tenant-wide verify', () => {
  it('lists every broken chain with its first broken position and reason, in both languages', async () => {
    const zh = await verify();
    const report = zh.data;
    console.log(
      `[chain-tamper] tenant-wide: ${report.chains} chains, ${report.checked} rows, ${report.brokenCount} broken: ` +
        (report.brokenChains ?? []).map((b) => `${b.partition}#${b.chainSeq}`).join(' '),
    );
    const listed = new Map((report.brokenChains ?? []).map((b) => [b.partition, b]));
    expect(report.brokenCount).toBe(expected.size);
    expect([...listed.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [code, want] of expected)
      expect(listed.get(code)).toMatchObject({ chainSeq: want.chainSeq, reason: expect.stringContaining(want.reason) });
    expect(report.broken).toEqual(report.brokenChains?.[0]);
    for (const code of expected.keys()) expect(zh.msg).toContain(code);
    expect(zh.msg).toContain(`条记录链中 ${expected.size} 条断裂`);
    const en = await verify(undefined, 'en');
    expect(en.msg).toContain(`${expected.size} of ${report.chains} record chains broken`);
    expect(en.data.brokenChains?.every((b) => /[a-z]/.test(b.reasonEn ?? ''))).toBe(true);
  });
});

/** Cycle messages of a device, an hour apart, from five hours ago. */
function cyclesOf(code: string) {
  const start = Date.now() - 5 * HOUR;
  return (i: number) => ({
    code,
    kind: 'cycle',
    payload: {
      program: 1,
      programName: '标准',
      start: new Date(start + i * HOUR).toISOString(),
      end: new Date(start + i * HOUR + 600_000).toISOString(),
      durationSeconds: 600,
      result: 'pass',
    },
  });
}

/** Stores cycles through the real ingestion, committed when it answers. */
async function sendCycles(messages: { code: string; kind: string; payload: unknown }[]) {
  const ingestion = new Ingestion({
    pool: t.database.pool,
    directory: createDeviceDirectory(t.ctx),
    warn: () => undefined,
    now: () => Date.now(),
    batchDelayMs: 5,
    changes: t.ctx.changes,
  });
  await sendBatch(ingestion, TENANT, messages);
  await ingestion.stop();
}

/** Re-hashes a row as the engine would (content and state), the way a forger who read the code would. */
async function rehash(id: string) {
  const [read] = await t.ctx.db.select().from(disinfectionRecord).where(eq(disinfectionRecord.id, id));
  const row = (read ?? {}) as Record<string, unknown>;
  const hash = recordHash(hashedFields(disinfectionRecordResource, hashVersionOf(row)), row, String(row.prevHash));
  await rows(`update mes_disinfection_record set row_hash = $1, state_hash = $2 where id = $3`, [
    hash,
    stateHash({ ...row, rowHash: hash }),
    id,
  ]);
}
