import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { get as sparkplugNamespace } from 'sparkplug-payload';
import type * as SparkplugProto from 'sparkplug-payload/lib/sparkplugPayloadProto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../src/platform/db/ids';
import type {
  DeviceDirectory,
  DeviceIdentity,
  KnownDevice,
  ModelField,
} from '../src/modules/telemetry/device-directory';
import { startTelemetry, type TelemetryRuntime } from '../src/modules/telemetry';
import { createDeviceDirectory } from '../src/modules/device';
import { createTestApp, type TestApp } from './support/test-app';
import { connectDevice, useMigratedDatabase, waitFor, type FakeDevice } from './support/mqtt-kit';

/**
 * Sparkplug B ingestion against real brokers (docs/mqtt.md "Sparkplug B"): the embedded aedes
 * broker with device credentials and the machine's Mosquitto through the shared subscription.
 * Payloads are encoded with the same `sparkplug-payload` package the server decodes with.
 */

const spB = sparkplugNamespace('spBv1.0')!;
type Metric = NonNullable<Parameters<typeof spB.encodePayload>[0]['metrics']>[number];
const encode = (metrics: Metric[], seq: number, timestamp = Date.now()) =>
  Buffer.from(spB.encodePayload({ timestamp, seq, metrics }));
/** A data message whose metrics carry only an alias and a value, no datatype (Sparkplug allows it). */
const proto = createRequire(import.meta.url)('sparkplug-payload/lib/sparkplugPayloadProto.js') as typeof SparkplugProto;
const encodeUntyped = (
  metrics: { alias: number; intValue?: number; floatValue?: number; booleanValue?: boolean }[],
  seq: number,
) => Buffer.from(proto.org.eclipse.tahu.protobuf.Payload.encode({ timestamp: Date.now(), seq, metrics }).finish());

const FIELDS: ModelField[] = [
  { field: 'temperature', dataType: 'int', unit: '°C', precision: 0 },
  { field: 'chlorine', dataType: 'float', unit: 'mg/L', precision: 2, scaling: { multiplier: 0.1, offset: 0 } },
  { field: 'running', dataType: 'bool', unit: '', precision: 0 },
];

