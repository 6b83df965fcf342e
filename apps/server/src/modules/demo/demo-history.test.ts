import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TENANT_DEVICES, DEMO_TENANT_PRODUCTS } from './demo-data';
import { HISTORY_DAYS, historyMessages, historyStart, type HistoryDevice, type Timed } from './demo-history';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-26T07:30:00Z'); // 15:30 in Asia/Shanghai
const devices: HistoryDevice[] = DEMO_TENANT_DEVICES.map((d) => ({
  deviceCode: d.deviceCode,
  clientId: `c-${d.deviceCode}`,
  product: DEMO_TENANT_PRODUCTS.find((p) => p.productCode === d.productCode)!,
}));
const body = (m: { message: { payload: Buffer } }) =>
  JSON.parse(m.message.payload.toString()) as Record<string, unknown>;
const kindOf = (m: { message: { topic: string } }) => m.message.topic.split('/')[3];
const localHour = (ms: number) => new Date(ms + 8 * HOUR).getUTCHours() + new Date(ms).getUTCMinutes() / 60;

describe('the demo tenant history', () => {
  let messages: Timed[] = [];
  beforeAll(() => {
    messages = historyMessages('100001', devices, NOW);
  }, 60_000);

  it('starts at local midnight a month back', () => {
    expect(new Date(historyStart(NOW)).toISOString()).toBe('2026-10-26T16:00:00.000Z');
    expect(HISTORY_DAYS).toBe(30);
  });

  it('is the same on every run for the same now, each device on its own random source', () => {
    const some = [devices[0]!, devices[6]!, devices[9]!];
    const again = historyMessages('100001', some, NOW);
    const codes = new Set(some.map((d) => d.deviceCode));
    const before = messages.filter((m) => codes.has(m.message.topic.split('/')[2] ?? ''));
    expect(again.map((m) => m.message.payload.toString())).toEqual(before.map((m) => m.message.payload.toString()));
  }, 30_000);

  it('has cycles of every device over the month, oldest first, and nothing after now', () => {
    const cycles = messages.filter((m) => kindOf(m) === 'cycle');
    expect(new Set(cycles.map((m) => m.message.topic)).size).toBe(DEMO_TENANT_DEVICES.length);
    const days = new Set(cycles.map((m) => new Date(m.at + 8 * HOUR).toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(HISTORY_DAYS);
    expect(messages.every((m, i) => i === 0 || (messages[i - 1]?.at ?? 0) <= m.at)).toBe(true);
    expect(messages.every((m) => m.at <= NOW && m.at >= historyStart(NOW))).toBe(true);
    const results = new Set(cycles.map((m) => body(m).result));
    expect(results).toEqual(new Set(['pass', 'fail', 'aborted']));
  });

  it('runs the sterilisers in opening hours only, each day beginning with its B-D test', () => {
    const steriliser = messages.filter((m) => kindOf(m) === 'cycle' && m.message.topic.includes('DEMO-ST-01'));
    for (const m of steriliser) {
      const b = body(m);
      expect(localHour(Date.parse(String(b.start)))).toBeGreaterThanOrEqual(7.5);
      expect(localHour(m.at)).toBeLessThanOrEqual(18.5);
    }
    const firstOfDay = new Map<string, Record<string, unknown>>();
    for (const m of steriliser) {
      const day = new Date(m.at + 8 * HOUR).toISOString().slice(0, 10);
      if (!firstOfDay.has(day)) firstOfDay.set(day, body(m));
    }
    expect([...firstOfDay.values()].every((b) => b.program === 4)).toBe(true);
  });

  it('reports telemetry for the last day only, in raw PLC counts where a variable scales the field', () => {
    const telemetry = messages.filter((m) => kindOf(m) === 'telemetry');
    expect(telemetry.length).toBeGreaterThan(1000);
    expect(telemetry.every((m) => m.at >= NOW - 24 * HOUR)).toBe(true);
    const waterline = telemetry.filter((m) => m.message.topic.includes('DEMO-WL-01')).map((m) => body(m).values);
    for (const values of waterline as Record<string, number>[]) {
      // Chlorine 0–100 mg/L as 0–10000 counts of a UINT16 register.
      expect(Number.isInteger(values.chlorine)).toBe(true);
      expect(values.chlorine).toBeGreaterThanOrEqual(0);
      expect(values.chlorine).toBeLessThanOrEqual(10_000);
    }
  });
});
