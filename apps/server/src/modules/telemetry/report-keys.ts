import type pg from 'pg';
import type { IncomingMessage } from '../../platform/mqtt/topics';
import type { AcquisitionRow } from './batch-rows';

/**
 * A report a device publishes twice is stored once (docs/mqtt.md "Duplicates a device sends"): a
 * report carrying its own `ts` and a `seq` (JSON) — or a Sparkplug payload's timestamp and seq — is
 * one report per device, time and seq. The acquisition data keeps exactly that per report, so the
 * check is an index probe of `mes_acqdata_device_time_idx` (tenant, device, time) per such report,
 * in the batch's transaction; reports without a device time or a seq are not checked.
 */

/** The log row's error of a report stored already. */
export const DUPLICATE_TEXT = 'duplicate: a report with this ts and seq is stored already; not stored again';

/** Thrown when a batch holds reports stored already: the batch is built again without them. */
export class DuplicateReports extends Error {
  constructor(readonly messages: readonly IncomingMessage[]) {
    super(`${messages.length} report(s) stored already`);
  }
}

/** The key of a report that has one: the device's own time (not the receive time) and a seq. */
export function reportKey(report: AcquisitionRow, receivedAt: Date): string | undefined {
  if (report.seq === null || report.collectTime.getTime() === receivedAt.getTime()) return undefined;
  return `${report.tenantId}\u0000${report.deviceCode}\u0000${report.collectTime.getTime()}\u0000${report.seq}`;
}

/**
 * Inside the batch's transaction: the reports of `keyed` already stored. The devices' keys are
 * locked first (transaction advisory locks, in one order), so two processes given the two copies
 * of one report at once cannot both find it missing.
 */
export async function storedReports(
  client: Pick<pg.PoolClient, 'query'>,
  keyed: ReadonlyMap<string, IncomingMessage>,
): Promise<IncomingMessage[]> {
  if (!keyed.size) return [];
  const parts = [...keyed.keys()].map((key) => key.split('\u0000'));
  const devices = [...new Set(parts.map(([tenant, device]) => `${tenant}/${device}`))].sort();
  await client.query(
    `select pg_advisory_xact_lock(727026, hashtext(d)) from (select unnest($1::text[]) as d order by 1) s`,
    [devices],
  );
  const found = await client.query<{ tenant_id: string; device_code: string; ms: string; seq: number }>(
    `select a.tenant_id, a.device_code, (extract(epoch from a.collect_time) * 1000)::bigint::text as ms, a.seq
       from unnest($1::varchar[], $2::varchar[], $3::timestamptz[], $4::int[]) as k(tenant_id, device_code, ts, seq)
       join mes_acqdata a
         on a.tenant_id = k.tenant_id and a.device_code = k.device_code and a.collect_time = k.ts and a.seq = k.seq`,
    [
      parts.map((p) => p[0]),
      parts.map((p) => p[1]),
      parts.map((p) => new Date(Number(p[2]))),
      parts.map((p) => Number(p[3])),
    ],
  );
  return found.rows.flatMap((r) => {
    const m = keyed.get(`${r.tenant_id}\u0000${r.device_code}\u0000${r.ms}\u0000${r.seq}`);
    return m ? [m] : [];
  });
}