const db = useMigratedDatabase();

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
      clientId: `sp-${deviceCode}-${randomBytes(3).toString('hex')}`,
      secret: randomBytes(12).toString('hex'),
    };
    await db.database.pool.query(
      `insert into mes_product (id, tenant_id, product_code, product_name, protocol) values ($1, $2, $3, $3, 'sparkplug-b')`,
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

const ctx = () => ({
  database: db.database,
  clock: { now: () => Date.now() },
  logs: { warn: () => undefined },
});

const rows = db.rows;

const publish = (client: MqttClient, topic: string, payload: Buffer) =>
  client.publishAsync(topic, payload, { qos: 1 }).then(() => undefined);

const telemetryOf = (tenant: string, deviceCode: string) =>
  rows<{ field: string; num_value: string }>(
    `select field, num_value from mes_telemetry where tenant_id = $1 and device_code = $2 order by ts, field`,
    [tenant, deviceCode],
  );

const onoffOf = (tenant: string, deviceCode: string) =>
  rows<{ event: string; reason: string }>(
    `select event, reason from mes_onoff where tenant_id = $1 and device_code = $2 order by create_time, event desc`,
    [tenant, deviceCode],
  );

describe('Sparkplug B on the embedded broker', () => {
  const tenant = `k${randomBytes(4).toString('hex')}`;
  const directory = new Directory();
  let runtime: TelemetryRuntime;
  let port: number;
  let edge: FakeDevice;
  let washer: FakeDevice;

  beforeAll(async () => {
    edge = await directory.add(tenant, 'EDGE-1');
    washer = await directory.add(tenant, 'WL-S');
    runtime = await startTelemetry(
      ctx(),
      directory,
      { url: undefined, host: '127.0.0.1', port: 0 },
      { batchDelayMs: 5 },
    );
    await runtime.ready;
    port = runtime.port() ?? 0;
  });
  afterAll(async () => {
    await runtime.stop();
  });

  it('stores a node birth and alias-only data, counts an unknown alias, and takes the death certificate as last will', async () => {
    const node = `spBv1.0/${tenant}`;
    // The death certificate is the connection's will, with the bdSeq of the birth that follows.
    const client = await connectDevice(port, edge, {
      will: {
        topic: `${node}/NDEATH/EDGE-1`,
        payload: encode([{ name: 'bdSeq', type: 'UInt64', value: 4 }], 0),
        qos: 1,
        retain: false,
      },
    });
    const born = Date.now() - 1000;
    await publish(
      client,
      `${node}/NBIRTH/EDGE-1`,
      encode(
        [
          { name: 'bdSeq', type: 'UInt64', value: 4 },
          { name: 'Node Control/Rebirth', type: 'Boolean', value: false },
          { name: 'temperature', alias: 1, type: 'Int32', value: 20 },
          { name: 'chlorine', alias: 2, type: 'Float', value: 40 },
          { name: 'running', alias: 3, type: 'Boolean', value: true },
        ],
        0,
        born,
      ),
    );
    await publish(
      client,
      `${node}/NDATA/EDGE-1`,
      encode(
        [
          { alias: 1, type: 'Int32', value: 21 },
          { alias: 9, type: 'Int32', value: 5 },
        ],
        1,
      ),
    );
    const before = { ...runtime.ingestion.counters };
    await publish(client, `${node}/NDATA/EDGE-1`, encodeUntyped([{ alias: 2, floatValue: 55 }], 2));
    expect(runtime.ingestion.counters.unknownAlias).toBe(1);
    expect(runtime.ingestion.counters.wrongType - before.wrongType).toBe(0);

    expect(await telemetryOf(tenant, 'EDGE-1')).toEqual([
      { field: 'chlorine', num_value: '4.000000' },
      { field: 'running', num_value: '1.000000' },
      { field: 'temperature', num_value: '20.000000' },
      { field: 'temperature', num_value: '21.000000' },
      { field: 'chlorine', num_value: '5.500000' },
    ]);
    const acq = await rows<{
      data_values: Record<string, unknown>;
      errors: string | null;
      protocol: string;
      seq: number;
      gateway: string;
      group_id: string;
      collect_time: Date;
    }>(
      `select data_values, errors, protocol, seq, gateway, group_id, collect_time from mes_acqdata
        where tenant_id = $1 and device_code = 'EDGE-1' order by seq`,
      [tenant],
    );
    expect(acq.map((r) => [r.seq, r.data_values, r.errors])).toEqual([
      [0, { temperature: 20, chlorine: 4, running: 1 }, null],
      [1, { temperature: 21 }, 'unknown alias 9'],
      [2, { chlorine: 5.5 }, null],
    ]);
    expect(acq.every((r) => r.protocol === 'sparkplug' && r.gateway === 'EDGE-1' && r.group_id === tenant)).toBe(true);
    expect(acq[0]?.collect_time.getTime()).toBe(born);
    // The log keeps the decoded payload, readable, not the protobuf bytes.
    const [logged] = await rows<{ payload: string; parsed_ok: boolean }>(
      `select payload, parsed_ok from mes_mqtt_message where tenant_id = $1 and topic like '%/NBIRTH/%'`,
      [tenant],
    );
    expect(logged?.parsed_ok).toBe(true);
    expect(JSON.parse(logged?.payload ?? '{}')).toMatchObject({ seq: 0, metrics: expect.any(Array) });

    // A dropped connection: the broker publishes the NDEATH will.
    client.stream.destroy();
    client.end(true);
    await waitFor(async () => (await onoffOf(tenant, 'EDGE-1')).length === 2);
    expect(await onoffOf(tenant, 'EDGE-1')).toEqual([
      { event: 'online', reason: 'normal' },
      { event: 'offline', reason: 'last-will' },
    ]);
  });

  it('births, resolves and kills a device behind an edge node; an NDEATH of an older birth is ignored', async () => {
    const node = `spBv1.0/${tenant}`;
    const edgeClient = await connectDevice(port, edge);
    await publish(edgeClient, `${node}/NBIRTH/EDGE-1`, encode([{ name: 'bdSeq', type: 'UInt64', value: 5 }], 0));
    const device = await connectDevice(port, washer);
    await publish(
      device,
      `${node}/DBIRTH/EDGE-1/WL-S`,
      encode(
        [
          { name: 'temperature', alias: 11, type: 'Int16', value: 30 },
          { name: 'colour', alias: 12, type: 'String', value: 'blue' },
        ],
        1,
      ),
    );
    await publish(device, `${node}/DDATA/EDGE-1/WL-S`, encode([{ alias: 11, type: 'Int16', value: 31 }], 2));
    await publish(device, `${node}/DDEATH/EDGE-1/WL-S`, encode([], 3));
    expect((await telemetryOf(tenant, 'WL-S')).map((r) => r.num_value)).toEqual(['30.000000', '31.000000']);
    const [birth] = await rows<{ errors: string }>(
      `select errors from mes_acqdata where tenant_id = $1 and device_code = 'WL-S' and seq = 1`,
      [tenant],
    );
    expect(birth?.errors).toBe('unknown field colour');
    expect(await onoffOf(tenant, 'WL-S')).toEqual([
      { event: 'online', reason: 'normal' },
      { event: 'offline', reason: 'last-will' },
    ]);

    // Born again under the node; the node's stale death (bdSeq 4) changes nothing, its current one
    // (bdSeq 5) takes the node and its device offline.
    await publish(
      device,
      `${node}/DBIRTH/EDGE-1/WL-S`,
      encode([{ name: 'temperature', alias: 11, type: 'Int16', value: 32 }], 4),
    );
    const before = runtime.ingestion.counters.staleDeath;
    await publish(edgeClient, `${node}/NDEATH/EDGE-1`, encode([{ name: 'bdSeq', type: 'UInt64', value: 4 }], 0));
    expect(runtime.ingestion.counters.staleDeath - before).toBe(1);
    const state = () =>
      rows<{ device_code: string; online: boolean }>(
        `select device_code, online from mes_device where tenant_id = $1 order by device_code`,
        [tenant],
      );
    expect(await state()).toEqual([
      { device_code: 'EDGE-1', online: true },
      { device_code: 'WL-S', online: true },
    ]);
    await publish(edgeClient, `${node}/NDEATH/EDGE-1`, encode([{ name: 'bdSeq', type: 'UInt64', value: 5 }], 0));
    expect(await state()).toEqual([
      { device_code: 'EDGE-1', online: false },
      { device_code: 'WL-S', online: false },
    ]);
    expect((await onoffOf(tenant, 'WL-S')).map((r) => `${r.event}/${r.reason}`)).toEqual([
      'online/normal',
      'offline/last-will',
      'online/normal',
      'offline/last-will',
    ]);
    await device.endAsync();
    await edgeClient.endAsync();
  });

  it('refuses a device publishing Sparkplug as another device or in another group', async () => {
    const other = `spBv1.0/${tenant}/DDATA/EDGE-1/EDGE-1`;
    for (const topic of [other, `spBv1.0/000000/DDATA/EDGE-1/WL-S`, `spBv1.0/${tenant}/NDATA/WL-T`]) {
      const client = await connectDevice(port, washer);
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      client.publish(topic, encode([{ name: 'temperature', type: 'Int32', value: 99 }], 9), { qos: 1 });
      await closed;
      client.end(true);
    }
    await runtime.ingestion.drain();
    const stored = await rows(`select 1 from mes_telemetry where num_value = 99`);
    expect(stored).toHaveLength(0);
    const logged = await rows(
      `select 1 from mes_mqtt_message where payload like '%99%' and topic like '%DDATA/EDGE-1/EDGE-1'`,
    );
    expect(logged).toHaveLength(0);
  });
});

describe('Sparkplug B births shared by processes', () => {
  it('resolves data in one process against births another process received, and follows rebirths', async () => {
    const tenant = `r${randomBytes(4).toString('hex')}`;
    const directory = new Directory();
    const edge = await directory.add(tenant, 'EDGE-2');
    const device = await directory.add(tenant, 'WL-2');
    const config = { url: undefined, host: '127.0.0.1', port: 0 };
    const one = await startTelemetry(ctx(), directory, config, { batchDelayMs: 5 });
    const two = await startTelemetry(ctx(), directory, config, { batchDelayMs: 5 });
    try {
      await Promise.all([one.ready, two.ready]);
      const node = `spBv1.0/${tenant}`;
      const edgeOne = await connectDevice(one.port() ?? 0, edge);
      const edgeTwo = await connectDevice(two.port() ?? 0, edge);
      const deviceOne = await connectDevice(one.port() ?? 0, device);
      const deviceTwo = await connectDevice(two.port() ?? 0, device);
      // Births through process one only.
      await publish(
        edgeOne,
        `${node}/NBIRTH/EDGE-2`,
        encode(
          [
            { name: 'bdSeq', type: 'UInt64', value: 1 },
            { name: 'temperature', alias: 1, type: 'Int32', value: 10 },
          ],
          0,
        ),
      );
      await publish(
        deviceOne,
        `${node}/DBIRTH/EDGE-2/WL-2`,
        encode([{ name: 'running', alias: 2, type: 'Boolean', value: false }], 1),
      );
      // Data through process two, which never saw them: resolved from the stored births.
      await publish(edgeTwo, `${node}/NDATA/EDGE-2`, encode([{ alias: 1, type: 'Int32', value: 11 }], 2));
      await publish(deviceTwo, `${node}/DDATA/EDGE-2/WL-2`, encodeUntyped([{ alias: 2, booleanValue: true }], 3));
      expect(two.ingestion.counters.unknownAlias).toBe(0);
      // A rebirth in process one gives alias 1 another metric; process two follows it.
      await publish(
        edgeOne,
        `${node}/NBIRTH/EDGE-2`,
        encode(
          [
            { name: 'bdSeq', type: 'UInt64', value: 2 },
            { name: 'chlorine', alias: 1, type: 'Float', value: 30 },
          ],
          0,
        ),
      );
      await publish(edgeTwo, `${node}/NDATA/EDGE-2`, encode([{ alias: 1, type: 'Float', value: 31 }], 1));
      expect(await telemetryOf(tenant, 'EDGE-2')).toEqual([
        { field: 'temperature', num_value: '10.000000' },
        { field: 'temperature', num_value: '11.000000' },
        { field: 'chlorine', num_value: '3.000000' },
        { field: 'chlorine', num_value: '3.100000' },
      ]);
      // The device's rows: its birth and its untyped data (the birth's Boolean type read it).
      const running = await rows<{ field: string; num_value: string }>(
        `select field, num_value from mes_telemetry where tenant_id = $1 and device_code = 'WL-2' order by ts`,
        [tenant],
      );
      expect(running).toEqual([
        { field: 'running', num_value: '0.000000' },
        { field: 'running', num_value: '1.000000' },
      ]);
      // The rebirth dropped WL-2's birth (devices are born again after their node): born again.
      await publish(
        deviceOne,
        `${node}/DBIRTH/EDGE-2/WL-2`,
        encode([{ name: 'running', alias: 2, type: 'Boolean', value: true }], 2),
      );
      // Process two judges deaths by the stored bdSeq: the old one is stale, the current one ends node and device.
      await publish(edgeTwo, `${node}/NDEATH/EDGE-2`, encode([{ name: 'bdSeq', type: 'UInt64', value: 1 }], 0));
      expect(two.ingestion.counters.staleDeath).toBe(1);
      await publish(edgeTwo, `${node}/NDEATH/EDGE-2`, encode([{ name: 'bdSeq', type: 'UInt64', value: 2 }], 0));
      const state = await rows<{ device_code: string; online: boolean }>(
        `select device_code, online from mes_device where tenant_id = $1 order by device_code`,
        [tenant],
      );
      expect(state).toEqual([
        { device_code: 'EDGE-2', online: false },
        { device_code: 'WL-2', online: false },
      ]);
      const births = await rows(`select 1 from mes_sparkplug_birth where tenant_id = $1`, [tenant]);
      expect(births).toHaveLength(0);
      await Promise.all([edgeOne, edgeTwo, deviceOne, deviceTwo].map((c) => c.endAsync()));
    } finally {
      await one.stop();
      await two.stop();
    }
  }, 30_000);
});

describe("Sparkplug B through the machine's Mosquitto", () => {
  it('reads births, data and deaths from the shared subscription', async () => {
    const tenant = `q${randomBytes(4).toString('hex')}`;
    const directory = new Directory();
    await directory.add(tenant, 'GW-1');
    await directory.add(tenant, 'ST-9');
    const rt = await startTelemetry(
      ctx(),
      directory,
      { url: 'mqtt://127.0.0.1:1883', host: '127.0.0.1', port: 0 },
      // A group and filters of the test's own: other runs share the machine's Mosquitto.
      {
        batchDelayMs: 5,
        shareGroup: `test-${tenant}`,
        ingestTopic: `mes/${tenant}/+/+`,
        sparkplugTopic: `spBv1.0/${tenant}/+/+/#`,
      },
    );
    const publisher = await mqtt.connectAsync('mqtt://127.0.0.1:1883', { protocolVersion: 5, reconnectPeriod: 0 });
    try {
      await rt.ready;
      const node = `spBv1.0/${tenant}`;
      const send = (topic: string, payload: Buffer) => publisher.publishAsync(topic, payload, { qos: 1 });
      await send(`${node}/NBIRTH/GW-1`, encode([{ name: 'bdSeq', type: 'Int64', value: 0 }], 0));
      await send(`${node}/DBIRTH/GW-1/ST-9`, encode([{ name: 'temperature', alias: 1, type: 'Int32', value: 121 }], 1));
      await send(`${node}/DDATA/GW-1/ST-9`, encode([{ alias: 1, type: 'Int32', value: 134 }], 2));
      await send(`${node}/DDEATH/GW-1/ST-9`, encode([], 3));
      await waitFor(async () => (await onoffOf(tenant, 'ST-9')).length === 2);
      await rt.ingestion.drain();
      expect((await telemetryOf(tenant, 'ST-9')).map((r) => r.num_value)).toEqual(['121.000000', '134.000000']);
      const acq = await rows<{ seq: number; gateway: string }>(
        `select seq, gateway from mes_acqdata where tenant_id = $1 and device_code = 'ST-9' order by seq`,
        [tenant],
      );
      expect(acq).toEqual([
        { seq: 1, gateway: 'GW-1' },
        { seq: 2, gateway: 'GW-1' },
      ]);
      expect(await onoffOf(tenant, 'ST-9')).toEqual([
        { event: 'online', reason: 'normal' },
        { event: 'offline', reason: 'last-will' },
      ]);
      // The node itself is a device too: its birth put it online.
      expect(await onoffOf(tenant, 'GW-1')).toEqual([{ event: 'online', reason: 'normal' }]);
    } finally {
      await publisher.endAsync();
      await rt.stop();
    }
  }, 30_000);
});

describe('acquisition data in the console', () => {
  let t: TestApp;
  let admin: string;
  type Body = Record<string, unknown>;
  const as = (method: 'GET' | 'POST', url: string, payload?: Body) =>
    t.app.inject({ method, url, payload, headers: { 'blade-auth': `bearer ${admin}` } });

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.signIn()).access_token;
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it('lists and details the reports of a Sparkplug device registered through the console', async () => {
    const product = await as('POST', '/api/basic/product/submit', {
      productCode: 'SP-P',
      productName: 'Sparkplug 灭菌器',
      category: 2,
      protocol: 'sparkplug-b',
      fields: [
        { fieldKey: 'chamberTemp', fieldName: '腔体温度', dataType: 'float', unit: '℃', precision: 1, access: 'r' },
      ],
    });
    expect(product.json(), product.body).toMatchObject({ success: true });
    const created = await as('POST', '/api/basic/device/submit', {
      deviceCode: 'SP-1',
      deviceName: '一号灭菌器',
      productId: product.json().data as string,
    });
    const deviceId = created.json().data as string;
    const secret = (await as('POST', `/api/basic/device/rotate-secret?id=${deviceId}&first=1`)).json().data as {
      clientId: string;
      secret: string;
    };
    const rt = await startTelemetry(t.ctx, createDeviceDirectory(t.ctx), {
      url: undefined,
      host: '127.0.0.1',
      port: 0,
    });
    try {
      await rt.ready;
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${rt.port() ?? 0}`, {
        protocolVersion: 4,
        clientId: secret.clientId,
        username: secret.clientId,
        password: secret.secret,
        reconnectPeriod: 0,
      });
      // The platform tenant's group, the device's own code as the edge node.
      await publish(
        client,
        'spBv1.0/000000/NBIRTH/SP-1',
        encode(
          [
            { name: 'bdSeq', type: 'UInt64', value: 0 },
            { name: 'chamberTemp', alias: 1, type: 'Double', value: 121.04 },
          ],
          0,
        ),
      );
      await publish(client, 'spBv1.0/000000/NDATA/SP-1', encode([{ alias: 1, type: 'Double', value: 134.26 }], 1));
      // Acknowledged after the commit: online already (the disconnect below would take it offline).
      const device = (await as('GET', `/api/basic/device/detail?id=${deviceId}`)).json().data as Body;
      expect(device).toMatchObject({ online: true });
      expect(device.lastActivityTime).toBeTruthy();
      await client.endAsync();

      const list = await as('GET', '/api/report/acqdata/list?current=1&size=10&deviceCode=SP-1');
      expect(list.statusCode, list.body).toBe(200);
      const records = list.json().data.records as Body[];
      expect(records.map((r) => [r.seq, r.dataValues, r.protocol, r.gateway, r.groupId])).toEqual([
        [1, { chamberTemp: 134.3 }, 'sparkplug', 'SP-1', '000000'],
        [0, { chamberTemp: 121 }, 'sparkplug', 'SP-1', '000000'],
      ]);
      const detail = await as('GET', `/api/report/acqdata/detail?id=${String(records[0]?.id)}`);
      expect(detail.json().data).toMatchObject({ deviceCode: 'SP-1', topic: 'spBv1.0/000000/NDATA/SP-1', seq: 1 });
    } finally {
      await rt.stop();
    }
  }, 30_000);
});
