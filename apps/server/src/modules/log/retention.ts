import { inArray, lt } from 'drizzle-orm';
import {
  apiLogResource,
  errorLogResource,
  loginLogResource,
  operationLogResource,
  usualLogResource,
} from '@mes/contracts';
import type { Db } from '../../platform/db/database';
import { apiLog, errorLog, loginLog, operationLog, usualLog } from '../../platform/db/schema';
import { readIntParam } from '../../platform/db/params';
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';

export const RETENTION_PARAM = 'log.retentionDays';
export const DEFAULT_RETENTION_DAYS = 90;
/** Rows per delete: short statements keep locks and WAL bursts small on a large table. */
export const PRUNE_BATCH = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The retention job: one prune per hour for all server processes together (a durable schedule,
 * see docs/jobs.md), plus one shortly after a start. A failed prune is retried after 1–2, 2–4
 * and 4–8 minutes, then shown among the failed jobs.
 */
export const logPruneJob = defineJob({
  name: 'log.prune',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 60 * 60,
});
/** Hourly, off the top of the hour when other housekeeping tends to run. */
export const LOG_PRUNE_CRON = '7 * * * *';

/** Every log table, by the code of its resource. */
export const LOG_TABLES = [
  [apiLogResource.code, apiLog],
  [usualLogResource.code, usualLog],
  [errorLogResource.code, errorLog],
  [loginLogResource.code, loginLog],
  [operationLogResource.code, operationLog],
] as const;

export interface PruneResult {
  retentionDays: number;
  cutoff: Date;
  /** Rows deleted per log. */
  deleted: Record<string, number>;
}

/**
 * Deletes the log rows older than `log.retentionDays` (read on every run, so a change applies at
 * the next prune), in batches of {@link PRUNE_BATCH}.
 */
export async function pruneLogs(db: Db, now: Date): Promise<PruneResult> {
  const retentionDays = await readIntParam(db, RETENTION_PARAM, DEFAULT_RETENTION_DAYS);
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const deleted: Record<string, number> = {};
  for (const [code, table] of LOG_TABLES) {
    let total = 0;
    for (;;) {
      const old = db.select({ id: table.id }).from(table).where(lt(table.createTime, cutoff)).limit(PRUNE_BATCH);
      const result = await db.delete(table).where(inArray(table.id, old));
      const n = result.rowCount ?? 0;
      total += n;
      if (n < PRUNE_BATCH) break;
    }
    deleted[code] = total;
  }
  return { retentionDays, cutoff, deleted };
}
