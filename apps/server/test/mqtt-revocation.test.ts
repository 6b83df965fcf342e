import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceSecretReply } from '@mes/contracts';
import { createDeviceDirectory } from '../src/modules/device';
import { mqttRevocationTopic } from '../src/platform/mqtt/revocation';
import { startTelemetry, type TelemetryRuntime } from '../src/modules/telemetry';
import { connectDevice, waitFor, type FakeDevice } from './support/mqtt-kit';
import { startSecondProcess, type SecondProcess } from './support/second-process';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * A rotated, removed or disabled device is cut off at once (issue 26, point 6): two server
 * processes on one database, each with its embedded broker; the device is connected to both; the
 * change goes through the HTTP API of process A; both connections must close within a second
 * (the change feed's NOTIFY reaches B), the old secret is refused on reconnect, the new one works.
 */

let t: TestApp;
let b: SecondProcess;
let admin: string;
let productId: string;
const runtimes: TelemetryRuntime[] = [];
const ports: number[] = [];

type Body = Record<string, unknown>;
const call = (method: 'GET' | 'POST', url: string, payload?: Body) =>
  t.as(admin, { method, url, ...(payload ? { payload } : {}) });

async function addDevice(code: string): Promise<{ id: string; device: FakeDevice }> {
  const added = await call('POST', '/api/basic/device/submit', { deviceCode: code, deviceName: code, productId });
  expect(added.json(), added.body).toMatchObject({ success: true });
  const id = String(added.json().data);
  const reply = (await call('POST', `/api/basic/device/rotate-secret?id=${id}&first=1`)).json()
    .data as DeviceSecretReply;
  return {
    id,
    device: {
      clientId: reply.clientId,
      secret: reply.secret,
      deviceId: id,
      tenantId: '000000',
      deviceCode: code,
      productId,
      fields: new Map(),
      inactivitySeconds: 3600,
    },
  };
}

const stored = async (code: string) =>
  Number(
    (
      await t.database.pool.query<{ n: string }>(
        `select count(*) n from mes_telemetry where tenant_id = '000000' and device_code = $1`,
        [code],
      )
    ).rows[0]!.n,
  );

/** Connected to both processes' brokers; resolves with the clients and a promise of both closes (ms after `from()`). */
async function connectBoth(device: FakeDevice) {
  const clients = await Promise.all(ports.map((port) => connectDevice(port, device)));
  let from = 0;
  const closed = Promise.all(
    clients.map((c) => new Promise<number>((resolve) => c.once('close', () => resolve(Date.now() - from)))),
  );
  return {
    clients,
    closed,
    start() {
      from = Date.now();
    },
  };
}

const refused = (port: number, device: FakeDevice) =>
  connectDevice(port, device).then(
    async (c: MqttClient) => {
      await c.endAsync();
      return false;
    },
    () => true,
  );

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
  b = await startSecondProcess(t);
  admin = (await t.signIn()).access_token;
  const product = await call('POST', '/api/basic/product/submit', {
    productCode: 'RV-1',
    productName: 'revocation',
    category: 1,
    fields: [{ fieldKey: 'v', fieldName: 'v', dataType: 'float', unit: '', precision: 2, access: 'r' }],
  });
  productId = String(product.json().data);
  for (const ctx of [t.ctx, b.ctx]) {
    const runtime = await startTelemetry(
      ctx,
      createDeviceDirectory(ctx),
      { url: undefined, host: '127.0.0.1', port: 0 },
      {
        batchDelayMs: 10,
      },
    );
    await runtime.ready;
    runtimes.push(runtime);
    ports.push(runtime.port()!);
  }
}, 60_000);

afterAll(async () => {
  for (const runtime of runtimes) await runtime.stop();
  await b?.close();
  await t?.close();
});

