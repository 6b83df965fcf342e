import type { AppContext } from '../../app-context';
import { Ingestion, type IncomingMessage } from '../telemetry/ingestion';
import { createProcess, type DeviceKind } from '../../simulator/device-model';
import type { CycleReport, TelemetryValue } from '../../simulator/model';
import { chance, pick, seededRng, seedOf, uniform, type Rng } from '../../simulator/rng';
import type { DemoProduct } from '../../seed/demo-devices';
import { createDeviceDirectory } from '../device';
import { deriveScaling, isIdentity, type Scaling } from '@mes/contracts';

/**
 * The demo tenant's past, made by the simulator's device models (the same pure functions that
 * `npm run simulate` runs) over simulated wall-clock time, and stored through MQTT ingestion
 * itself: each finished cycle is the `cycle` message a device would have published, each report
 * of the last day a `telemetry` message. So the cycles, their per-day counts, the latest values,
 * the rollups, the message log and the warnings the products' alarm rules raise are exactly what
 * a month of real devices would have left (docs/demo.md).
 */

export const HISTORY_DAYS = 30;
/** Telemetry only for the last day: charts have data, and the month stays fast to seed. */
const TELEMETRY_HOURS = 24;
const TELEMETRY_EVERY_S = 300;
const STEP_S = 60;
/** A clinic steriliser's day (local hours). */
const OPENS_AT_H = 7.5;
const CLOSES_AT_H = 18.5;
const HOUR_MS = 3_600_000;
/** Asia/Shanghai, the product's zone (no daylight saving): the models' clinic hours are local. */
const ZONE_OFFSET_MS = 8 * HOUR_MS;

export interface HistoryDevice {
  deviceCode: string;
  clientId: string;
  product: DemoProduct;
  /** Its month ends here instead of now (the judged steriliser's last hours are demo-judgement.ts'). */
  until?: number | undefined;
}

export interface Timed {
  at: number;
  message: IncomingMessage;
}

/** Local midnight `days` days before `now`'s day. */
export function historyStart(now: number, days = HISTORY_DAYS): number {
  const localMidnight = Math.floor((now + ZONE_OFFSET_MS) / 86_400_000) * 86_400_000 - ZONE_OFFSET_MS;
  return localMidnight - days * 86_400_000;
}

/** The raw register value a PLC variable's scaling turns back into the engineering value. */
function rawEncodings(product: DemoProduct): Map<string, { scaling: Scaling; integer: boolean }> {
  const out = new Map<string, { scaling: Scaling; integer: boolean }>();
  for (const v of product.plcVariables) {
    const scaling = deriveScaling({
      multiplier: v.multiplier ?? '1',
      offset: '0',
      rawLow: v.range?.rawLow ?? null,
      rawHigh: v.range?.rawHigh ?? null,
      engLow: v.range?.engLow ?? null,
      engHigh: v.range?.engHigh ?? null,
    });
    if (!isIdentity(scaling) && scaling.multiplier !== 0)
      out.set(v.name, { scaling, integer: ['INT16', 'UINT16', 'INT32'].includes(v.dataType) });
  }
  return out;
}

export function message(
  tenantId: string,
  device: Pick<HistoryDevice, 'deviceCode' | 'clientId'>,
  kind: 'telemetry' | 'cycle',
  at: number,
  body: unknown,
): Timed {
  return {
    at,
    message: {
      topic: `mes/${tenantId}/${device.deviceCode}/${kind}`,
      payload: Buffer.from(JSON.stringify(body)),
      qos: 1,
      retain: false,
      clientId: device.clientId,
      receivedAt: new Date(at),
    },
  };
}

function cycleBody(cycle: CycleReport, start: number) {
  const end = start + cycle.endedAt * 1000;
  return {
    ts: end,
    program: cycle.program,
    programName: cycle.programName,
    start: new Date(start + cycle.startedAt * 1000).toISOString(),
    end: new Date(end).toISOString(),
    durationSeconds: Math.round(cycle.endedAt - cycle.startedAt),
    result: cycle.result,
    faultCode: cycle.faultCode,
    ...cycle.figures,
  };
}

/**
 * A modelled device: a waterline disinfector runs day and night (its top-ups, the evening flush
 * and shock disinfection); a clinic's steriliser runs in opening hours, 07:30–18:30, each day
 * from a fresh start (so its first cycle is the day's B-D test). Cycles, and the last day's
 * telemetry every 5 minutes while it runs.
 */
