import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disinfectionRecordResource } from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { disinfectionRecord } from '../src/platform/db/schema';
import { disinfectionRecordChain } from '../src/modules/business/disinfection/records-from-cycles';
import { GENESIS_HASH, recordHash } from '../src/engine/records/record-hash';
import { createTestApp, type TestApp } from './support/test-app';
import { signInWithScopes } from './support/scoped-user';

/**
 * Chains written before chain heads and hash version 2 (docs/records.md "Hash versions",
 * "Adoption"): rows hashed the old way, with no state hash and no head, verify as before once
 * adopted; after adoption the head protects them (a deleted newest row is found), and a review
 * by the engine gives an old row a state hash that then holds.
 */

let t: TestApp;
let admin: string;
let reviewer: string;
const TENANT = '000000';
const API = '/api/blade-business/disinfection';
const HOUR = 3_600_000;

const rows = async <R>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as R[];
const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

async function device(): Promise<{ id: string; code: string }> {
  const productId = nextId();
  const id = nextId();
  const code = `L${randomBytes(4).toString('hex')}`;
  await rows(
    `insert into mes_product (id, tenant_id, product_code, product_name, category) values ($1, $2, $3, $3, 2)`,
    [productId, TENANT, `P${code}`],
  );
  await rows(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id)
     values ($1, $2, $3, $3, $4, $5)`,
    [id, TENANT, code, productId, `c-${code}`],
  );
  return { id, code };
}

/**
 * The fields the hash covered before issue 26, written out here rather than taken from the
 * engine: everything but the hashes (the definition has no secret field) and the review and supersession states (the two new
 * columns did not exist).
 */
function legacyFields(): string[] {
  const skip = new Set([
    'prevHash',
    'rowHash',
    'reviewStatus',
    'reviewerId',
    'reviewerName',
    'reviewTime',
    'superseded',
    'hashVersion',
    'stateHash',
  ]);
  const names = Object.entries(disinfectionRecordResource.fields)
    .filter(([name]) => !skip.has(name))
    .map(([name]) => name);
  return ['id', 'tenantId', ...names].sort();
}

/** Turns a device's chain into what an install before issue 26 holds: version-1 hashes, no state hash, no head. */
async function makeLegacy(code: string) {
  const fields = legacyFields();
  const chain = await t.ctx.db
    .select()
    .from(disinfectionRecord)
    .where(eq(disinfectionRecord.deviceCode, code))
    .orderBy(asc(disinfectionRecord.chainSeq));
  let prev = GENESIS_HASH;
  for (const row of chain) {
    const legacy = { ...row, hashVersion: 1, prevHash: prev } as Record<string, unknown>;
    const hash = recordHash(fields, legacy, prev);
    await rows(
      `update mes_disinfection_record set hash_version = 1, state_hash = '', prev_hash = $1, row_hash = $2 where id = $3`,
      [prev, hash, row.id],
    );
    prev = hash;
  }
}

async function verify(code?: string) {
  const url = code ? `${API}/verify?deviceCode=${code}` : `${API}/verify`;
  return (await t.as(admin, { method: 'GET', url })).json<{
    data: { checked: number; broken: { chainSeq: number; reason: string } | null; brokenCount: number };
  }>().data;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  reviewer = await signInWithScopes(t, { account: 'lchecker', codes: ['disinfection:read', 'disinfection:review'] });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('chains from before the heads', () => {
  it('adopts them as they stand, then protects them; an old row reviewed by the engine gets a state hash', async () => {
    const d = await device();
    const ids: string[] = [];
    for (let i = 3; i >= 1; i -= 1) {
      const res = await t.as(admin, {
        method: 'POST',
        url: `${API}/submit`,
        payload: {
          deviceId: d.id,
          startTime: stamp(Date.now() - i * HOUR - 600_000),
          endTime: stamp(Date.now() - i * HOUR),
          result: 1,
        },
      });
      ids.push(res.json<{ data: string }>().data);
    }
    await makeLegacy(d.code);
    await rows(`delete from mes_record_chain_head where record_table = 'mes_disinfection_record'`);

    // A process that has not adopted yet (the route's chain has): adoption on its first verify.
    const fresh = await disinfectionRecordChain().verify(t.ctx.db, TENANT, undefined, d.code);
    expect(fresh).toMatchObject({ checked: 3, broken: null });
    const [head] = await rows<{ last_seq: number; row_count: number }>(
      `select last_seq, row_count from mes_record_chain_head where chain_key = $1`,
      [d.code],
    );
    expect(head).toEqual({ last_seq: 3, row_count: 3 });
    expect(await verify(d.code)).toMatchObject({ checked: 3, broken: null });

    // An old row's review is sealed by the engine and then holds against an edit in SQL.
    const reviewed = await t.as(reviewer, { method: 'POST', url: `${API}/review`, payload: { ids: ids[0] } });
    expect(reviewed.json().success).toBe(true);
    expect(await verify(d.code)).toMatchObject({ broken: null });
    await rows(`update mes_disinfection_record set reviewer_name = 'x' where id = $1`, [ids[0]]);
    expect((await verify(d.code)).broken).toMatchObject({ chainSeq: 1, reason: expect.stringContaining('状态被改动') });
    await rows(`update mes_disinfection_record set reviewer_name = 'lchecker' where id = $1`, [ids[0]]);
    expect((await verify(d.code)).broken).toBeNull();

    // A new row after the old ones is version 2 and links to the adopted head.
    const added = await t.as(admin, {
      method: 'POST',
      url: `${API}/submit`,
      payload: { deviceId: d.id, startTime: stamp(Date.now() - 600_000), endTime: stamp(Date.now()), result: 1 },
    });
    const newest = added.json<{ data: string }>().data;
    const [v] = await rows<{ hash_version: number; chain_seq: number }>(
      `select hash_version, chain_seq from mes_disinfection_record where id = $1`,
      [newest],
    );
    expect(v).toEqual({ hash_version: 2, chain_seq: 4 });
    expect(await verify(d.code)).toMatchObject({ checked: 4, broken: null });

    // The newest (old) rows deleted after adoption are found.
    await rows(`delete from mes_disinfection_record where id = any($1::bigint[])`, [[ids[2], newest]]);
    expect((await verify(d.code)).broken).toMatchObject({
      chainSeq: 3,
      reason: expect.stringContaining('最新的记录被删除'),
    });
  });
});