describe('a device whose credential ends (two server processes, embedded brokers)', () => {
  it('is disconnected from both processes within a second when its secret is rotated; only the new secret signs in', async () => {
    const { id, device } = await addDevice('RV-ROT');
    const both = await connectBoth(device);
    await Promise.all(
      both.clients.map((c, i) => c.publishAsync('mes/000000/RV-ROT/telemetry', JSON.stringify({ v: i }), { qos: 1 })),
    );
    expect(await stored('RV-ROT')).toBe(2);
    both.start();
    const rotated = await call('POST', `/api/basic/device/rotate-secret?id=${id}`);
    const fresh = (rotated.json().data as DeviceSecretReply).secret;
    const ms = await both.closed;
    console.log(`rotation: connections closed after ${ms.join(' ms and ')} ms (processes A, B)`);
    for (const m of ms) expect(m).toBeLessThan(1000);
    for (const port of ports) expect(await refused(port, device)).toBe(true);
    const renewed = { ...device, secret: fresh };
    for (const port of ports) {
      const c = await connectDevice(port, renewed);
      await c.publishAsync('mes/000000/RV-ROT/telemetry', JSON.stringify({ v: port }), { qos: 1 });
      await c.endAsync();
    }
    expect(await stored('RV-ROT')).toBe(4);
    expect(runtimes.map((r) => r.redeliveries.revoked)).toEqual([1, 1]);
  });

  it('stays connected when the notice arrives after it signed in with the secret the notice put in place', async () => {
    // A device connecting right after its first secret is issued can be signed in before that
    // issuance's notice reaches the broker; the late notice must not cut off the current secret.
    const { device } = await addDevice('RV-LATE');
    const both = await connectBoth(device);
    const closes = both.clients.map(() => 0);
    both.clients.forEach((c, i) => c.on('close', () => closes[i]!++));
    const before = runtimes.map((r) => r.redeliveries.revoked);
    await t.ctx.changes.publish(mqttRevocationTopic(device.clientId));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(closes).toEqual([0, 0]);
    expect(runtimes.map((r) => r.redeliveries.revoked)).toEqual(before);
    await Promise.all(
      both.clients.map((c, i) => c.publishAsync('mes/000000/RV-LATE/telemetry', JSON.stringify({ v: i }), { qos: 1 })),
    );
    expect(await stored('RV-LATE')).toBe(2);
    await Promise.all(both.clients.map((c) => c.endAsync()));
  });

  it('is disconnected from both processes within a second when it is disabled, and may not sign in until enabled', async () => {
    const { id, device } = await addDevice('RV-OFF');
    const both = await connectBoth(device);
    both.start();
    const off = await call('POST', '/api/basic/device/submit', { id, status: 0 });
    expect(off.json(), off.body).toMatchObject({ success: true });
    const ms = await both.closed;
    console.log(`disable: connections closed after ${ms.join(' ms and ')} ms`);
    for (const m of ms) expect(m).toBeLessThan(1000);
    for (const port of ports) expect(await refused(port, device)).toBe(true);
    // Ingestion refuses it too (a message through an external broker would be logged as unknown).
    await waitFor(async () => (await createDeviceDirectory(b.ctx).find('000000', 'RV-OFF')) === undefined, 2000);
    expect((await call('POST', '/api/basic/device/submit', { id, status: 1 })).json()).toMatchObject({ success: true });
    for (const port of ports) expect(await refused(port, device)).toBe(false);
  });

  it('is disconnected from both processes within a second when it is removed, and may not sign in again', async () => {
    const { id, device } = await addDevice('RV-DEL');
    const both = await connectBoth(device);
    both.start();
    const removed = await call('POST', `/api/basic/device/remove?ids=${id}`);
    expect(removed.json(), removed.body).toMatchObject({ success: true });
    const ms = await both.closed;
    console.log(`removal: connections closed after ${ms.join(' ms and ')} ms`);
    for (const m of ms) expect(m).toBeLessThan(1000);
    for (const port of ports) expect(await refused(port, device)).toBe(true);
    expect(await createDeviceDirectory(b.ctx).find('000000', 'RV-DEL')).toBeUndefined();
  });
});
