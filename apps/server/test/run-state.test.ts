import { type MqttClient } from 'mqtt';
import pg from 'pg';
import {
  DASHBOARD_DEVICE_COUNT_PATH,
  DASHBOARD_DEVICE_MAP_PATH,
  DASHBOARD_OVERVIEW_PATH,
  DEVICE_ROTATE_SECRET_PATH,
  DeviceRunState,
  WARNING_HANDLE_PATH,
  type DeviceSecretReply,
  type LiveEvent,
  type WelcomeDeviceMap,
} from '@mes/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import { LIVE_CHANNEL } from '../src/platform/live/notify-live';
import { DEMO_DEVICES, STERILISER_PRODUCT } from '../src/seed/demo-devices';
import { startEmbeddedTelemetry } from './support/embedded-telemetry';
import { connectWithSecret } from './support/pg-telemetry';
import { waitFor } from './support/mqtt-kit';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 28 point 1: a device's run state follows its data. The seeded steriliser (ST-B23 declares
 * phase, fault code, program and remaining time) publishes through the embedded broker and the
 * real ingestion path; its state, as the device list answers it, follows: disinfecting while a
 * phase runs, idle after, fault on a fault code or an open warning at the product's fault level,
 * and maintenance set by hand sticks until cleared by hand.
 */

let t: TestApp;
let runtime: TelemetryRuntime;
let token: string;
let client: MqttClient;
let prefix: string;
let listener: pg.Client;
const events: LiveEvent[] = [];

const steriliser = DEMO_DEVICES.find((d) => d.productCode === STERILISER_PRODUCT.productCode);
if (!steriliser) throw new Error('no demo steriliser');
const code = steriliser.deviceCode;

const get = async (url: string) => {
  const reply = await t.as(token, { method: 'GET', url });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json().data;
};
const post = async (url: string, payload: Record<string, unknown>) => {
  const reply = await t.as(token, { method: 'POST', url, payload });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json().data;
};

type DeviceRow = Record<string, unknown> & {
  id: string;
  runState: number;
  cycle?: { program: unknown; phase: unknown; remainingSeconds: unknown };
};
const device = async (): Promise<DeviceRow> =>
  ((await get(`/api/basic/device/list?deviceCode=${code}`)).records as DeviceRow[])[0]!;

const publish = (values: Record<string, unknown>) =>
  new Promise<void>((resolve, reject) =>
    client.publish(`${prefix}/telemetry`, JSON.stringify(values), { qos: 1 }, (error) =>
      error ? reject(error) : resolve(),
    ),
  );

/** Waits (10 s at most) for the device list to show `state`, and answers the row. */
async function stateBecomes(state: number): Promise<DeviceRow> {
  let row = await device();
  await waitFor(async () => (row = await device()).runState === state, 10_000).catch(() => {
    throw new Error(`run state ${row.runState}, expected ${state}`);
  });
  return row;
}

