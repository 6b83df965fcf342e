import {
  apiLogResource,
  DEFAULT_LOG_RETENTION_DAYS,
  errorLogResource,
  LOG_RETENTION_PARAM,
  loginLogResource,
  operationLogResource,
  usualLogResource,
} from '@mes/contracts';
import type { PruneResult } from '../../platform/audit/log-writers';
import type { Db } from '../../platform/db/database';
import { z } from 'zod';
import { defineJob } from '../../platform/jobs/job-definition';
import { upkeepAll } from '../../platform/series/upkeep';

export const RETENTION_PARAM = LOG_RETENTION_PARAM;
export const DEFAULT_RETENTION_DAYS = DEFAULT_LOG_RETENTION_DAYS;

/**
 * The retention job of the logs: one run per hour for all server processes together (a durable
 * schedule, see docs/jobs.md), plus one shortly after a start. The logs are series tables
 * (docs/series.md): a run creates their partitions ahead and drops whole partitions older than
 * `log.retentionDays`. A failed run is retried after 1–2, 2–4 and 4–8 minutes, then shown among
 * the failed jobs.
 */
export const logPruneJob = defineJob({
  name: 'log.prune',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 60 * 60,
});
/** Hourly, off the top of the hour when other housekeeping tends to run. */
export const LOG_PRUNE_CRON = '7 * * * *';

/** Every log, by its definition. */
export const LOG_DEFINITIONS = [
  apiLogResource,
  usualLogResource,
  errorLogResource,
  loginLogResource,
  operationLogResource,
] as const;

export type { PruneResult };

/**
 * Partition upkeep of the five logs, with the retention read from `log.retentionDays` on every
 * run (so a change applies at the next run).
 */
export async function pruneLogs(db: Db, now: Date): Promise<PruneResult> {
  const results = await upkeepAll(db, LOG_DEFINITIONS, now);
  const all = Object.values(results);
  const first = all[0];
  return {
    retentionDays: first?.retentionDays ?? DEFAULT_RETENTION_DAYS,
    cutoff: first?.cutoff ?? now,
    deleted: Object.fromEntries(Object.entries(results).map(([code, r]) => [code, r.removed])),
    created: all.flatMap((r) => r.created),
    dropped: all.flatMap((r) => r.dropped),
    postponed: all.flatMap((r) => r.postponed),
  };
}
