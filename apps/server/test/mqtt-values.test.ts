import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { get as sparkplugNamespace } from 'sparkplug-payload';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../src/platform/db/ids';
import type {
  DeviceDirectory,
  DeviceIdentity,
  KnownDevice,
  ModelField,
} from '../src/modules/telemetry/device-directory';
import { startTelemetry, type TelemetryRuntime } from '../src/modules/telemetry';
import { connectDevice, useMigratedDatabase, type FakeDevice } from './support/mqtt-kit';

/**
 * Names, texts, times and numbers a device sends that PostgreSQL or the field cannot keep
 * (issue 26, points 4, 8 and 11; docs/mqtt.md "What a value must be"), through the embedded
 * broker into a real PostgreSQL: each is refused per field with its reason in the message log
 * and the acquisition row, the good fields of the same message are stored, every message is
 * acknowledged, and a good message of another device right after is stored and acknowledged
 * within a second.
 */

const spB = sparkplugNamespace('spBv1.0')!;
type Metric = NonNullable<Parameters<typeof spB.encodePayload>[0]['metrics']>[number];

const FIELDS: ModelField[] = [
  { field: 'count', dataType: 'int', unit: '', precision: 0 },
  { field: 'level', dataType: 'float', unit: 'mg/L', precision: 2 },
  { field: 'temp', dataType: 'float', unit: '°C', precision: 1 },
  { field: 'label', dataType: 'string', unit: '', precision: 0 },
];

const db = useMigratedDatabase();
const rows = db.rows;

/** Devices with their product and device rows (the online state lives in them). */
class Directory implements DeviceDirectory {
  readonly devices = new Map<string, FakeDevice>();
  async add(tenantId: string, deviceCode: string): Promise<FakeDevice> {
    const device: FakeDevice = {
      deviceId: nextId(),
      tenantId,
      deviceCode,
      productId: nextId(),
      fields: new Map(FIELDS.map((f) => [f.field, f])),
      inactivitySeconds: 600,
      clientId: `val-${deviceCode}-${randomBytes(3).toString('hex')}`,
      secret: randomBytes(12).toString('hex'),
    };
    await db.database.pool.query(
      `insert into mes_product (id, tenant_id, product_code, product_name) values ($1, $2, $3, $3)`,
      [device.productId, tenantId, `P-${deviceCode}`],
    );
    await db.database.pool.query(
      `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id) values ($1, $2, $3, $3, $4, $5)`,
      [device.deviceId, tenantId, deviceCode, device.productId, device.clientId],
    );
    this.devices.set(`${tenantId}/${deviceCode}`, device);
    return device;
  }
  authenticate(clientId: string, secret: string): Promise<DeviceIdentity | undefined> {
    const d = [...this.devices.values()].find((x) => x.clientId === clientId && x.secret === secret);
    return Promise.resolve(d && { tenantId: d.tenantId, deviceCode: d.deviceCode, deviceId: d.deviceId });
  }
  find(tenantId: string, deviceCode: string): Promise<KnownDevice | undefined> {
    return Promise.resolve(this.devices.get(`${tenantId}/${deviceCode}`));
  }
  markOnline(): Promise<void> {
    return Promise.resolve();
  }
}

const HOUR = 3_600_000;
const ACK_LIMIT_MS = 3000;

