import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useMigratedDatabase, waitFor } from './support/mqtt-kit';
import { bundleIngestProcess, IngestChild } from './support/ingest-child';

/**
 * The external subscriber's maximum packet size (issue 26, point 5) on the machine's Mosquitto: it
 * sends `MQTT_MAX_PACKET_BYTES` (256 KB) as its MQTT 5 Maximum Packet Size, so Mosquitto drops a
 * larger message for it instead of sending it; its connection and the other messages go on.
 */

const BROKER = 'mqtt://127.0.0.1:1883';
const db = useMigratedDatabase();
let entry: string;

beforeAll(async () => {
  entry = await bundleIngestProcess('external-size');
}, 60_000);

afterAll(() => {
  fs.rmSync(entry, { force: true });
});

describe("a message over the maximum packet size (the machine's Mosquitto)", () => {
  it('never reaches the subscriber, whose session goes on storing the others', async () => {
    const tenant = `x${randomBytes(4).toString('hex')}`;
    const server = new IngestChild(entry, {
      DATABASE_URL: db.url,
      MQTT_URL: BROKER,
      TENANT: tenant,
      DEVICES: '1',
      SHARE_GROUP: `size-${tenant}`,
      CLIENT_ID: `size-${tenant}`,
      SESSION_EXPIRY: '5',
      REPORT_MS: '50',
    });
    try {
      await server.ready;
      const publisher = await mqtt.connectAsync(BROKER, { protocolVersion: 5, reconnectPeriod: 0 });
      const topic = `mes/${tenant}/D0/telemetry`;
      for (let n = 0; n < 50; n++) await publisher.publishAsync(topic, JSON.stringify({ values: { n } }), { qos: 1 });
      await publisher.publishAsync(topic, Buffer.alloc(1 << 20, 0x20), { qos: 1 });
      for (let n = 50; n < 100; n++) await publisher.publishAsync(topic, JSON.stringify({ values: { n } }), { qos: 1 });
      await publisher.endAsync();
      const stored = async () =>
        (await db.rows(`select 1 from mes_telemetry where tenant_id = $1 and field = 'n'`, [tenant])).length;
      await waitFor(async () => (await stored()) === 100, 10_000);
      await new Promise((r) => setTimeout(r, 200));
      const received = server.last.received;
      console.log(`external subscriber: 101 published (one of 1 MB), received ${received}, stored ${await stored()}`);
      expect(received).toBe(100);
      expect(await stored()).toBe(100);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