beforeAll(async () => {
  t = await createTestApp();
  runtime = await startEmbeddedTelemetry(t.ctx);
  token = (await t.signIn()).access_token;
  const row = await device();
  const secret = (await post(`/api${DEVICE_ROTATE_SECRET_PATH}?id=${row.id}`, {})) as DeviceSecretReply;
  prefix = secret.topicPrefix;
  client = await connectWithSecret(runtime.port(), secret);
  listener = new pg.Client({ connectionString: t.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => {
    if (n.channel === LIVE_CHANNEL && n.payload) events.push(...(JSON.parse(n.payload) as LiveEvent[]));
  });
  await listener.query(`listen ${LIVE_CHANNEL}`);
}, 120_000);

afterAll(async () => {
  await client?.endAsync();
  await listener?.end();
  await runtime?.stop();
  await t?.close();
});

describe('run state follows the data (issue 28)', () => {
  it('disinfecting while a phase runs, with its program, phase and remaining time; idle after', async () => {
    expect((await device()).runState).toBe(DeviceRunState.idle);
    await publish({ program: 3, phase: 5, chamberTemp: 108.5, remainingSeconds: 842, faultCode: 0 });
    const running = await stateBecomes(DeviceRunState.disinfecting);
    // The values, and their names from the model's enumerations (issue 28 point 2).
    expect(running.cycle).toEqual({
      program: 3,
      phase: 5,
      remainingSeconds: 842,
      programLabel: { zh: '121℃ 织物', en: '121 °C textiles' },
      phaseLabel: { zh: '干燥', en: 'Drying' },
    });
    // The welcome page's figures, the wall screen's tile and the dashboard read the same state.
    expect((await get(`/api${DASHBOARD_OVERVIEW_PATH}`)).devices.disinfecting).toBe(1);
    const tiles = ((await get(`/api${DASHBOARD_DEVICE_MAP_PATH}`)) as WelcomeDeviceMap).depts.flatMap((g) => g.devices);
    expect(tiles.find((d) => d.deviceCode === code)).toMatchObject({
      runState: DeviceRunState.disinfecting,
      cycle: { program: 3, phase: 5, remainingSeconds: 842 },
    });
    // The browsers hear of it: one live `state` event for the device.
    await waitFor(() => events.some((e) => e.type === 'device' && e.action === 'state' && e.deviceCode === code));
    const stateEvent = events.find((e) => e.type === 'device' && e.action === 'state');
    expect(stateEvent).toMatchObject({ runState: DeviceRunState.disinfecting });

    await publish({ phase: 0, remainingSeconds: 0 });
    const idle = await stateBecomes(DeviceRunState.idle);
    expect(idle.cycle).toMatchObject({ phase: 0, remainingSeconds: 0 });
  });

  it('fault on a fault code, until the code clears', async () => {
    await publish({ faultCode: 201 });
    await stateBecomes(DeviceRunState.fault);
    expect((await get(`/api${DASHBOARD_OVERVIEW_PATH}`)).devices.fault).toBe(1);
    expect((await get(`/api${DASHBOARD_DEVICE_COUNT_PATH}`)).fault).toBe(1);
    await publish({ faultCode: 0 });
    await stateBecomes(DeviceRunState.idle);
  });

  it('fault while a warning at the product’s fault level is unhandled; handling it ends the fault', async () => {
    // ST-B23's fault-code rule raises level-2 warnings: counted as faults once the product says so.
    const [product] = (await get(`/api/basic/product/list?productCode=${STERILISER_PRODUCT.productCode}`)).records as {
      id: string;
    }[];
    const detail = await get(`/api/basic/product/detail?id=${product!.id}`);
    await post('/api/basic/product/submit', { ...detail, faultWarningLevel: 2 });
    await publish({ faultCode: 0 });
    await stateBecomes(DeviceRunState.fault);

    const open = (await get(`/api/report/warning/list?current=1&size=50&deviceCode=${code}`)).records as {
      id: string;
    }[];
    expect(open.length).toBeGreaterThan(0);
    await post(`/api${WARNING_HANDLE_PATH}`, { ids: open.map((w) => w.id).join(','), result: 'steam valve replaced' });
    await stateBecomes(DeviceRunState.idle);
  });

  it('maintenance set by hand sticks through running data until cleared by hand', async () => {
    const row = await get(`/api/basic/device/detail?id=${(await device()).id}`);
    await post('/api/basic/device/submit', { ...row, maintenance: true });
    expect((await device()).runState).toBe(DeviceRunState.maintenance);

    await publish({ program: 1, phase: 3, remainingSeconds: 600 });
    // The batch is stored (its cycle shows) while the state stays maintenance.
    await waitFor(async () => (await device()).cycle?.phase === 3);
    expect((await device()).runState).toBe(DeviceRunState.maintenance);
    await publish({ faultCode: 202 });
    await waitFor(async () => {
      const latest = await t.database.pool.query<{ v: string }>(
        `select latest -> 'faultCode' ->> 'v' as v from mes_device_latest where device_code = $1`,
        [code],
      );
      return latest.rows[0]?.v === '202';
    });
    expect((await device()).runState).toBe(DeviceRunState.maintenance);

    await post('/api/basic/device/submit', { ...row, maintenance: false });
    // Cleared, the state is what the data says at once: a fault code is set.
    expect((await device()).runState).toBe(DeviceRunState.fault);
  });

  it('a product naming a run-state field outside its model is refused with a 400', async () => {
    const [product] = (await get(`/api/basic/product/list?productCode=${STERILISER_PRODUCT.productCode}`)).records as {
      id: string;
    }[];
    const detail = await get(`/api/basic/product/detail?id=${product!.id}`);
    const reply = await t.as(token, {
      method: 'POST',
      url: '/api/basic/product/submit',
      payload: { ...detail, phaseField: 'cyclePhase' },
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toContain('cyclePhase');
  });
});
