import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, IOT_MODEL_DATA_PATH, type ModelDataItem } from '@mes/contracts';
import { hashSecret } from '../src/platform/crypto/device-credentials';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import type { TelemetryRow } from '../src/modules/telemetry/telemetry-row';
import { latestByDevice, latestMerge } from '../src/modules/telemetry/device-latest';
import { connectDatabase, type Database } from '../src/platform/db/database';
import { nextId } from '../src/platform/db/ids';
import { connectWithSecret, startPgTelemetry } from './support/pg-telemetry';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The latest values, one row per device (docs/mqtt.md "Latest values"), through the embedded
 * broker and ingestion into a real PostgreSQL, read back by `iot/model-data`: the reply keeps its
 * shape, a late message never replaces a newer value, and two transactions merging the same
 * device on two connections keep the newest value of every field whichever commits first.
 */

const TENANT = '000000';
const MODEL = [
  { key: 'temp', type: 'float', unit: '°C', precision: 1 },
  { key: 'count', type: 'int', unit: '', precision: 0 },
  { key: 'phase', type: 'string', unit: '', precision: 0 },
  { key: 'running', type: 'bool', unit: '', precision: 0 },
  { key: 'mode', type: 'enum', unit: '', precision: 0 },
  { key: 'idle', type: 'float', unit: 'h', precision: 2 },
] as const;

let t: TestApp;
let ingestDb: Database;
let runtime: TelemetryRuntime;
let admin = '';
let port = 0;

interface Device {
  code: string;
  clientId: string;
  secret: string;
}

