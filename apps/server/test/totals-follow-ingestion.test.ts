import { type MqttClient } from 'mqtt';
import { DEVICE_ROTATE_SECRET_PATH, type DeviceSecretReply } from '@mes/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import { startEmbeddedTelemetry } from './support/embedded-telemetry';
import { connectWithSecret } from './support/pg-telemetry';
import { DEMO_DEVICES, WATERLINE_PRODUCT } from '../src/seed/demo-devices';
import { waitFor } from './support/mqtt-kit';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 27 point 6: list totals are cached (engine/page-totals.ts), and the lists ingestion fills
 * must not keep a total counted before their rows came. Each list is read first while empty, so
 * its total 0 is cached; then a device connects, publishes through the embedded broker and
 * disconnects, and every total follows within seconds (engine/totals-invalidation.ts).
 */

let t: TestApp;
let runtime: TelemetryRuntime;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  runtime = await startEmbeddedTelemetry(t.ctx);
  token = (await t.signIn()).access_token;
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  await t?.close();
});

const get = async (url: string) => {
  const reply = await t.as(token, { method: 'GET', url });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json().data;
};
const total = async (url: string) => Number((await get(url)).total);
const count = async (table: string) =>
  Number((await t.database.pool.query<{ n: string }>(`select count(*)::text as n from ${table}`)).rows[0]?.n);

/**
 * Polls until the list's total is what the table holds, or fails after 10 s. `expected`, when
 * given, is what the table must hold; else the list must not be empty.
 */
async function follows(url: string, table: string, expected?: number): Promise<void> {
  if (expected === undefined) expect(await count(table)).toBeGreaterThan(0);
  else expect(await count(table)).toBe(expected);
  await waitFor(async () => (await total(url)) === (await count(table)), 10_000).catch(async () => {
    throw new Error(`${url}: total ${await total(url)}, the table holds ${await count(table)}`);
  });
}

const publish = (client: MqttClient, topic: string, payload: string) =>
  new Promise<void>((resolve, reject) =>
    client.publish(topic, payload, { qos: 1 }, (error) => (error ? reject(error) : resolve())),
  );

describe('list totals after ingestion (issue 27)', () => {
  const waterline = DEMO_DEVICES.find((d) => d.productCode === WATERLINE_PRODUCT.productCode);
  if (!waterline) throw new Error('no demo waterline device');
  const code = waterline.deviceCode;
  const lists = {
    iot: '/api/blade-business/iot/page?current=1&size=10',
    acqdata: '/api/report/acqdata/list?current=1&size=10',
    deviceAcqdata: `/api/report/acqdata/list?current=1&size=10&deviceCode=${code}`,
    mqtt: '/api/blade-business/mqtt/page?current=1&size=10',
    onoff: '/api/blade-business/onoff/list?current=1&size=10',
    warning: '/api/report/warning/list?current=1&size=10',
  };

  /** The waterline device, with a new secret, connected to the embedded broker. */
  async function connect(): Promise<{ client: MqttClient; secret: DeviceSecretReply }> {
    const [row] = (await get(`/api/basic/device/list?deviceCode=${code}`)).records as { id: string }[];
    const reply = await t.as(token, { method: 'POST', url: `/api${DEVICE_ROTATE_SECRET_PATH}?id=${row?.id}` });
    const secret = reply.json().data as DeviceSecretReply;
    const client = await connectWithSecret(runtime.port(), secret);
    return { client, secret };
  }

  it('IoT data, acquisition data, MQTT messages, on/off records and warnings counted before the data follow it', async () => {
    for (const url of Object.values(lists)) expect(await total(url)).toBe(0);

    const { client, secret } = await connect();
    // Two values each; the first message's tank level is under an alarm threshold of the product (10).
    const N = 30;
    await Promise.all(
      Array.from({ length: N }, (_, i) =>
        publish(client, `${secret.topicPrefix}/telemetry`, JSON.stringify({ ph: 7, tankLevel: i === 0 ? 5 : 50 })),
      ),
    );

    await follows(lists.iot, 'mes_telemetry', 2 * N);
    await follows(lists.acqdata, 'mes_acqdata', N);
    await follows(lists.deviceAcqdata, 'mes_acqdata', N);
    await follows(lists.mqtt, 'mes_mqtt_message', N);
    await follows(lists.onoff, 'mes_onoff', 1);
    await follows(lists.warning, 'mes_warning');

    // The device's list again, its total now cached at N: newer rows move it too.
    await Promise.all(
      Array.from({ length: 5 }, () => publish(client, `${secret.topicPrefix}/telemetry`, JSON.stringify({ ph: 7.1 }))),
    );
    await follows(lists.deviceAcqdata, 'mes_acqdata', N + 5);
    await follows(lists.mqtt, 'mes_mqtt_message', N + 5);

    // A normal disconnect closes the connection period: its offline record.
    await new Promise<void>((resolve) => client.end(false, {}, () => resolve()));
    await waitFor(async () => (await count('mes_onoff')) === 2, 10_000);
    await follows(lists.onoff, 'mes_onoff', 2);
    // Each wait is bounded (10 s); a loaded machine makes their sum longer than the default 30 s.
  }, 120_000);

  it('MQTT messages set aside as dead letters, written outside any batch, move the list’s total too', async () => {
    const deadLetters = `/api/blade-business/mqtt/page?current=1&size=10&error=${encodeURIComponent('dead letter')}`;
    expect(await total(deadLetters)).toBe(0);
    // A sequence number PostgreSQL refuses that no parse check knows of: the message fails alone.
    const POISON = 86_420;
    await t.database.pool.query(
      `alter table mes_acqdata add constraint test_poison check (seq is distinct from ${POISON})`,
    );
    const { client, secret } = await connect();
    try {
      await publish(client, `${secret.topicPrefix}/telemetry`, JSON.stringify({ seq: POISON, ph: 7 }));
      const dead = `(select * from mes_mqtt_message where error like 'dead letter%') as dead`;
      await follows(deadLetters, dead, 1);
    } finally {
      await t.database.pool.query(`alter table mes_acqdata drop constraint test_poison`);
      await client.endAsync();
    }
  });
});
