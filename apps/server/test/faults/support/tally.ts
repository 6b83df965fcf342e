import fs from 'node:fs';
import type pg from 'pg';
import { inject } from 'vitest';
import type { TelemetryDevice } from './fleet';
import { sleep } from './ports';

export interface Tally {
  case: string;
  broker: string;
  sent: number;
  acknowledged: number;
  stored: number;
  /** Acknowledged but not stored. */
  lost: number;
  /** Stored more than once (extra rows). */
  duplicated: number;
}

/** How often each number of each device is stored (acquisition data `seq`, telemetry field `n`). */
async function storedTimes(pool: pg.Pool, codes: string[]) {
  const { rows } = await pool.query<{ device_code: string; seq: number; times: string }>(
    `select device_code, seq, count(*) as times from mes_acqdata
      where tenant_id = '000000' and device_code = any($1) and seq is not null group by 1, 2`,
    [codes],
  );
  const telemetry = await pool.query<{ device_code: string; n: string; times: string }>(
    `select device_code, num_value::bigint as n, count(*) as times from mes_telemetry
      where tenant_id = '000000' and device_code = any($1) and field = 'n' group by 1, 2`,
    [codes],
  );
  const byDevice = new Map<string, Map<number, number>>();
  const add = (code: string, n: number, times: number) => {
    const m = byDevice.get(code) ?? new Map<number, number>();
    m.set(n, Math.max(m.get(n) ?? 0, times));
    byDevice.set(code, m);
  };
  for (const r of rows) add(r.device_code, Number(r.seq), Number(r.times));
  for (const r of telemetry.rows) add(r.device_code, Number(r.n), Number(r.times));
  return byDevice;
}

/**
 * Counts what the devices sent and got acknowledged against what PostgreSQL holds. Waits up to
 * `settleMs` for acknowledged numbers to appear (through Mosquitto a PUBACK comes from the broker,
 * before the console stored anything), then counts. One line per case on stdout and in the run's
 * results file.
 */
export async function tally(
  pool: pg.Pool,
  label: { case: string; broker: string },
  devices: TelemetryDevice[],
  settleMs = 15_000,
): Promise<Tally> {
  const codes = devices.map((d) => d.code);
  const end = Date.now() + settleMs;
  let times = await storedTimes(pool, codes);
  const missing = () =>
    devices.reduce((sum, d) => sum + [...d.acked].filter((n) => !times.get(d.code)?.has(n)).length, 0);
  while (missing() > 0 && Date.now() < end) {
    await sleep(500);
    times = await storedTimes(pool, codes);
  }
  let stored = 0;
  let duplicated = 0;
  for (const m of times.values())
    for (const t of m.values()) {
      stored += 1;
      duplicated += t - 1;
    }
  const result: Tally = {
    ...label,
    sent: devices.reduce((s, d) => s + d.sent, 0),
    acknowledged: devices.reduce((s, d) => s + d.acked.size, 0),
    stored,
    lost: missing(),
    duplicated,
  };
  report(result);
  return result;
}

/** Prints a case's line (and appends it to the run's results, which the suite prints at its end). */
export function report(t: Tally, note = ''): void {
  const line = `FAULT ${t.case} | ${t.broker} | sent ${t.sent} | acknowledged ${t.acknowledged} | stored ${t.stored} | lost ${t.lost} | duplicated ${t.duplicated}${note ? ` | ${note}` : ''}`;
  process.stdout.write(`${line}\n`);
  fs.appendFileSync(inject('faultsResults'), `${line}\n`);
}

/** A line for a case that is not about counts (a behaviour observed). */
export function note(caseName: string, broker: string, text: string): void {
  const line = `FAULT ${caseName} | ${broker} | ${text}`;
  process.stdout.write(`${line}\n`);
  fs.appendFileSync(inject('faultsResults'), `${line}\n`);
}
