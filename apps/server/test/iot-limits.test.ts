import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeviceRunState,
  IOT_MODEL_DATA_PATH,
  IOT_MODEL_LIST_PATH,
  type ModelDataItem,
  type ModelListReply,
} from '@mes/contracts';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import {
  apiAs,
  CHAMBER_FIELDS,
  CYCLE_FIELDS,
  deviceFixture,
  PROGRAM_134,
  type DeviceFixture,
} from './support/device-fixture';
import { startEmbeddedTelemetry } from './support/embedded-telemetry';
import { waitFor } from './support/mqtt-kit';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 28 point 5, "charts show the limits": model-data gives each field the HH / H / L / LL of
 * its PLC variable, and model-list the bands of the programs that ran within the range — each
 * finished cycle's program over the cycle's span, and the program running now from the end of the
 * last cycle to the end of the range — for the field the profile concerns (plateau on the
 * temperature field, pressure band on the pressure field). A steriliser publishes through the
 * embedded broker and the real ingestion path.
 */

let t: TestApp;
let runtime: TelemetryRuntime;
let token: string;
let device: DeviceFixture | undefined;
const CODE = 'ST-LIMITS-1';

beforeAll(async () => {
  t = await createTestApp();
  runtime = await startEmbeddedTelemetry(t.ctx);
  token = (await t.signIn()).access_token;
}, 120_000);

afterAll(async () => {
  await device?.client.endAsync();
  await runtime?.stop();
  await t?.close();
});

const get = <T>(url: string) => apiAs(t, token).get<T>(url);
const publish = (kind: 'telemetry' | 'cycle', body: unknown) => (device as DeviceFixture).publish(kind, body);
const series = (field: string, from: number, to: number) =>
  get<ModelListReply>(`/api${IOT_MODEL_LIST_PATH}?deviceCode=${CODE}&field=${field}&startTime=${from}&endTime=${to}`);
const runState = async () =>
  (await get<{ records: { runState: number }[] }>(`/api/basic/device/list?deviceCode_equal=${CODE}`)).records[0]
    ?.runState;

describe('charts show the limits (issue 28 point 5)', () => {
  it('answers the PLC variable’s limits with the field and the programs’ bands with the series', async () => {
    device = await deviceFixture(t, token, runtime.port(), {
      product: {
        productCode: 'ST-LIMITS',
        productName: '限值灭菌器',
        programField: 'program',
        phaseField: 'phase',
        fields: [...CHAMBER_FIELDS, ...CYCLE_FIELDS],
        programs: [
          PROGRAM_134,
          { programNo: 2, programName: '121℃ 织物', durationMinutes: 45, lethalityKind: 'F0', plateauMin: '121' },
        ],
      },
      plcVariables: [
        { name: 'chamberTemp', address: 'DB1,REAL0', dataType: 'FLOAT', limitHh: '140', limitH: '138', limitLl: '20' },
      ],
      deviceCode: CODE,
      deviceName: '限值灭菌器一号',
    });

    // A finished cycle of program 1 two hours ago, 20 minutes long.
    const cycleStart = Date.now() - 2 * 3_600_000;
    const cycleEnd = cycleStart + 20 * 60_000;
    for (let ts = cycleStart; ts <= cycleEnd; ts += 5 * 60_000)
      await publish('telemetry', { ts, values: { chamberTemp: 135, chamberPressure: 212 } });
    await publish('cycle', {
      program: 1,
      programName: '134℃ 标准',
      start: new Date(cycleStart).toISOString(),
      end: new Date(cycleEnd).toISOString(),
      result: 'pass',
    });
    // Now running program 1 again.
    await publish('telemetry', { program: 1, phase: 3, chamberTemp: 134.6 });
    await waitFor(async () => (await runState()) === DeviceRunState.disinfecting, 10_000);
    await waitFor(
      async () =>
        (await t.database.pool.query(`select 1 from mes_device_cycle where device_code = $1`, [CODE])).rowCount === 1,
      10_000,
    );

    // model-data: the field's limits; a field without a PLC variable has none.
    const model = await get<ModelDataItem[]>(`/api${IOT_MODEL_DATA_PATH}?deviceCode=${CODE}`);
    expect(model.find((f) => f.field === 'chamberTemp')?.limits).toEqual({ hh: 140, h: 138, l: null, ll: 20 });
    expect(model.find((f) => f.field === 'chamberPressure')?.limits).toBeNull();

    // model-list of the temperature over three hours: the finished cycle's plateau, then the running one's.
    const to = Date.now() + 1_000;
    const from = to - 3 * 3_600_000;
    const temperature = await series('chamberTemp', from, to);
    expect(temperature.bands).toEqual([
      {
        programNo: 1,
        programName: '134℃ 标准',
        kind: 'plateau',
        min: 134,
        max: 137,
        from: cycleStart,
        to: cycleEnd,
        running: false,
      },
      {
        programNo: 1,
        programName: '134℃ 标准',
        kind: 'plateau',
        min: 134,
        max: 137,
        from: cycleEnd,
        to,
        running: true,
      },
    ]);
    // The pressure field gets the pressure band; a field no profile concerns gets none.
    const pressure = await series('chamberPressure', from, to);
    expect(pressure.bands.map((b) => [b.kind, b.min, b.max, b.running])).toEqual([
      ['pressure', 200, 230, false],
      ['pressure', 200, 230, true],
    ]);
    expect((await series('phase', from, to)).bands).toEqual([]);
    // A range before the cycle shows nothing; one cutting it is clipped to the range.
    expect((await series('chamberTemp', cycleStart - 3_600_000, cycleStart - 60_000)).bands).toEqual([]);
    const clipped = await series('chamberTemp', cycleStart + 60_000, cycleStart + 120_000);
    expect(clipped.bands).toMatchObject([{ from: cycleStart + 60_000, to: cycleStart + 120_000, running: false }]);

    // Program 2 has a plateau minimum only; when the device stops, no band is running.
    await publish('telemetry', { program: 2, phase: 3 });
    await waitFor(async () => (await series('chamberTemp', from, Date.now())).bands.at(-1)?.programNo === 2, 10_000);
    expect((await series('chamberTemp', from, Date.now())).bands.at(-1)).toMatchObject({
      kind: 'plateau',
      min: 121,
      max: null,
      running: true,
    });
    await publish('telemetry', { phase: 0 });
    await waitFor(async () => (await runState()) === DeviceRunState.idle, 10_000);
    expect((await series('chamberTemp', from, Date.now())).bands.map((b) => b.running)).toEqual([false]);
  });
});
