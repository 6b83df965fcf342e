import { sql } from 'drizzle-orm';
import { enumLabelOf, type DeviceCycleNow } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { modelLabelsOf } from './model-labels';

const valueOf = (v: unknown): number | string | null => (typeof v === 'number' || typeof v === 'string' ? v : null);

/**
 * The current cycle of these devices (by id, rows the caller already read within its scope): the
 * latest values of the fields their product names for program, phase and remaining time
 * (docs/devices.md "Run state"), with the names the model fields' enumerations give the program
 * and the phase (134℃ 标准 · 灭菌), both languages, the values beside them. One query for a page
 * of devices; the names come from the tenant's cached model (model-labels.ts).
 */
export async function cyclesNow(ctx: AppContext, ids: readonly string[]): Promise<Map<string, DeviceCycleNow>> {
  const found = new Map<string, DeviceCycleNow>();
  if (!ids.length) return found;
  const result = await ctx.db.execute(sql`
    select d.id::text as id, d.tenant_id, d.device_code, p.program_field, p.phase_field,
           l.latest -> nullif(p.program_field, '') -> 'v' as program,
           l.latest -> nullif(p.phase_field, '') -> 'v' as phase,
           l.latest -> nullif(p.remaining_field, '') -> 'v' as remaining
      from mes_device d
      join mes_product p on p.id = d.product_id
      left join mes_device_latest l
        on l.tenant_id = d.tenant_id and l.device_code = d.device_code and l.is_deleted = 0
     where d.id = any(${`{${ids.join(',')}}`}::bigint[])`);
  const labels = modelLabelsOf(ctx);
  for (const row of result.rows as {
    id: string;
    tenant_id: string;
    device_code: string;
    program_field: string;
    phase_field: string;
    program: unknown;
    phase: unknown;
    remaining: unknown;
  }[]) {
    const remaining = valueOf(row.remaining);
    const program = valueOf(row.program);
    const phase = valueOf(row.phase);
    const fields = program === null && phase === null ? [] : await labels.fieldsOf(row.tenant_id, row.device_code);
    found.set(row.id, {
      program,
      phase,
      programLabel: enumLabelOf(fields, row.program_field, program) ?? null,
      phaseLabel: enumLabelOf(fields, row.phase_field, phase) ?? null,
      remainingSeconds: typeof remaining === 'number' ? remaining : null,
    });
  }
  return found;
}
