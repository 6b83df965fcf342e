import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import { startEmbeddedTelemetry } from './support/embedded-telemetry';
import { DEMO_DEVICES, STERILISER_PRODUCT, WATERLINE_PRODUCT } from '../src/seed/demo-devices';
import { DEMO_CLINIC_NAME } from '../src/simulator/demo-clinic';
import { parseOptions } from '../src/simulator/options';
import { runSimulator, type RunResult } from '../src/simulator/run';
import { seedDatabase } from '../src/seed-database';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './support/test-app';

/**
 * The simulator against the real console: the app on an HTTP port, the embedded broker wired as
 * main.ts wires it, and `runSimulator` as `npm run simulate` calls it (docs/simulator.md).
 */

let t: TestApp;
let mqtt: TelemetryRuntime;
let api: string;
let broker: string;
let result: RunResult;
const lines: string[] = [];

const rows = async <T>(text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows as T[];

const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
  expect(await check()).toBe(true);
};

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  mqtt = await startEmbeddedTelemetry(t.ctx);
  broker = `mqtt://127.0.0.1:${mqtt.port()}`;
}, 120_000);

afterAll(async () => {
  await mqtt?.stop();
  await t?.close();
});

const options = (extra: string[]) => {
  const parsed = parseOptions(['--api', api, '--mqtt', broker, '--password', ADMIN_PASSWORD, ...extra], {}, '/');
  if (!parsed) throw new Error('no options');
  return parsed;
};

describe('the demo devices of a fresh install', () => {
  it('seeds two products with their model, programs, alarm rules and PLC variables, and four devices without a secret, once', async () => {
    const token = (await t.signIn()).access_token;
    const get = async (url: string) => (await t.as(token, { method: 'GET', url })).json().data;
    for (const product of [WATERLINE_PRODUCT, STERILISER_PRODUCT]) {
      const [row] = (await get(`/api/basic/product/list?productCode=${product.productCode}`)).records;
      const detail = await get(`/api/basic/product/detail?id=${row.id}`);
      expect(
        detail.fields.map((f: { fieldKey: string; dataType: string; unit: string }) => [
          f.fieldKey,
          f.dataType,
          f.unit,
        ]),
      ).toEqual(product.fields.map((f) => [f.fieldKey, f.dataType, f.unit]));
      expect(detail.programs).toHaveLength(product.programs.length);
      expect(detail.alarmRules).toHaveLength(product.alarmRules.length);
      const variables = (await get(`/api/basic/plcvariable/list?productId=${row.id}&size=100`)).records;
      expect(variables.map((v: { name: string }) => v.name).sort()).toEqual(
        product.plcVariables.map((v) => v.name).sort(),
      );
    }
    const devices = await rows<{ device_code: string; mqtt_client_id: string; mqtt_secret_hash: string }>(
      `select device_code, mqtt_client_id, mqtt_secret_hash from mes_device order by device_code`,
    );
    expect(devices.map((d) => d.device_code)).toEqual(DEMO_DEVICES.map((d) => d.deviceCode).sort());
    expect(devices.every((d) => /^d_[0-9a-f]{16}$/.test(d.mqtt_client_id) && d.mqtt_secret_hash === '')).toBe(true);

    const count = async () =>
      (
        await rows<{ n: string }>(
          `select (select count(*) from mes_product) + (select count(*) from mes_product_field) +
                  (select count(*) from mes_plc_variable) + (select count(*) from mes_device) as n`,
        )
      )[0]?.n;
    const before = await count();
    await seedDatabase(t.ctx.db, undefined);
    expect(await count()).toBe(before);
  });
});