/** Publishes at QoS 1 and answers how long the PUBACK took; rejects when none came within 3 s. */
async function send(client: MqttClient, topic: string, payload: string | Buffer): Promise<number> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no PUBACK within ${ACK_LIMIT_MS} ms`)), ACK_LIMIT_MS);
  });
  try {
    await Promise.race([client.publishAsync(topic, payload, { qos: 1 }), late]);
  } finally {
    clearTimeout(timer);
  }
  return Math.round(performance.now() - started);
}

describe('values a field cannot keep, through the embedded broker', () => {
  const tenant = `v${randomBytes(4).toString('hex')}`;
  const directory = new Directory();
  let runtime: TelemetryRuntime;
  let port: number;
  let json: MqttClient;
  let other: MqttClient;
  let node: MqttClient;

  beforeAll(async () => {
    const [a, b, sp] = [
      await directory.add(tenant, 'V-1'),
      await directory.add(tenant, 'V-2'),
      await directory.add(tenant, 'V-SP'),
    ];
    runtime = await startTelemetry(
      {
        database: db.database,
        clock: { now: () => Date.now() },
        logs: { warn: () => undefined },
      },
      directory,
      { url: undefined, host: '127.0.0.1', port: 0, maxClockSkewSeconds: 300 },
      { batchDelayMs: 10 },
    );
    await runtime.ready;
    port = runtime.port() ?? 0;
    [json, other, node] = [await connectDevice(port, a), await connectDevice(port, b), await connectDevice(port, sp)];
  });
  afterAll(async () => {
    for (const client of [json, other, node]) await client?.endAsync(true);
    await runtime?.stop();
  });

  /**
   * The message list's row and acquisition row of the JSON message with this `seq`, and what it
   * stored. A stored message's payload is rebuilt from its values, ts and seq (docs/mqtt.md
   * "Stored once"); a refused one keeps the payload as sent.
   */
  async function outcome(seq: number) {
    const [log] = await rows<{ parsed_ok: boolean; error: string | null; payload: string }>(
      `select parsed_ok, error, payload from mes_mqtt_message
        where tenant_id = $1 and device_code = 'V-1' and (payload like $2 or payload like $3)`,
      [tenant, `{"seq":${seq},%`, `{"ts": %, "seq": ${seq}, "values": %`],
    );
    const [acq] = await rows<{ errors: string | null; data_values: Record<string, unknown> }>(
      `select errors, data_values from mes_acqdata where tenant_id = $1 and device_code = 'V-1' and seq = $2`,
      [tenant, seq],
    );
    return { log, acq };
  }

  /** Sends one JSON telemetry message of V-1 and checks it was acknowledged and logged as understood. */
  async function sendJson(seq: number, body: string, name: string) {
    const ms = await send(json, `mes/${tenant}/V-1/telemetry`, `{"seq":${seq},${body}}`);
    const found = await outcome(seq);
    expect(found.log?.parsed_ok).toBe(true);
    console.log(
      `[mqtt-values] ${name}: sent 1, acked 1 in ${ms} ms; stored ${JSON.stringify(found.acq?.data_values)}; refused: ${found.log?.error}`,
    );
    return found;
  }

  const levels = (seq: number) =>
    rows<{ field: string; num_value: string | null; text_value: string | null }>(
      `select t.field, t.num_value, t.text_value from mes_telemetry t
        where t.tenant_id = $1 and t.device_code = 'V-1' and t.field = 'level' and t.num_value = $2`,
      [tenant, seq + 0.25],
    );

  it('refuses a field name with NUL, names it escaped, and stores the message’s other field', async () => {
    const before = runtime.ingestion.counters.badText;
    const { log, acq } = await sendJson(1, String.raw`"values":{"a\u0000b":1,"level":1.25}`, 'NUL field name');
    const reason = String.raw`field name a\u0000b contains the control character U+0000`;
    expect(log?.error).toBe(reason);
    expect(acq?.errors).toBe(reason);
    expect(acq?.data_values).toEqual({ level: 1.25 });
    expect(await levels(1)).toHaveLength(1);
    expect(runtime.ingestion.counters.badText - before).toBe(1);
  });

  it('refuses a text with a lone surrogate and stores the message’s other field', async () => {
    const { log, acq } = await sendJson(2, String.raw`"values":{"label":"ok\ud800","level":2.25}`, 'lone surrogate');
    expect(log?.error).toBe(String.raw`label contains a lone surrogate U+D800 (broken UTF-16)`);
    expect(acq?.data_values).toEqual({ level: 2.25 });
    expect(await rows(`select 1 from mes_telemetry where tenant_id = $1 and field = 'label'`, [tenant])).toEqual([]);
  });

  it('stores a text with backslashes and quotes as sent (acquisition rows go in by COPY, which must escape them)', async () => {
    const { log, acq } = await sendJson(
      12,
      String.raw`"values":{"label":"C:\\run \"7\"\\n","level":12.25}`,
      'backslash and quotes',
    );
    expect(log?.error).toBeNull();
    expect(acq?.data_values).toEqual({ label: String.raw`C:\run "7"\n`, level: 12.25 });
  });

  it('stores multi-byte text as sent and the report time to the millisecond (binary COPY: byte lengths, microsecond times)', async () => {
    const ts = Date.now() - 1234;
    const { log, acq } = await sendJson(
      13,
      `"ts":${ts},"values":{"label":"温度 ℃ 🔥","level":13.25}`,
      'multi-byte text',
    );
    expect(log?.error).toBeNull();
    expect(acq?.data_values).toEqual({ label: '温度 ℃ 🔥', level: 13.25 });
    const [stored] = await rows<{ ms: string }>(
      `select (extract(epoch from collect_time) * 1000)::bigint::text as ms from mes_acqdata
        where tenant_id = $1 and device_code = 'V-1' and seq = 13`,
      [tenant],
    );
    expect(stored?.ms).toBe(String(ts));
  });

  it('refuses an over-long field name, saying so, and stores the message’s other field', async () => {
    const { log, acq } = await sendJson(3, `"values":{"${'n'.repeat(70)}":1,"level":3.25}`, 'over-long name');
    expect(log?.error).toBe(`field name ${'n'.repeat(64)}… is longer than 64 characters (70)`);
    expect(acq?.data_values).toEqual({ level: 3.25 });
  });

  it('refuses an integer beyond 2^53 − 1 for an int field instead of storing …992', async () => {
    const before = runtime.ingestion.counters.inexact;
    const { log, acq } = await sendJson(4, `"values":{"count":9007199254740993,"level":4.25}`, '9007199254740993');
    expect(log?.error).toBe('count is beyond ±9007199254740991, the largest integer kept exactly');
    expect(acq?.data_values).toEqual({ level: 4.25 });
    expect(await rows(`select 1 from mes_telemetry where tenant_id = $1 and field = 'count'`, [tenant])).toEqual([]);
    expect(runtime.ingestion.counters.inexact - before).toBe(1);
  });

  it('refuses 1e-300 for a float field instead of storing 0', async () => {
    const { log, acq } = await sendJson(5, `"values":{"temp":1e-300,"level":5.25}`, '1e-300');
    expect(log?.error).toBe(
      'temp 1e-300 is smaller than 0.000001, the least the column keeps: it would be stored as 0',
    );
    expect(acq?.data_values).toEqual({ level: 5.25 });
    expect(await rows(`select 1 from mes_telemetry where tenant_id = $1 and field = 'temp'`, [tenant])).toEqual([]);
  });

  it('refuses a point 23 h ahead per field; it never becomes the latest value, later points do', async () => {
    const now = Date.now();
    const latest = () =>
      rows<{ num_value: string }>(
        `select latest -> 'temp' ->> 'v' as num_value from mes_device_latest where tenant_id = $1 and device_code = 'V-1'`,
        [tenant],
      );
    await sendJson(6, `"ts":${now - 2000},"values":{"temp":20}`, 'before the future point');
    const before = runtime.ingestion.counters.aheadOfClock;
    const { log, acq } = await sendJson(7, `"ts":${now + 23 * HOUR},"values":{"temp":99,"level":7.25}`, '23 h ahead');
    expect((await latest()).map((r) => r.num_value)).toEqual(['20']);
    const reason = `ts is 82800 s (23 h) ahead of the server's clock, more than the 300 s allowed`;
    expect(log?.error).toBe(`temp: ${reason}; level: ${reason}`);
    expect(acq?.errors).toBe(log?.error);
    expect(acq?.data_values).toEqual({});
    expect(runtime.ingestion.counters.aheadOfClock - before).toBe(2);
    expect(
      await rows(`select 1 from mes_telemetry where tenant_id = $1 and ts > now() + interval '1 hour'`, [tenant]),
    ).toEqual([]);
    await sendJson(8, `"ts":${now - 1000},"values":{"temp":21}`, 'after the future point');
    expect((await latest()).map((r) => r.num_value)).toEqual(['21']);
  });

  it('refuses a Sparkplug metric named with NUL and a metric 23 h ahead, and drops a seq beyond int4; the other metrics and the birth are stored', async () => {
    const topic = `spBv1.0/${tenant}`;
    const now = Date.now();
    const metrics: Metric[] = [
      { name: 'bdSeq', type: 'UInt64', value: 1 },
      { name: 'a\u0000b', alias: 1, type: 'Int32', value: 1 },
      { name: 'count', alias: 2, type: 'Int32', value: 7 },
      { name: 'level', alias: 3, type: 'Float', value: 1.5 },
    ];
    const ms = await send(
      node,
      `${topic}/NBIRTH/V-SP`,
      Buffer.from(spB.encodePayload({ timestamp: now, seq: 0, metrics })),
    );
    const data = await send(
      node,
      `${topic}/NDATA/V-SP`,
      Buffer.from(
        spB.encodePayload({
          timestamp: now,
          seq: 1,
          metrics: [
            { alias: 2, type: 'Int32', value: 8, timestamp: now + 23 * HOUR },
            { alias: 3, type: 'Float', value: 2.5 },
          ],
        }),
      ),
    );
    // A seq beyond int4 (the protobuf field is a uint64) would fail the acquisition insert.
    const wide = await send(
      node,
      `${topic}/NDATA/V-SP`,
      Buffer.from(
        spB.encodePayload({ timestamp: now, seq: 2 ** 33, metrics: [{ alias: 3, type: 'Float', value: 3.5 }] }),
      ),
    );
    const acq = await rows<{ seq: number | null; errors: string | null; data_values: Record<string, unknown> }>(
      `select seq, errors, data_values from mes_acqdata where tenant_id = $1 and device_code = 'V-SP' order by seq nulls last`,
      [tenant],
    );
    console.log(
      `[mqtt-values] Sparkplug NUL metric name + metric 23 h ahead + seq 2^33: sent 3, acked 3 (${ms} ms, ${data} ms, ${wide} ms); stored ${JSON.stringify(acq.map((r) => r.data_values))}; refused: ${acq.map((r) => r.errors).join(' | ')}`,
    );
    expect(acq).toEqual([
      {
        seq: 0,
        errors: String.raw`metric name a\u0000b contains the control character U+0000`,
        data_values: { count: 7, level: 1.5 },
      },
      {
        seq: 1,
        errors: `count: ts is 82800 s (23 h) ahead of the server's clock, more than the 300 s allowed`,
        data_values: { level: 2.5 },
      },
      { seq: null, errors: null, data_values: { level: 3.5 } },
    ]);
    const [birth] = await rows<{ metrics: { name: string }[] }>(
      `select metrics from mes_sparkplug_birth where tenant_id = $1 and edge_node = 'V-SP'`,
      [tenant],
    );
    expect(birth?.metrics.map((m) => m.name)).toEqual(['bdSeq', 'count', 'level']);
    // As the message list reads it, within a time range: the row holding the metric of another
    // time has no receive time of its own (its message is the row before it).
    const logged = await rows<{ parsed_ok: boolean; payload: string }>(
      `select parsed_ok, payload from mes_mqtt_message
        where tenant_id = $1 and device_code = 'V-SP' and create_time > '-infinity'`,
      [tenant],
    );
    expect(logged.map((r) => r.parsed_ok)).toEqual([true, true, true]);
  });

  it('logs a payload with a raw NUL escaped, and refuses a cycle whose figure name PostgreSQL cannot store, saying why', async () => {
    const raw = Buffer.from('{"values":{"level":1}}\u0000', 'utf8');
    await send(json, `mes/${tenant}/V-1/telemetry`, raw);
    const cycle = `{"start":${Date.now() - 60_000},"end":${Date.now()},"result":"pass","a\\u0000b":1}`;
    await send(json, `mes/${tenant}/V-1/cycle`, cycle);
    const logged = await rows<{ topic: string; payload: string; parsed_ok: boolean; error: string }>(
      `select topic, payload, parsed_ok, error from mes_mqtt_message
        where tenant_id = $1 and device_code = 'V-1' and parsed_ok = false order by create_time`,
      [tenant],
    );
    console.log(
      `[mqtt-values] raw NUL payload + cycle with a NUL figure name: sent 2, acked 2; logged ${JSON.stringify(logged)}`,
    );
    expect(logged).toEqual([
      {
        topic: `mes/${tenant}/V-1/telemetry`,
        payload: '{"values":{"level":1}}\\u0000',
        parsed_ok: false,
        error: 'payload is not JSON',
      },
      {
        topic: `mes/${tenant}/V-1/cycle`,
        payload: cycle,
        parsed_ok: false,
        error: 'cycle not stored: cycle figure name a\\u0000b contains the control character U+0000',
      },
    ]);
  });

  it('goes on: a good message of another device right after is stored and acknowledged within a second', async () => {
    const ms = await send(other, `mes/${tenant}/V-2/telemetry`, JSON.stringify({ values: { level: 9.5 } }));
    const stored = await rows<{ num_value: string }>(
      `select num_value from mes_telemetry where tenant_id = $1 and device_code = 'V-2'`,
      [tenant],
    );
    console.log(`[mqtt-values] good message after the refusals: sent 1, acked 1 in ${ms} ms, stored ${stored.length}`);
    expect(stored.map((r) => r.num_value)).toEqual(['9.500000']);
    expect(ms).toBeLessThan(1000);
    expect(runtime.ingestion.counters.failedBatches).toBe(0);
  });
});
