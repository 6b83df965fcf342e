import type pg from 'pg';
import type { LatestEntry } from '@mes/contracts';
import { nextId } from '../../platform/db/ids';
import type { TelemetryRow } from './telemetry-row';
import type { Statement } from './batch-statements';

/**
 * The latest values of a batch, one row per device (`mes_device_latest`, docs/mqtt.md "Latest
 * values"): the newest point of each field, merged into the stored row by one statement for the
 * whole batch. The merge is PostgreSQL's, against the stored row under its lock (`on conflict do
 * update`), so that two processes writing the same device (a shared subscription splits a
 * device's messages) keep the newest value of every field whatever order they commit in.
 */

/** The rule of the latest values: an incoming point replaces the stored one unless that one is newer. */
export const replaces = (stored: { ts: number } | undefined, incoming: { ts: number }) =>
  stored === undefined || stored.ts <= incoming.ts;

/** The entries of one device to merge: field → its newest point of the batch. */
export interface DeviceLatest {
  tenantId: string;
  deviceCode: string;
  entries: Map<string, LatestEntry & { num: string | null }>;
}

/**
 * The batch's points by device, the newest of each field kept by {@link replaces} (of two points
 * at the same time, the one read last). Devices in no particular order: the statement orders them.
 */
export function latestByDevice(points: readonly TelemetryRow[]): DeviceLatest[] {
  const devices = new Map<string, DeviceLatest>();
  for (const p of points) {
    const key = `${p.tenantId}\u0000${p.deviceCode}`;
    let device = devices.get(key);
    if (!device) devices.set(key, (device = { tenantId: p.tenantId, deviceCode: p.deviceCode, entries: new Map() }));
    const incoming = { ts: p.ts.getTime(), v: p.num !== null ? Number(p.num) : (p.text ?? ''), num: p.num };
    if (replaces(device.entries.get(p.field), incoming)) device.entries.set(p.field, incoming);
  }
  return [...devices.values()];
}

/**
 * The JSON text of a device's entries. A number is written as the decimal text ingestion checked
 * and rounded (at most 6 decimals, within ±2^53), not as a double: jsonb keeps it exactly as the
 * numeric column did (1000000000000000.125 stays so, where a double would print …0.1).
 */
export function entriesJson(entries: DeviceLatest['entries']): string {
  const parts: string[] = [];
  for (const [field, e] of entries) {
    const value = e.num !== null ? e.num : JSON.stringify(e.v);
    parts.push(`${JSON.stringify(field)}:{"ts":${e.ts},"v":${value}}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Per incoming entry `e` of a device: whether it replaces the stored entry of its field — the
 * same rule as {@link replaces} (a stored entry with no time never wins), and not when it is
 * the stored entry already (a message stored twice rewrites nothing).
 */
const WINS = `coalesce((d.latest -> e.key ->> 'ts')::bigint <= (e.value ->> 'ts')::bigint, true)
              and (d.latest -> e.key) is distinct from e.value`;

/**
 * One statement for the batch: a new device's row is inserted; a stored one takes the entries
 * that win against it, and is not written at all when none does (a late batch). Rows are taken
 * in key order, so two batches locking the same devices never wait on each other in a cycle.
 */
const MERGE_LATEST = `
insert into mes_device_latest as d (id, tenant_id, device_code, latest)
select id, tenant_id, device_code, latest
  from jsonb_to_recordset($1::jsonb) as n(id bigint, tenant_id varchar, device_code varchar, latest jsonb)
 order by tenant_id, device_code
on conflict (tenant_id, device_code) where is_deleted = 0 do update
  set latest = coalesce(d.latest, '{}') || coalesce(
        (select jsonb_object_agg(e.key, e.value) from jsonb_each(excluded.latest) e where ${WINS}), '{}'),
      update_time = now()
  where exists (select 1 from jsonb_each(excluded.latest) e where ${WINS})`;

/**
 * The merge of `devices` into their stored rows, as one parameterised statement. The batch is
 * one JSON parameter (`[{id, tenant_id, device_code, latest}, …]`) rather than one array per
 * column: each device's entries are JSON already, and as elements of a jsonb[] every quote in
 * them would be escaped again for the array literal (about a quarter less time end to end
 * at 1,000 devices, docs/ingest-performance.md).
 */
export function latestMerge(devices: readonly DeviceLatest[]): Statement {
  const rows = devices.map(
    (d) =>
      `{"id":"${nextId()}","tenant_id":${JSON.stringify(d.tenantId)},"device_code":${JSON.stringify(d.deviceCode)},"latest":${entriesJson(d.entries)}}`,
  );
  return { text: MERGE_LATEST, values: [`[${rows.join(',')}]`] };
}

/** Inside the batch's transaction: the batch's newest points merged into their devices' rows. */
export async function mergeDeviceLatest(client: pg.PoolClient, points: readonly TelemetryRow[]): Promise<void> {
  if (!points.length) return;
  await client.query(latestMerge(latestByDevice(points)));
}
