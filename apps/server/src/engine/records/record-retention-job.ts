import { and, eq, getTableColumns, inArray, lt } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { ResourceDef } from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../app-context';
import { defineJob } from '../../platform/jobs/job-definition';
import type { AnyResourceTable } from '../resource-access';
import { RecordChain } from './record-chain';
import { retentionCutoff } from './record-retention-rules';

export const recordRetentionJob = defineJob({
  name: 'records.retention',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
});

/** Daily, at a quiet hour (server time zone). */
export const RECORD_RETENTION_CRON = '23 3 * * *';

/** Rows removed per statement: a long-idle install catches up in steps, not one huge delete. */
const BATCH = 5000;

export interface RetentionRemoval {
  code: string;
  tenantId: string;
  type: number;
  days: number;
  cutoff: string;
  ids: string[];
}

/**
 * Removes the records past their retention, across every tenant, type by type: the only way a
 * record leaves the table, and the chain heads record which positions it removed. Each removal is written to the usual log (what, whose, how many, which
 * ids) and returned as the job's output.
 */
export async function removeExpiredRecords(
  ctx: AppContext,
  records: readonly { def: ResourceDef; table: AnyResourceTable }[],
): Promise<RetentionRemoval[]> {
  const now = new Date(ctx.clock.now());
  const removals: RetentionRemoval[] = [];
  for (const { def, table } of records) {
    const rules = def.records;
    const tenant = table.tenantId;
    if (!rules || !tenant) continue;
    const chain = new RecordChain(def, table);
    await ctx.db.transaction((tx) => chain.ensureAdopted(tx));
    const cols = getTableColumns(table) as Record<string, PgColumn>;
    const typeColumn = cols[rules.retention.typeField] as PgColumn;
    const timeColumn = cols[rules.retention.timeField] as PgColumn;
    const returned = {
      id: table.id,
      tenantId: tenant,
      partition: chain.column(rules.chainBy),
      seq: chain.column('chainSeq'),
      hash: chain.column('rowHash'),
    };
    for (const [type, rule] of Object.entries(rules.retention.types)) {
      const { days, cutoff } = await retentionCutoff(ctx.db, rule, now);
      const expired = and(eq(typeColumn, Number(type)), lt(timeColumn, cutoff));
      for (;;) {
        // The rows go and their chains' heads learn which positions went, in one transaction:
        // a removal the heads do not record is a deletion `verify` reports.
        const gone = await ctx.db.transaction(async (tx) => {
          const batch = tx.select({ id: table.id }).from(table).where(expired).limit(BATCH);
          // tenancy: all tenants (retention applies to every tenant's records alike)
          const rows = await tx.delete(table).where(inArray(table.id, batch)).returning(returned);
          const byChain = new Map<
            string,
            { tenantId: string; partition: string; rows: { seq: number; hash: string }[] }
          >();
          for (const row of rows) {
            const key = JSON.stringify([String(row.tenantId), String(row.partition)]);
            const entry = byChain.get(key) ?? {
              tenantId: String(row.tenantId),
              partition: String(row.partition),
              rows: [],
            };
            entry.rows.push({ seq: Number(row.seq), hash: String(row.hash) });
            byChain.set(key, entry);
          }
          // Chain locks in one order, so two removals never wait on each other.
          for (const key of [...byChain.keys()].sort()) {
            const entry = byChain.get(key);
            if (entry) await chain.retired(tx, entry.tenantId, entry.partition, entry.rows);
          }
          return rows;
        });
        const byTenant = new Map<string, string[]>();
        for (const row of gone)
          byTenant.set(String(row.tenantId), [...(byTenant.get(String(row.tenantId)) ?? []), String(row.id)]);
        for (const [tenantId, ids] of byTenant) {
          const removal = { code: def.code, tenantId, type: Number(type), days, cutoff: cutoff.toISOString(), ids };
          removals.push(removal);
          ctx.logs.usual(undefined, {
            logId: 'records.retention',
            logData: `保存期任务删除 租户 ${tenantId} 的${rule.label.zh} ${ids.length} 条(保存期 ${days} 天,结束早于 ${removal.cutoff}):${ids.join(',')}`,
          });
          await ctx.totals.changed(def.code, tenantId);
        }
        if (gone.length < BATCH) break;
      }
    }
  }
  return removals;
}

/** Registers and schedules the retention job for the record definitions of the registry. */
export function scheduleRecordRetention(
  ctx: AppContext,
  records: readonly { def: ResourceDef; table: AnyResourceTable }[],
): void {
  if (!records.length) return;
  oncePerContext(ctx, recordRetentionJob.name, () => {
    ctx.jobs.register(recordRetentionJob, async () => ({ removed: await removeExpiredRecords(ctx, records) }));
    ctx.jobs.schedule(recordRetentionJob, RECORD_RETENTION_CRON, {});
  });
}
