import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISINFECTION_CURVE_ROUTE,
  DISINFECTION_LEDGER_ROUTE,
  LEDGER_TIME_ZONE,
  ParametricResult,
  RecordType,
  type CycleCurveReply,
  type LedgerRow,
  type ReportData,
} from '@mes/contracts';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import { f0 } from '../src/modules/telemetry/lethality';
import { apiAs, CHAMBER_FIELDS, deviceFixture, PROGRAM_134, type DeviceFixture } from './support/device-fixture';
import { startEmbeddedTelemetry } from './support/embedded-telemetry';
import { waitFor } from './support/mqtt-kit';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 28 point 4 (docs/lethality.md): a steam steriliser's program carries a validated profile
 * (F0, plateau 134–137 ℃, minimum hold 180 s, pressure 200–230 kPa, minimum F0 3 min). The device
 * publishes its chamber curve and then its finished cycle through the embedded broker; the records
 * job judges the cycle from the stored points and carries the judgement to the record. One cycle
 * holds its plateau 240 s and passes; one holds it 120 s and fails on the hold time, although the
 * device itself reported it passed. The ledger shows the period's least and mean F0 and the
 * parametric failure; a redelivered cycle changes nothing.
 */

let t: TestApp;
let runtime: TelemetryRuntime;
let token: string;
let device: DeviceFixture | undefined;
const CODE = 'ST-JUDGE-1';
const STEP_MS = 10_000;

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
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

/**
 * A cycle's chamber curve, a point every 10 s: a ramp to 133 ℃, `holdPoints` points at 134.5 ℃
 * and 212 kPa, then cooling. The hold the points prove is (holdPoints − 1) × 10 s.
 */
function curve(start: number, holdPoints: number) {
  const temperatures = [100, 110, 120, 125, 130, 133, ...Array<number>(holdPoints).fill(134.5), 120, 100];
  return temperatures.map((temperature, i) => ({
    ts: start + i * STEP_MS,
    values: { chamberTemp: temperature, chamberPressure: temperature >= 134 ? 212 : 80 },
  }));
}

async function runCycle(start: number, holdPoints: number) {
  const points = curve(start, holdPoints);
  // One report at a time, each acknowledged: the cycle comes after its points, as a device sends them.
  for (const point of points) await publish('telemetry', point);
  const end = points[points.length - 1]!.ts;
  const cycle = {
    program: 1,
    programName: '134℃ 标准',
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    result: 'pass',
  };
  await publish('cycle', cycle);
  return { points, cycle };
}

interface RecordRow {
  id: string;
  startTime: string;
  result: number;
  failReason: string;
  recordType: number;
  lethalityKind: string | null;
  lethality: string | null;
  holdAchievedSeconds: number | null;
  parametricResult: number | null;
  parametricReason: string | null;
}

const records = async () =>
  (await get<{ records: RecordRow[] }>(`/api/blade-business/disinfection/page?deviceCode=${CODE}&size=50`)).records;