function modelled(tenantId: string, device: HistoryDevice, kind: DeviceKind, start: number, now: number): Timed[] {
  const rng = seededRng(seedOf(device.deviceCode, 16));
  const windows: [number, number][] = [];
  if (kind === 'waterline') windows.push([start, now]);
  else
    for (let day = start; day < now; day += 86_400_000)
      windows.push([day + OPENS_AT_H * HOUR_MS, Math.min(day + CLOSES_AT_H * HOUR_MS, now)]);
  const fields = new Set(device.product.fields.map((f) => f.fieldKey));
  const raw = rawEncodings(device.product);
  const telemetryFrom = now - TELEMETRY_HOURS * HOUR_MS;
  const out: Timed[] = [];
  for (const [from, until] of windows) {
    const startTimeOfDay = ((((from + ZONE_OFFSET_MS) % 86_400_000) + 86_400_000) % 86_400_000) / 1000;
    const process = createProcess(kind, rng, { faultProbability: 0.03, startTimeOfDay });
    for (let t = from; t + STEP_S * 1000 <= until; t += STEP_S * 1000) {
      for (const cycle of process.advance(STEP_S))
        out.push(message(tenantId, device, 'cycle', from + cycle.endedAt * 1000, cycleBody(cycle, from)));
      const at = t + STEP_S * 1000;
      if (at < telemetryFrom || (at - from) % (TELEMETRY_EVERY_S * 1000) !== 0) continue;
      const values: Record<string, TelemetryValue> = {};
      for (const [key, value] of Object.entries(process.values())) {
        if (!fields.has(key)) continue;
        const encoding = typeof value === 'number' ? raw.get(key) : undefined;
        const count = encoding ? (Number(value) - encoding.scaling.offset) / encoding.scaling.multiplier : value;
        values[key] = encoding ? (encoding.integer ? Math.round(Number(count)) : Number(count)) : value;
      }
      out.push(message(tenantId, device, 'telemetry', at, { ts: at, values }));
    }
  }
  return out;
}

/** A washer-disinfector (no simulator model): two to four loads a working day, now and then a fault. */
function washer(tenantId: string, device: HistoryDevice, start: number, now: number): Timed[] {
  const rng: Rng = seededRng(seedOf(device.deviceCode, 16));
  const out: Timed[] = [];
  for (let day = start; day < now; day += 86_400_000) {
    const weekday = new Date(day + ZONE_OFFSET_MS).getUTCDay();
    if (weekday === 0) continue;
    let at = day + uniform(rng, 8.5, 10) * HOUR_MS;
    const loads = 2 + Math.floor(rng.next() * 3);
    for (let n = 0; n < loads; n++) {
      const program = pick(rng, device.product.programs);
      const seconds = Math.round(program.durationMinutes * 60 * uniform(rng, 0.95, 1.05));
      const end = at + seconds * 1000;
      if (end > now) break;
      const failed = chance(rng, 0.04);
      const maxTemperature = Number(uniform(rng, 91.5, 94).toFixed(1));
      out.push(
        message(tenantId, device, 'cycle', end, {
          ts: end,
          program: program.programNo,
          programName: program.programName,
          start: new Date(at).toISOString(),
          end: new Date(end).toISOString(),
          durationSeconds: seconds,
          result: failed ? 'fail' : 'pass',
          // 301: disinfection temperature not reached (A0 short).
          faultCode: failed ? 301 : 0,
          maxTemperature,
          minHoldTemperature: failed
            ? Number(uniform(rng, 84, 88).toFixed(1))
            : Number((maxTemperature - 1.5).toFixed(1)),
          a0: failed ? Math.round(uniform(rng, 900, 2500)) : Math.round(uniform(rng, 3000, 3600)),
          holdSeconds: failed ? Math.round(uniform(rng, 60, 240)) : 300,
        }),
      );
      at = end + uniform(rng, 0.5, 2.5) * HOUR_MS;
    }
  }
  return out;
}

/**
 * The month's messages, oldest first: the same for the same devices and the same "now" (seeded
 * random sources, dates relative to now).
 */
export function historyMessages(tenantId: string, devices: readonly HistoryDevice[], now: number): Timed[] {
  const start = historyStart(now);
  return devices
    .flatMap((d) =>
      d.product.category === 4
        ? washer(tenantId, d, start, d.until ?? now)
        : modelled(tenantId, d, d.product.category === 1 ? 'waterline' : 'steriliser', start, d.until ?? now),
    )
    .sort((a, b) => a.at - b.at);
}

/**
 * Publishes the month into ingestion hour by hour, the ingestion's clock at the end of each hour,
 * so that alarm rules, warnings and presence see the time pass as they would have. Answers how many
 * messages ingestion received and stored.
 */
export async function replayHistory(
  ctx: AppContext,
  tenantId: string,
  devices: readonly HistoryDevice[],
  now: number,
): Promise<{ messages: number; stored: number }> {
  return replayMessages(ctx, historyMessages(tenantId, devices, now), historyStart(now), now);
}

/**
 * Publishes timed messages (oldest first) into an ingestion of their own, hour by hour from
 * `start`, its clock at the end of each hour (at most `now`), and answers how many it stored.
 */
export async function replayMessages(
  ctx: AppContext,
  timed: readonly Timed[],
  start: number,
  now: number,
): Promise<{ messages: number; stored: number }> {
  let clock = start;
  const ingestion = new Ingestion({
    pool: ctx.database.pool,
    directory: createDeviceDirectory(ctx),
    warn: (text, error) => ctx.logs.warn(`demo tenant: ${text}`, error),
    now: () => clock,
    totals: ctx.totals,
  });
  try {
    let i = 0;
    for (let hourEnd = start + HOUR_MS; i < timed.length; hourEnd += HOUR_MS) {
      clock = Math.min(hourEnd, now);
      for (; i < timed.length && (timed[i] as Timed).at <= hourEnd; i++)
        ingestion.push((timed[i] as Timed).message, () => undefined);
      await ingestion.drain();
    }
  } finally {
    await ingestion.stop();
  }
  if (ingestion.counters.stored !== timed.length)
    throw new Error(`demo tenant: ingestion stored ${ingestion.counters.stored} of ${timed.length} messages`);
  return { messages: timed.length, stored: ingestion.counters.stored };
}
