import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/app-context';
import { modelData } from '../src/modules/device/iot-model';
import type { AuthContext } from '../src/platform/auth/request-auth';
import { applyMigrations, connectDatabase, type Database } from '../src/platform/db/database';
import { nextId } from '../src/platform/db/ids';
import * as schema from '../src/platform/db/schema';
import { createTestDatabase } from './support/test-database';

/**
 * The migration to one row of latest values per device (`device_latest`) on a database that
 * holds the old layout: migrated to the migration before it, given per-field rows of
 * `mes_telemetry_latest`, then migrated to head. model-data answers what it answered from the
 * old rows; the old table is gone.
 */

const MIGRATIONS = path.resolve(import.meta.dirname, '../drizzle');
const T1 = Date.UTC(2026, 10, 20, 8, 30, 15, 123);
const T2 = T1 + 65_000;

let database: Database;
let drop: () => Promise<void>;
let scratch: string;

/** The migrations folder as it was before `device_latest`: its journal cut before that entry. */
function foldersBefore(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-migrations-'));
  fs.cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith('_device_latest'));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

const product = { tenantId: '000000', productId: nextId() };
const FIELDS = [
  ['temp', 'float', 1],
  ['phase', 'string', 0],
  ['running', 'bool', 0],
  ['mode', 'enum', 0],
  ['count', 'int', 0],
  ['idle', 'float', 2],
] as const;

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  database = connectDatabase(created.url, 2);
  scratch = foldersBefore();
  const client = await database.pool.connect();
  try {
    await migrate(drizzle(client, { schema }), { migrationsFolder: scratch });
  } finally {
    client.release();
  }
  const pool = database.pool;
  for (const [sort, [key, type, precision]] of FIELDS.entries())
    await pool.query(
      `insert into mes_product_field (id, product_id, field_key, field_name, data_type, precision, sort, tenant_id)
       values ($1, $2, $3, $3, $4, $5, $6, $7)`,
      [nextId(), product.productId, key, type, precision, sort, product.tenantId],
    );
  const old = (
    tenant: string,
    device: string,
    field: string,
    ts: number | null,
    num: string | null,
    text: string | null,
    extra: { quality?: number; deleted?: number } = {},
  ) =>
    pool.query(
      `insert into mes_telemetry_latest (id, tenant_id, device_code, field, ts, num_value, text_value, quality, is_deleted)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        nextId(),
        tenant,
        device,
        field,
        ts === null ? null : new Date(ts),
        num,
        text,
        extra.quality ?? 0,
        extra.deleted ?? 0,
      ],
    );
  await old('000000', 'M-1', 'temp', T1, '21.500000', null);
  await old('000000', 'M-1', 'phase', T2, null, 'flush');
  await old('000000', 'M-1', 'running', T1, '1.000000', null, { quality: 1 });
  await old('000000', 'M-1', 'mode', T2, null, 'auto');
  // Removed rows and a row that never had a time were not latest values: not carried over.
  await old('000000', 'M-1', 'count', T2, '99', null, { deleted: 1 });
  await old('000000', 'M-1', 'idle', null, '3', null);
  // The same code in another tenant is another device.
  await old('100001', 'M-1', 'temp', T2, '80.000000', null);
  await old('000000', 'M-2', 'count', T1, '1000000000000000.125000', null);
  await applyMigrations(database);
}, 120_000);

afterAll(async () => {
  await database.close();
  await drop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const ctx = () => ({ db: database.db, clock: { now: () => T2 + 10_000 } }) as unknown as AppContext;
const auth = (tenantId: string) => ({ tenantId }) as AuthContext;

describe('migration device_latest', () => {
  it('carries the old per-field rows over, one row per device, and drops the old table', async () => {
    const { rows } = await database.pool.query<{ tenant_id: string; device_code: string; latest: object }>(
      `select tenant_id, device_code, latest from mes_device_latest order by tenant_id, device_code`,
    );
    expect(rows).toEqual([
      {
        tenant_id: '000000',
        device_code: 'M-1',
        latest: {
          temp: { ts: T1, v: 21.5 },
          phase: { ts: T2, v: 'flush' },
          running: { ts: T1, v: 1, q: 1 },
          mode: { ts: T2, v: 'auto' },
        },
      },
      { tenant_id: '000000', device_code: 'M-2', latest: { count: { ts: T1, v: 1000000000000000.1 } } },
      { tenant_id: '100001', device_code: 'M-1', latest: { temp: { ts: T2, v: 80 } } },
    ]);
    // The decimal is kept exactly as the numeric column held it.
    const exact = await database.pool.query<{ v: string }>(
      `select latest -> 'count' ->> 'v' as v from mes_device_latest where device_code = 'M-2'`,
    );
    expect(exact.rows[0]?.v).toBe('1000000000000000.125');
    const old = await database.pool.query<{ t: string | null }>(
      `select to_regclass('mes_telemetry_latest')::text as t`,
    );
    expect(old.rows[0]?.t).toBeNull();
  });

  it('model-data answers from the carried-over row as it did from the old rows', async () => {
    const items = await modelData(ctx(), auth('000000'), { deviceCode: 'M-1', productId: product.productId });
    const at = (ts: number) => ({ ts, ageSeconds: Math.floor((T2 + 10_000 - ts) / 1000) });
    expect(
      items.map(({ field, value, ts, ageSeconds, quality }) => ({ field, value, ts, ageSeconds, quality })),
    ).toEqual([
      { field: 'temp', value: 21.5, ...at(T1), quality: 0 },
      { field: 'phase', value: 'flush', ...at(T2), quality: 0 },
      { field: 'running', value: 1, ...at(T1), quality: 1 },
      { field: 'mode', value: 'auto', ...at(T2), quality: 0 },
      { field: 'count', value: null, ts: null, ageSeconds: null, quality: 0 },
      { field: 'idle', value: null, ts: null, ageSeconds: null, quality: 0 },
    ]);
  });
});
