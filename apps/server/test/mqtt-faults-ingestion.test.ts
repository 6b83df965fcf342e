import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { get as sparkplugNamespace } from 'sparkplug-payload';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../src/platform/db/database';
import { nextId } from '../src/platform/db/ids';
import { hashSecret } from '../src/platform/crypto/device-credentials';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import { createTestApp, type TestApp } from './support/test-app';
import { TcpFaultProxy } from './support/tcp-fault-proxy';
import { waitFor } from './support/mqtt-kit';
import { connectWithSecret, startPgTelemetry } from './support/pg-telemetry';

/**
 * Device data through database faults (issue 26, points 2, 3, 4 and 7; docs/mqtt.md "Retry or dead
 * letter"): the real app's database, the embedded broker on a free port, and the ingestion's own
 * pool reaching PostgreSQL through a TcpFaultProxy that a test stops (database down) or whose
 * connections it drops (as pg_terminate_backend does). Device look-ups go through the device
 * module's real directory on that pool, uncached, so each batch looks its devices up again.
 */

let t: TestApp;
let proxy: TcpFaultProxy;
let ingestDb: Database;
let runtime: TelemetryRuntime;
let port = 0;
const warnings: string[] = [];

interface Device {
  tenantId: string;
  deviceCode: string;
  clientId: string;
  secret: string;
}

/** A product with an int field `temperature` and a device of it with MQTT credentials, written directly. */
async function addDevice(tenantId: string, deviceCode: string): Promise<Device> {
  const pool = t.database.pool;
  const productId = nextId();
  await pool.query(`insert into mes_product (id, tenant_id, product_code, product_name) values ($1, $2, $3, $3)`, [
    productId,
    tenantId,
    `P-${deviceCode}-${randomBytes(3).toString('hex')}`,
  ]);
  await pool.query(
    `insert into mes_product_field (id, product_id, field_key, field_name, data_type, precision, tenant_id)
     values ($1, $2, 'temperature', 'temperature', 'int', 0, $3)`,
    [nextId(), productId, tenantId],
  );
  const clientId = `d_${randomBytes(8).toString('hex')}`;
  const secret = randomBytes(16).toString('hex');
  await pool.query(
    `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id, mqtt_secret_hash)
     values ($1, $2, $3, $3, $4, $5, $6)`,
    [nextId(), tenantId, deviceCode, productId, clientId, hashSecret(secret)],
  );
  return { tenantId, deviceCode, clientId, secret };
}

const connect = (d: Device) => connectWithSecret(port, d);

/** Publishes at QoS 1; resolves true when acknowledged, false when the client failed it. */
const publish = (client: MqttClient, topic: string, payload: string | Buffer) =>
  new Promise<boolean>((resolve) => client.publish(topic, payload, { qos: 1 }, (error) => resolve(!error)));

const rows = async <T>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as T[];

/** Stored reports of a device by seq (acquisition data keeps one row per report, with its seq). */
async function storedSeqs(d: Device): Promise<number[]> {
  const found = await rows<{ seq: number }>(
    `select seq from mes_acqdata where tenant_id = $1 and device_code = $2 and seq is not null`,
    [d.tenantId, d.deviceCode],
  );
  return found.map((r) => r.seq);
}

const spB = sparkplugNamespace('spBv1.0')!;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await createTestApp();
  const proxied = await TcpFaultProxy.forUrl(t.databaseUrl);
  proxy = proxied.proxy;
  ingestDb = connectDatabase(proxied.url, 5);
  runtime = await startPgTelemetry(ingestDb, (message) => void warnings.push(message), 20);
  port = runtime.port() ?? 0;
}, 60_000);

afterAll(async () => {
  await proxy.start();
  await runtime.stop();
  await ingestDb.close();
  await proxy.close();
  await t.close();
});