describe('npm run simulate', () => {
  it('provisions the seeded demo devices and publishes telemetry, cycles and status through the embedded broker', async () => {
    result = await runSimulator(
      options(['--devices', '2', '--rate', '5', '--duration', '4', '--speed', '600', '--disconnect-every', '1.5']),
      { log: (line) => void lines.push(line), summaryEvery: 1, reconnectAfter: [0.2, 0.5] },
    );
    // The demo devices come first: one waterline disinfector and one steriliser would need a
    // third device; two devices are the two seeded waterline units.
    expect(result.devices.map((d) => d.deviceCode)).toEqual(DEMO_DEVICES.slice(0, 2).map((d) => d.deviceCode));
    for (const d of result.devices) {
      expect(d.published).toBeGreaterThan(5);
      expect(d.acked).toBeGreaterThan(5);
    }
    expect(result.stats.errors, result.stats.lastError).toBe(0);
    expect(lines.some((l) => / msg\/s · /.test(l))).toBe(true);

    const telemetry = await rows<{ device_code: string; n: string }>(
      `select device_code, count(*) as n from mes_telemetry where tenant_id = '000000' group by device_code`,
    );
    expect(telemetry.map((r) => r.device_code).sort()).toEqual(result.devices.map((d) => d.deviceCode).sort());
    // Filed under the demo clinic (a clinic node of a disinfection base), made on this first run.
    const depts = await rows<{ dept_name: string; dept_category: number }>(
      `select d.dept_name, d.dept_category from mes_device v join blade_dept d on d.id = v.dept_id
        where v.tenant_id = '000000' and v.device_code = any($1)`,
      [result.devices.map((d) => d.deviceCode)],
    );
    expect(depts).toEqual([
      { dept_name: DEMO_CLINIC_NAME, dept_category: 5 },
      { dept_name: DEMO_CLINIC_NAME, dept_category: 5 },
    ]);
  });

  it('reports exactly the fields of the demo product’s model, scaled back to engineering values', async () => {
    const latest = await rows<{ device_code: string; field: string; num_value: string | null }>(
      `select d.device_code, e.key as field, e.value ->> 'v' as num_value
         from mes_device_latest d, jsonb_each(d.latest) e where d.tenant_id = '000000'`,
    );
    const keys = WATERLINE_PRODUCT.fields.map((f) => f.fieldKey).sort();
    for (const d of result.devices) {
      const mine = latest.filter((r) => r.device_code === d.deviceCode);
      expect(mine.map((r) => r.field).sort()).toEqual(keys);
      const value = (field: string) => Number(mine.find((r) => r.field === field)?.num_value);
      // chlorine and tankLevel go out as raw counts and come back through the PLC variable's range.
      expect(value('chlorine')).toBeGreaterThanOrEqual(0);
      expect(value('chlorine')).toBeLessThanOrEqual(60);
      expect(value('tankLevel')).toBeGreaterThanOrEqual(0);
      expect(value('tankLevel')).toBeLessThanOrEqual(100);
      expect(value('ph')).toBeGreaterThan(6);
      expect(value('ph')).toBeLessThan(8);
      expect(value('waterTemp')).toBeGreaterThan(5);
      expect(value('waterTemp')).toBeLessThan(40);
    }
    const refused = await rows<{ n: string }>(
      `select count(*) as n from mes_mqtt_message where tenant_id = '000000' and (parsed_ok = false or error is not null)`,
    );
    expect(Number(refused[0]?.n)).toBe(0);
  });

  it('leaves on/off records: online at each connection, offline by last will and at the end', async () => {
    const codes = result.devices.map((d) => d.deviceCode);
    const onoff = async () =>
      rows<{ device_code: string; event: string; reason: string }>(
        `select device_code, event, reason from mes_onoff where tenant_id = '000000' and device_code = any($1)
          order by create_time, id`,
        [codes],
      );
    // Wills and final statuses are committed right after the run; the device rows are marked after that.
    await waitFor(async () => {
      const devices = await rows<{ online: boolean }>(`select online from mes_device where device_code = any($1)`, [
        codes,
      ]);
      const records = await onoff();
      return (
        devices.every((d) => !d.online) &&
        codes.every((c) => records.filter((r) => r.device_code === c).at(-1)?.event === 'offline') &&
        (result.stats.disconnects === 0 || records.some((r) => r.reason === 'last-will'))
      );
    });
    const records = await onoff();
    for (const d of result.devices) {
      const mine = records.filter((r) => r.device_code === d.deviceCode);
      expect(mine.filter((r) => r.event === 'online').length).toBeGreaterThanOrEqual(1);
      // Connected at the end: its own offline status (reason normal).
      if (d.saidOffline) expect(mine.at(-1)).toMatchObject({ event: 'offline', reason: 'normal' });
    }
  });

  it('creates SIM devices of both products beyond the demo ones, and finished cycles reach the message log', async () => {
    const second = await runSimulator(
      options(['--devices', '6', '--rate', '4', '--duration', '4', '--speed', '3000', '--disconnect-every', '0']),
      { log: (line) => void lines.push(line) },
    );
    expect(second.devices.map((d) => [d.deviceCode, d.productCode])).toEqual([
      ...DEMO_DEVICES.map((d) => [d.deviceCode, d.productCode]),
      ['SIM-0001', WATERLINE_PRODUCT.productCode],
      ['SIM-0002', STERILISER_PRODUCT.productCode],
    ]);
    expect(second.stats.errors, second.stats.lastError).toBe(0);
    // No disconnects in this run: every device was connected at the end and said offline itself.
    expect(second.devices.every((d) => d.saidOffline)).toBe(true);
    await waitFor(async () => {
      const last = await rows<{ event: string; reason: string }>(
        `select distinct on (device_code) event, reason from mes_onoff where device_code = any($1)
          order by device_code, create_time desc, id desc`,
        [second.devices.map((d) => d.deviceCode)],
      );
      return last.length === 6 && last.every((r) => r.event === 'offline' && r.reason === 'normal');
    });
    const fields = await rows<{ field: string }>(
      `select jsonb_object_keys(latest) as field from mes_device_latest where tenant_id = '000000' and device_code = 'SIM-0002'`,
    );
    expect(fields.map((f) => f.field).sort()).toEqual(STERILISER_PRODUCT.fields.map((f) => f.fieldKey).sort());
    const cycles = await rows<{ payload: string }>(
      `select payload from mes_mqtt_message where tenant_id = '000000' and topic like '%/cycle'`,
    );
    // Cycles that finish while a device is offline are not reported (devices here keep no backlog).
    expect(cycles.length).toBeGreaterThan(0);
    expect(cycles.length).toBeLessThanOrEqual(second.stats.cycles + result.stats.cycles);
    expect(JSON.parse(cycles[0]?.payload ?? '{}')).toMatchObject({
      program: expect.any(Number),
      result: expect.stringMatching(/^(pass|fail|aborted)$/),
      start: expect.any(String),
      end: expect.any(String),
    });
  });

  it('says clearly when the password is wrong or nothing listens on the broker port', async () => {
    await expect(runSimulator(options(['--password', 'wrong-password']), { log: () => {} })).rejects.toThrow(
      /sign-in as admin of tenant 000000 failed: .*--password/,
    );
    await expect(
      runSimulator({ ...options([]), mqtt: 'mqtt://127.0.0.1:1', mqttDefaulted: false }, { log: () => {} }),
    ).rejects.toThrow(/no MQTT broker at mqtt:\/\/127.0.0.1:1 \(connection refused\)/);
    await expect(runSimulator({ ...options([]), api: 'http://127.0.0.1:1' }, { log: () => {} })).rejects.toThrow(
      /the console is not reachable at http:\/\/127.0.0.1:1/,
    );
  });
});