/** A product with {@link MODEL} and a device of it with MQTT credentials, written directly. */
async function addDevice(code: string): Promise<Device> {
  const pool = t.database.pool;
  const productId = nextId();
  await pool.query(`insert into mes_product (id, tenant_id, product_code, product_name) values ($1, $2, $3, $3)`, [
    productId,
    TENANT,
    `P-${code}`,
  ]);
  for (const [sort, f] of MODEL.entries())
    await pool.query(
      `insert into mes_product_field (id, product_id, field_key, field_name, data_type, unit, precision, sort, tenant_id)
       values ($1, $2, $3, $3, $4, $5, $6, $7, $8)`,
      [nextId(), productId, f.key, f.type, f.unit, f.precision, sort, TENANT],
    );
  const clientId = `d_${randomBytes(8).toString('hex')}`;
  const secret = randomBytes(16).toString('hex');
  await pool.query(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id, mqtt_secret_hash)
     values ($1, $2, $3, $3, $4, $5, $6)`,
    [nextId(), TENANT, code, productId, clientId, hashSecret(secret)],
  );
  return { code, clientId, secret };
}

const connect = (d: Device) => connectWithSecret(port, d);

/** Publishes a report at QoS 1 and waits for its PUBACK (sent once the batch holding it committed). */
const report = (client: MqttClient, d: Device, ts: number, values: Record<string, unknown>) =>
  client.publishAsync(`mes/${TENANT}/${d.code}/telemetry`, JSON.stringify({ ts, values }), { qos: 1 });

async function modelData(code: string): Promise<ModelDataItem[]> {
  const res = await t.as(admin, { method: 'GET', url: `/api${IOT_MODEL_DATA_PATH}`, query: { deviceCode: code } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: ModelDataItem[] }).data;
}

/** field → [value, ts] of a model-data reply. */
const valuesOf = (items: ModelDataItem[]) => Object.fromEntries(items.map((i) => [i.field, [i.value, i.ts]]));

const point = (deviceCode: string, field: string, ts: number, num: string | null, text: string | null = null) =>
  ({ tenantId: TENANT, deviceCode, field, ts: new Date(ts), num, text }) satisfies TelemetryRow;

/** A transaction on a connection of its own: merges batches, and holds their row locks until `commit`. */
async function openTransaction() {
  const client: pg.PoolClient = await t.database.pool.connect();
  await client.query('begin');
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  return {
    pid: rows[0]!.pid,
    merge: (points: TelemetryRow[]) => client.query(latestMerge(latestByDevice(points))).then(() => undefined),
    async commit() {
      await client.query('commit');
      client.release();
    },
  };
}

/**
 * Whether transaction `waiter` is blocked by transaction `holder` (the merge waits on its row).
 * Asked by pid: the app's own jobs share the database and may wait on locks of their own.
 */
async function blockedBy(waiter: { pid: number }, holder: { pid: number }): Promise<boolean> {
  const { rows } = await t.database.pool.query<{ blocked: boolean }>(
    'select $2::int = any(pg_blocking_pids($1::int)) as blocked',
    [waiter.pid, holder.pid],
  );
  return rows[0]?.blocked ?? false;
}

async function untilWaiting(waiter: { pid: number }, holder: { pid: number }) {
  for (let i = 0; i < 200 && !(await blockedBy(waiter, holder)); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await blockedBy(waiter, holder)).toBe(true);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  ingestDb = connectDatabase(t.databaseUrl, 3);
  runtime = await startPgTelemetry(ingestDb, () => undefined, 10);
  port = runtime.port() ?? 0;
}, 60_000);

afterAll(async () => {
  await runtime.stop();
  await ingestDb.close();
  await t.close();
});

describe('latest values, one row per device', () => {
  it('model-data answers every model field with its value, time, age and quality, as before', async () => {
    const d = await addDevice('LV-1');
    const client = await connect(d);
    const ts = Date.now() - 60_000;
    await report(client, d, ts, { temp: 21.46, count: 7, phase: 'flush', running: true, mode: 'auto' });
    await client.endAsync();
    const items = await modelData(d.code);
    const time = formatDateTime(new Date(ts));
    const item = (field: string, dataType: string, unit: string, precision: number, value: number | string | null) => ({
      field,
      name: field,
      dataType,
      unit,
      precision,
      value,
      time: value === null ? null : time,
      ts: value === null ? null : ts,
      ageSeconds: value === null ? null : expect.any(Number),
      quality: 0,
      // No field of this model declares an enumeration (issue 28 point 2).
      valueLabel: null,
      enumeration: [],
      // No PLC variable of this product names these fields (issue 28 point 5).
      limits: null,
    });
    // Rounded to the field's precision as stored; a bool as 1; an enum sent as text as its text.
    expect(items).toEqual([
      item('temp', 'float', '°C', 1, 21.5),
      item('count', 'int', '', 0, 7),
      item('phase', 'string', '', 0, 'flush'),
      item('running', 'bool', '', 0, 1),
      item('mode', 'enum', '', 0, 'auto'),
      item('idle', 'float', 'h', 2, null),
    ]);
    expect(items[0]!.ageSeconds).toBeGreaterThanOrEqual(59);
    // One row for the device, whatever the number of its fields.
    const { rows } = await t.database.pool.query(`select 1 from mes_device_latest where device_code = $1`, [d.code]);
    expect(rows).toHaveLength(1);
  });

  it('a late message never replaces a newer value; its other fields still become the latest', async () => {
    const d = await addDevice('LV-2');
    const client = await connect(d);
    const t0 = Date.now() - 120_000;
    await report(client, d, t0 + 20_000, { temp: 30, mode: 2 });
    // Late: older than what is stored for temp; count has no value yet; mode at the same time wins.
    await report(client, d, t0, { temp: 10, count: 5 });
    await report(client, d, t0 + 20_000, { mode: 'manual' });
    // Two reports in one batch, the newer first: the batch keeps the newer.
    await Promise.all([
      report(client, d, t0 + 40_000, { phase: 'rinse' }),
      report(client, d, t0 + 30_000, { phase: 'fill' }),
    ]);
    await client.endAsync();
    expect(valuesOf(await modelData(d.code))).toMatchObject({
      temp: [30, t0 + 20_000],
      count: [5, t0],
      mode: ['manual', t0 + 20_000],
      phase: ['rinse', t0 + 40_000],
      idle: [null, null],
    });
  });

  it('two transactions on two connections keep the newest value of each field, whichever commits first', async () => {
    for (const [code, stored] of [
      ['LV-3', false],
      ['LV-4', true],
    ] as const) {
      await addDevice(code);
      // LV-4 has a stored row before; LV-3 has none, so both transactions insert it.
      if (stored) {
        const before = await openTransaction();
        await before.merge([point(code, 'idle', 1_000, '0.5')]);
        await before.commit();
      }
      const first = await openTransaction();
      await first.merge([point(code, 'temp', 200_000, '2'), point(code, 'count', 100_000, '1')]);
      const second = await openTransaction();
      const merged = second.merge([
        point(code, 'temp', 150_000, '9'),
        point(code, 'count', 300_000, '3'),
        point(code, 'phase', 50_000, null, 'dry'),
      ]);
      // The second waits for the first's row lock, then merges against what the first committed.
      await untilWaiting(second, first);
      await first.commit();
      await merged;
      await second.commit();
      expect(valuesOf(await modelData(code))).toMatchObject({
        temp: [2, 200_000],
        count: [3, 300_000],
        phase: ['dry', 50_000],
        idle: stored ? [0.5, 1_000] : [null, null],
      });
    }
  });

  it('batches naming the same devices in different orders lock them in one order: no deadlock', async () => {
    await addDevice('LV-5');
    await addDevice('LV-6');
    const a = await openTransaction();
    await a.merge([point('LV-5', 'count', 1_000, '1')]);
    // In key order `b` waits for LV-5 before it takes LV-6; in the order given it would hold LV-6
    // while waiting, and `a` taking LV-6 next would deadlock (PostgreSQL then fails one of them).
    const b = await openTransaction();
    const merged = b.merge([point('LV-6', 'count', 2_000, '2'), point('LV-5', 'count', 2_000, '2')]);
    await untilWaiting(b, a);
    await a.merge([point('LV-6', 'count', 1_000, '1')]);
    await a.commit();
    await merged;
    await b.commit();
    expect(valuesOf(await modelData('LV-5')).count).toEqual([2, 2_000]);
    expect(valuesOf(await modelData('LV-6')).count).toEqual([2, 2_000]);
  });
});