describe('device data through database faults', () => {
  it('loses and doubles nothing acknowledged while the database stops and its connections drop; every window drains', async () => {
    const tenant = `f${randomBytes(4).toString('hex')}`;
    const devices = await Promise.all(Array.from({ length: 8 }, (_, i) => addDevice(tenant, `OUT-${i}`)));
    const clients = await Promise.all(devices.map(connect));
    const sent = devices.map(() => 0);
    const acked = devices.map(() => new Set<number>());
    const pending = new Set<Promise<void>>();
    const base = Date.now() - 60_000;
    let publishing = true;
    // Each device publishes a numbered report every 25 ms (its own ts and seq), not waiting for acks.
    const loops = devices.map(async (d, i) => {
      while (publishing) {
        const n = ++sent[i]!;
        const done = publish(
          clients[i]!,
          `mes/${tenant}/${d.deviceCode}/telemetry`,
          JSON.stringify({ ts: base + n, seq: n, values: { temperature: n } }),
        ).then((ok) => {
          if (ok) acked[i]!.add(n);
        });
        pending.add(done);
        void done.finally(() => pending.delete(done));
        await sleep(25);
      }
    });
    await sleep(500);
    // The database down for 3 s while the devices keep publishing.
    await proxy.stop();
    await sleep(3000);
    const unackedAtStart = devices.map((_, i) => sent[i]! - acked[i]!.size);
    await proxy.start();
    const startedAt = Date.now();
    // Every device's window drains: all it sent so far is acknowledged.
    const sentAtStart = [...sent];
    await waitFor(() => devices.every((_, i) => acked[i]!.size >= sentAtStart[i]!), 15_000);
    const drainMs = Date.now() - startedAt;
    // Then the connections are dropped three times under load.
    for (let k = 0; k < 3; k++) {
      await sleep(300);
      proxy.terminate();
    }
    await sleep(300);
    publishing = false;
    await Promise.all(loops);
    await waitFor(() => pending.size === 0, 15_000);
    await runtime.ingestion.drain();

    let totalSent = 0;
    let totalAcked = 0;
    let totalStored = 0;
    let lost = 0;
    let duplicated = 0;
    for (const [i, d] of devices.entries()) {
      const stored = await storedSeqs(d);
      const distinct = new Set(stored);
      totalSent += sent[i]!;
      totalAcked += acked[i]!.size;
      totalStored += distinct.size;
      duplicated += stored.length - distinct.size;
      for (const n of acked[i]!) if (!distinct.has(n)) lost++;
    }
    const points = await rows<{ n: string; d: string }>(
      `select count(*) as n, count(distinct (device_code, ts)) as d from mes_telemetry where tenant_id = $1`,
      [tenant],
    );
    console.log(
      `outage + 3 terminations, 8 devices: sent ${totalSent}, acknowledged ${totalAcked}, stored ${totalStored}, lost ${lost}, duplicated ${duplicated}; unacknowledged when the database came back ${unackedAtStart.join('/')}; all windows drained ${drainMs} ms after start()`,
    );
    await Promise.all(clients.map((c) => c.endAsync()));
    expect(totalAcked).toBe(totalSent);
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(Number(points[0]?.n)).toBe(Number(points[0]?.d));
    // The drain itself is bounded by the wait above (15 s; before the fix windows stayed full for
    // minutes): a tighter figure here failed on a loaded machine, and speed belongs in bench/.
    // No registered device was judged unknown while its look-up failed.
    const unknown = await rows(`select 1 from mes_mqtt_message where tenant_id = $1 and error = 'unknown device'`, [
      tenant,
    ]);
    expect(unknown).toHaveLength(0);
  }, 60_000);

  it('never turns a look-up that failed during an outage into "unknown device"', async () => {
    const tenant = `u${randomBytes(4).toString('hex')}`;
    const d = await addDevice(tenant, 'LOOK-1');
    const client = await connect(d);
    const unknownBefore = runtime.ingestion.counters.unknownDevice;
    await proxy.stop();
    const acked = publish(
      client,
      `mes/${tenant}/LOOK-1/telemetry`,
      JSON.stringify({ ts: Date.now() - 1000, seq: 1, values: { temperature: 5 } }),
    );
    await sleep(1500);
    // Not acknowledged while the database is down.
    const early = await Promise.race([acked, sleep(10).then(() => 'waiting' as const)]);
    await proxy.start();
    expect(await acked).toBe(true);
    console.log(`look-up during the outage: acknowledged before the database returned: ${early !== 'waiting'}`);
    expect(early).toBe('waiting');
    expect(await storedSeqs(d)).toEqual([1]);
    const log = await rows<{ parsed_ok: boolean; error: string | null }>(
      `select parsed_ok, error from mes_mqtt_message where tenant_id = $1`,
      [tenant],
    );
    expect(log).toEqual([{ parsed_ok: true, error: null }]);
    expect(runtime.ingestion.counters.unknownDevice).toBe(unknownBefore);
    await client.endAsync();
  }, 30_000);

  it('dead-letters a poison message with its reason and stores the others of every device and tenant at once', async () => {
    const one = `p${randomBytes(4).toString('hex')}`;
    const devices = [
      await addDevice('000000', `PO-A-${randomBytes(2).toString('hex')}`),
      await addDevice('000000', `PO-B-${randomBytes(2).toString('hex')}`),
      await addDevice(one, 'PO-C'),
      await addDevice(one, 'PO-D'),
    ];
    const clients = await Promise.all(devices.map(connect));
    // A value PostgreSQL refuses that no parse check knows of: a CHECK constraint of this test's database.
    const POISON = 86_420;
    await t.database.pool.query(
      `alter table mes_acqdata add constraint test_poison check ((data_values ->> 'temperature')::numeric is distinct from ${POISON})`,
    );
    try {
      const base = Date.now() - 30_000;
      const started = Date.now();
      const acks: Promise<boolean>[] = [];
      for (let n = 1; n <= 20; n++) {
        for (const [i, d] of devices.entries()) {
          const value = i === 0 && n === 10 ? POISON : n;
          acks.push(
            publish(
              clients[i]!,
              `mes/${d.tenantId}/${d.deviceCode}/telemetry`,
              JSON.stringify({ ts: base + n, seq: n, values: { temperature: value } }),
            ),
          );
        }
      }
      // A field name with NUL (the parse checks may refuse it first; either way it holds nothing up).
      acks.push(
        publish(
          clients[2]!,
          `mes/${one}/PO-C/telemetry`,
          Buffer.from(`{"ts":${base + 100},"seq":100,"values":{"a\\u0000b":1}}`),
        ),
      );
      // A Sparkplug metric name with NUL, from a device that is its own edge node.
      acks.push(
        publish(
          clients[3]!,
          `spBv1.0/${one}/NDATA/PO-D`,
          Buffer.from(
            spB.encodePayload({
              timestamp: base + 200,
              seq: 205,
              metrics: [{ name: 'a\u0000b', type: 'Int32', value: 1 }],
            }),
          ),
        ),
      );
      const results = await Promise.all(acks);
      const ackMs = Date.now() - started;
      expect(results.every(Boolean)).toBe(true);
      await runtime.ingestion.drain();
      const stored = await Promise.all(devices.map(storedSeqs));
      const expected = Array.from({ length: 20 }, (_, k) => k + 1);
      expect(stored[0]!.sort((a, b) => a - b)).toEqual(expected.filter((n) => n !== 10));
      for (const s of stored.slice(1))
        expect(s.filter((n) => n !== 100 && n !== 205).sort((a, b) => a - b)).toEqual(expected);
      const dead = await rows<{ tenant_id: string; device_code: string; error: string; parsed_ok: boolean }>(
        `select tenant_id, device_code, error, parsed_ok from mes_mqtt_message where error like 'dead letter%' and device_code = $1`,
        [devices[0]!.deviceCode],
      );
      expect(dead).toEqual([
        {
          tenant_id: '000000',
          device_code: devices[0]!.deviceCode,
          error: expect.stringContaining('23514') as unknown as string,
          parsed_ok: false,
        },
      ]);
      // The NUL field's message: acknowledged and listed once (a dead letter, a parse refusal, or
      // stored with the field refused: then its payload is rebuilt, docs/mqtt.md "Stored once").
      const nul = await rows<{ parsed_ok: boolean; error: string }>(
        `select parsed_ok, error from mes_mqtt_message where tenant_id = $1 and device_code = 'PO-C'
            and (payload like '%"seq":100%' or payload like '%"seq": 100,%')`,
        [one],
      );
      expect(nul).toHaveLength(1);
      const sparkplug = await rows<{ parsed_ok: boolean; error: string }>(
        `select parsed_ok, error from mes_mqtt_message where tenant_id = $1 and topic = $2`,
        [one, `spBv1.0/${one}/NDATA/PO-D`],
      );
      expect(sparkplug).toHaveLength(1);
      console.log(
        `poison among 82 messages of 4 devices in 2 tenants: all acknowledged in ${ackMs} ms; stored ${stored.reduce((s, x) => s + x.length, 0)}; dead letters ${runtime.ingestion.counters.deadLetters}: ${dead[0]?.error}; NUL field: ${nul[0]?.error}; Sparkplug NUL metric: ${sparkplug[0]?.error}`,
      );
      // A liveness bound (a poisoned batch used to hold the others for good), not a speed figure.
      expect(ackMs).toBeLessThan(15_000);

      // Visible on the MQTT message screen, filtered by its error.
      const admin = (await t.signIn()).access_token;
      const page = await t.as(admin, {
        method: 'GET',
        url: `/api/blade-business/mqtt/page?current=1&size=20&error=${encodeURIComponent('dead letter')}&deviceCode=${devices[0]!.deviceCode}`,
      });
      expect(page.statusCode, page.body).toBe(200);
      const records = page.json<{ data: { records: { error: string; parsedOk: boolean; payload?: string }[] } }>().data
        .records;
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ parsedOk: false });
      expect(records[0]?.error).toMatch(/^dead letter \(死信\): 23514 /);
      expect(warnings.some((w) => w.startsWith('MQTT ingestion: dead letter:'))).toBe(true);
    } finally {
      await t.database.pool.query(`alter table mes_acqdata drop constraint test_poison`);
      await Promise.all(clients.map((c) => c.endAsync()));
    }
  }, 30_000);

  it('stores a report the device publishes twice (same ts and seq) once', async () => {
    const tenant = `d${randomBytes(4).toString('hex')}`;
    const d = await addDevice(tenant, 'DUP-1');
    const client = await connect(d);
    const ts = Date.now() - 10_000;
    const report = (seq: number, value: number) =>
      JSON.stringify({ ts: ts + seq, seq, values: { temperature: value } });
    const topic = `mes/${tenant}/DUP-1/telemetry`;
    // Again after the first was stored (another batch), and twice at once (one batch).
    expect(await publish(client, topic, report(1, 11))).toBe(true);
    expect(await publish(client, topic, report(1, 11))).toBe(true);
    expect(await Promise.all([publish(client, topic, report(2, 12)), publish(client, topic, report(2, 12))])).toEqual([
      true,
      true,
    ]);
    // Same seq, another ts: another report.
    expect(await publish(client, topic, JSON.stringify({ ts: ts + 50, seq: 1, values: { temperature: 13 } }))).toBe(
      true,
    );
    await runtime.ingestion.drain();
    const acq = await rows<{ seq: number }>(`select seq from mes_acqdata where tenant_id = $1 order by collect_time`, [
      tenant,
    ]);
    const points = await rows<{ num_value: string }>(
      `select num_value from mes_telemetry where tenant_id = $1 order by ts`,
      [tenant],
    );
    const log = await rows<{ error: string | null }>(
      `select error from mes_mqtt_message where tenant_id = $1 order by create_time`,
      [tenant],
    );
    console.log(
      `device duplicates: 5 publishes of 3 reports → ${acq.length} acquisition rows, ${points.length} points, ${log.filter((l) => l.error?.startsWith('duplicate')).length} logged as duplicates`,
    );
    expect(acq.map((r) => r.seq)).toEqual([1, 2, 1]);
    expect(points.map((p) => p.num_value)).toEqual(['11.000000', '12.000000', '13.000000']);
    expect(log).toHaveLength(5);
    expect(log.filter((l) => l.error?.startsWith('duplicate'))).toHaveLength(2);
    await client.endAsync();
  }, 30_000);

  it('stores a batch whose COMMIT reached PostgreSQL but whose reply was lost once, not twice', async () => {
    const tenant = `c${randomBytes(4).toString('hex')}`;
    const d = await addDevice(tenant, 'COMMIT-1');
    const client = await connect(d);
    const topic = `mes/${tenant}/COMMIT-1/telemetry`;
    // Reports without ts and seq: nothing but the transaction's own outcome can tell a retry from a new report.
    const cut = proxy.cutAfter(Buffer.from('commit\0'));
    const sent = Array.from({ length: 20 }, (_, i) => i + 1);
    const acked = await Promise.all(sent.map((n) => publish(client, topic, JSON.stringify({ temperature: n }))));
    await cut;
    await runtime.ingestion.drain();
    const points = await rows<{ num_value: string }>(
      `select num_value from mes_telemetry where tenant_id = $1 order by num_value`,
      [tenant],
    );
    const stored = points.map((p) => Number(p.num_value));
    const duplicated = stored.length - new Set(stored).size;
    console.log(
      `lost COMMIT reply: sent ${sent.length}, acknowledged ${acked.filter(Boolean).length}, stored ${stored.length}, duplicated ${duplicated}`,
    );
    expect(acked.every(Boolean)).toBe(true);
    expect(stored).toEqual(sent);
    await client.endAsync();
  }, 30_000);
});
