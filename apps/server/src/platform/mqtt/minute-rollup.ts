import type pg from 'pg';
import { nextId } from '../db/ids';
import type { TelemetryRow } from './batch-rows';

const MINUTE_MS = 60_000;

/**
 * Adds a batch's numeric points to the per-minute rollup (`mes_telemetry_minute`), inside the
 * batch's transaction, so the rollup holds exactly the committed points (late ones included).
 * Points are grouped by device, field and UTC minute here only to give each new rollup row one id;
 * the sums themselves are taken by PostgreSQL in NUMERIC, so they stay exact. Rows are upserted
 * in key order: two processes adding to the same minutes then lock them in the same order
 * instead of deadlocking.
 */
export async function addToMinuteRollup(client: pg.PoolClient, points: readonly TelemetryRow[]): Promise<void> {
  const numeric = points.filter((p) => p.num !== null);
  if (!numeric.length) return;
  const idOfKey = new Map<string, string>();
  const ids: string[] = [];
  const minutes: Date[] = [];
  for (const p of numeric) {
    const minute = Math.floor(p.ts.getTime() / MINUTE_MS) * MINUTE_MS;
    const key = `${p.tenantId}\u0000${p.deviceCode}\u0000${p.field}\u0000${minute}`;
    let id = idOfKey.get(key);
    if (!id) {
      id = nextId();
      idOfKey.set(key, id);
    }
    ids.push(id);
    minutes.push(new Date(minute));
  }
  await client.query(
    `insert into mes_telemetry_minute (id, tenant_id, device_code, field, minute, points, total, low, high)
     select min(id), tenant_id, device_code, field, minute, count(*), sum(num), min(num), max(num)
       from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[], $6::numeric[])
            as p(id, tenant_id, device_code, field, minute, num)
      group by tenant_id, device_code, field, minute
      order by tenant_id, device_code, field, minute
     on conflict (tenant_id, device_code, field, minute) do update
       set points = mes_telemetry_minute.points + excluded.points,
           total = mes_telemetry_minute.total + excluded.total,
           low = least(mes_telemetry_minute.low, excluded.low),
           high = greatest(mes_telemetry_minute.high, excluded.high)`,
    [
      ids,
      numeric.map((p) => p.tenantId),
      numeric.map((p) => p.deviceCode),
      numeric.map((p) => p.field),
      minutes,
      numeric.map((p) => p.num),
    ],
  );
}
