import type pg from 'pg';
import { nextId } from '../db/ids';
import type { TelemetryRow } from './batch-rows';

/** One rollup level: a table of count, sum, min and max per device, field and UTC period. */
export interface RollupLevel {
  seconds: number;
  table: string;
  column: string;
}

/**
 * The rollup levels, finest first (docs/devices.md "IoT calls"): the order in which a batch locks
 * their rows. Every level's width is a multiple of the previous one's, so a coarser period is a
 * union of whole finer ones.
 */
export const ROLLUP_LEVELS: readonly RollupLevel[] = [
  { seconds: 60, table: 'mes_telemetry_minute', column: 'minute' },
  { seconds: 900, table: 'mes_telemetry_quarter', column: 'quarter' },
];

/**
 * Adds a batch's numeric points to one level, grouped by device, field and period. Points are
 * grouped here only to give each new rollup row one id; the sums themselves are taken by
 * PostgreSQL in NUMERIC, so they stay exact. Rows are upserted in key order: two processes adding
 * to the same periods then lock them in the same order instead of deadlocking.
 */
async function addToLevel(client: pg.PoolClient, level: RollupLevel, numeric: readonly TelemetryRow[]) {
  const width = level.seconds * 1000;
  const idOfKey = new Map<string, string>();
  const ids: string[] = [];
  const periods: Date[] = [];
  for (const p of numeric) {
    const period = Math.floor(p.ts.getTime() / width) * width;
    const key = `${p.tenantId}\u0000${p.deviceCode}\u0000${p.field}\u0000${period}`;
    let id = idOfKey.get(key);
    if (!id) {
      id = nextId();
      idOfKey.set(key, id);
    }
    ids.push(id);
    periods.push(new Date(period));
  }
  // Table and column names come from ROLLUP_LEVELS above, never from a request.
  const { table, column } = level;
  await client.query(
    `insert into ${table} (id, tenant_id, device_code, field, ${column}, points, total, low, high)
     select min(id), tenant_id, device_code, field, period, count(*), sum(num), min(num), max(num)
       from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[], $6::numeric[])
            as p(id, tenant_id, device_code, field, period, num)
      group by tenant_id, device_code, field, period
      order by tenant_id, device_code, field, period
     on conflict (tenant_id, device_code, field, ${column}) do update
       set points = ${table}.points + excluded.points,
           total = ${table}.total + excluded.total,
           low = least(${table}.low, excluded.low),
           high = greatest(${table}.high, excluded.high)`,
    [
      ids,
      numeric.map((p) => p.tenantId),
      numeric.map((p) => p.deviceCode),
      numeric.map((p) => p.field),
      periods,
      numeric.map((p) => p.num),
    ],
  );
}

/**
 * Adds a batch's numeric points to every rollup level (`mes_telemetry_minute`, then
 * `mes_telemetry_quarter`), inside the batch's transaction, so each level holds exactly the
 * committed points (late ones included). Levels are written finest first by every process, so
 * no two batches wait on each other's rows in opposite orders.
 */
export async function addToRollups(client: pg.PoolClient, points: readonly TelemetryRow[]): Promise<void> {
  const numeric = points.filter((p) => p.num !== null);
  if (!numeric.length) return;
  for (const level of ROLLUP_LEVELS) await addToLevel(client, level, numeric);
}