describe('each cycle judged (issue 28 point 4)', () => {
  it('judges a cycle that holds its plateau as passed and one that does not as failed on the hold time', async () => {
    // Minimum F0 3 min besides the usual 134 ℃ profile.
    device = await deviceFixture(t, token, runtime.port(), {
      product: {
        productCode: 'ST-JUDGE',
        productName: '判定灭菌器',
        fields: CHAMBER_FIELDS,
        programs: [{ ...PROGRAM_134, targetTemperature: '134', minLethality: '3' }],
      },
      deviceCode: CODE,
      deviceName: '判定灭菌器一号',
    });

    const passing = await runCycle(Date.now() - 2 * 3_600_000, 25);
    const failing = await runCycle(Date.now() - 3_600_000, 13);

    let rows: RecordRow[] = [];
    await waitFor(async () => {
      rows = await records();
      return rows.length === 2;
    }, 20_000);
    const passed = rows.find((r) => r.parametricResult === ParametricResult.pass);
    const failed = rows.find((r) => r.parametricResult === ParametricResult.fail);
    expect(passed, JSON.stringify(rows)).toBeDefined();
    expect(failed, JSON.stringify(rows)).toBeDefined();

    const temperatures = (points: ReturnType<typeof curve>) =>
      points.map((p) => ({ t: p.ts, v: p.values.chamberTemp }));
    expect(passed).toMatchObject({
      recordType: RecordType.sterilisation,
      result: 1,
      failReason: '',
      lethalityKind: 'F0',
      lethality: f0(temperatures(passing.points)).toFixed(2),
      holdAchievedSeconds: 240,
      parametricReason: '',
    });
    // The device said pass; the parameters say the hold was 120 s of the 180 s required.
    expect(failed).toMatchObject({
      result: 2,
      lethalityKind: 'F0',
      lethality: f0(temperatures(failing.points)).toFixed(2),
      holdAchievedSeconds: 120,
    });
    expect(failed?.parametricReason).toContain('held 120 s within the plateau band 134–137 °C');
    expect(failed?.parametricReason).toContain('below the minimum hold time of 180 s');
    expect(failed?.parametricReason).toContain('低于最短维持时间 180 秒');
    expect(failed?.failReason).toContain('最短维持时间 180 秒');
    // Only the hold failed: F0 (over 40 min) is far above its minimum and the pressure inside its band.
    expect(failed?.parametricReason).not.toMatch(/F0|kPa/);

    // The cycles carry the same judgement as their records.
    const cycles = (
      await t.database.pool.query<{ parametric_result: number; hold_achieved_seconds: number; lethality: string }>(
        `select parametric_result, hold_achieved_seconds, lethality::text from mes_device_cycle
          where device_code = $1 order by start_time`,
        [CODE],
      )
    ).rows;
    expect(cycles).toEqual([
      { parametric_result: ParametricResult.pass, hold_achieved_seconds: 240, lethality: passed?.lethality },
      { parametric_result: ParametricResult.fail, hold_achieved_seconds: 120, lethality: failed?.lethality },
    ]);

    // The record page's curve: the raw points with the program's profile and the hold they prove.
    const shown = await get<CycleCurveReply>(`/api${DISINFECTION_CURVE_ROUTE}?id=${failed?.id}`);
    expect(shown.temperature).toEqual(failing.points.map((p) => [p.ts, p.values.chamberTemp]));
    expect(shown.pressure).toHaveLength(failing.points.length);
    expect(shown.profile).toMatchObject({ lethalityKind: 'F0', plateauMin: 134, plateauMax: 137, minHoldSeconds: 180 });
    expect((shown.holdEnd ?? 0) - (shown.holdStart ?? 0)).toBe(120_000);
    const bad = await t.as(token, { method: 'GET', url: `/api${DISINFECTION_CURVE_ROUTE}?id=x` });
    expect(bad.statusCode).toBe(400);

    // The ledger: the least and mean F0 of the period, and the one parametric failure.
    const month = (ms: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: LEDGER_TIME_ZONE }).format(new Date(ms)).slice(0, 7);
    const ledger = (
      await get<{ records: LedgerRow[] }>(
        `/api${DISINFECTION_LEDGER_ROUTE}?period=month&deviceCode=${CODE}` +
          `&startDate=${month(Date.now() - 86_400_000)}&endDate=${month(Date.now())}`,
      )
    ).records;
    const values = [Number(passed?.lethality), Number(failed?.lethality)];
    expect(ledger.reduce((n, r) => n + r.parametricFails, 0)).toBe(1);
    expect(Math.min(...ledger.map((r) => Number(r.minF0)))).toBe(Math.min(...values));
    expect(ledger.every((r) => r.minA0 === null && r.avgA0 === null)).toBe(true);
    // Both cycles in one month (unless this runs in the first two hours of one): the mean of the two, rounded half up as PostgreSQL rounds.
    const cents = values.map((v) => Math.round(v * 100));
    if (ledger.length === 1) expect(ledger[0]?.avgF0).toBe((Math.round((cents[0]! + cents[1]!) / 2) / 100).toFixed(2));

    // The built-in report: one group per parametric result of this device's F0 records.
    const templates = await get<{ records: { id: string; code: string }[] }>(
      '/api/blade-report/template/list?size=100',
    );
    const template = templates.records.find((r) => r.code === 'builtin.lethality-by-device-monthly');
    const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: LEDGER_TIME_ZONE }).format(new Date(ms));
    const params = encodeURIComponent(JSON.stringify({ from: day(Date.now() - 2 * 86_400_000), to: day(Date.now()) }));
    const report = await get<ReportData>(`/api/blade-report/template/data?id=${template?.id}&params=${params}`);
    const mine = report.rows.filter((r) => r.deviceCode === CODE);
    expect(mine, JSON.stringify(report)).toHaveLength(2);
    expect(mine.every((r) => r.lethalityKind === 'F0')).toBe(true);

    // A redelivered cycle: no second cycle, no second record, the judgement unchanged.
    await publish('cycle', failing.cycle);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const again = await records();
    expect(again).toHaveLength(2);
    expect(again.find((r) => r.id === failed?.id)).toMatchObject({ parametricResult: 2, holdAchievedSeconds: 120 });
    const count = await t.database.pool.query<{ n: number }>(
      `select count(*)::int as n from mes_device_cycle where device_code = $1`,
      [CODE],
    );
    expect(count.rows[0]?.n).toBe(2);
  }, 90_000);
});
