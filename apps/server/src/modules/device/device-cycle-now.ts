import { sql } from 'drizzle-orm';
import type { DeviceCycleNow } from '@mes/contracts';
import type { Db } from '../../platform/db/database';

const valueOf = (v: unknown): number | string | null => (typeof v === 'number' || typeof v === 'string' ? v : null);

/**
 * The current cycle of these devices (by id, rows the caller already read within its scope): the
 * latest values of the fields their product names for program, phase and remaining time
 * (docs/devices.md "Run state"). One query for a page of devices.
 */
export async function cyclesNow(db: Db, ids: readonly string[]): Promise<Map<string, DeviceCycleNow>> {
  const found = new Map<string, DeviceCycleNow>();
  if (!ids.length) return found;
  const result = await db.execute(sql`
    select d.id::text as id,
           l.latest -> nullif(p.program_field, '') -> 'v' as program,
           l.latest -> nullif(p.phase_field, '') -> 'v' as phase,
           l.latest -> nullif(p.remaining_field, '') -> 'v' as remaining
      from mes_device d
      join mes_product p on p.id = d.product_id
      left join mes_device_latest l
        on l.tenant_id = d.tenant_id and l.device_code = d.device_code and l.is_deleted = 0
     where d.id = any(${`{${ids.join(',')}}`}::bigint[])`);
  for (const row of result.rows as { id: string; program: unknown; phase: unknown; remaining: unknown }[]) {
    const remaining = valueOf(row.remaining);
    found.set(row.id, {
      program: valueOf(row.program),
      phase: valueOf(row.phase),
      remainingSeconds: typeof remaining === 'number' ? remaining : null,
    });
  }
  return found;
}
