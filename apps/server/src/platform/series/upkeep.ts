import { z } from 'zod';
import type { ResourceDef } from '@mes/contracts';
import type { Db } from '../db/database';
import { defineJob } from '../jobs/job-definition';
import { seriesTableOf, upkeepSeries, type UpkeepResult } from './partitions';

/**
 * Partition upkeep of every series resource: hourly, once across all processes (a durable
 * schedule, docs/jobs.md). Retried after 1–2, 2–4 and 4–8 minutes, then listed as failed.
 */
export const seriesUpkeepJob = defineJob({
  name: 'series.upkeep',
  payload: z.object({}),
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 60 * 60,
});
/** Hourly, off the top of the hour. */
export const SERIES_UPKEEP_CRON = '7 * * * *';

/** The series resources of a list of definitions (the registry's, or a module's own). */
export const seriesDefinitions = (defs: readonly ResourceDef[]) =>
  defs.filter((d) => d.series !== undefined && d.series.viewOf === undefined);

/**
 * Runs the upkeep of each series in turn; one failing table does not stop the others, and the
 * run rejects at the end (so the job is retried) naming the tables that failed.
 */
export async function upkeepAll(
  db: Db,
  defs: readonly ResourceDef[],
  now: Date,
): Promise<Record<string, UpkeepResult>> {
  const results: Record<string, UpkeepResult> = {};
  const failed: { code: string; error: unknown }[] = [];
  for (const def of seriesDefinitions(defs)) {
    try {
      results[def.code] = await upkeepSeries(db, seriesTableOf(def), now);
    } catch (error) {
      failed.push({ code: def.code, error });
    }
  }
  if (failed.length)
    throw new AggregateError(
      failed.map((f) => f.error),
      `series upkeep failed for ${failed.map((f) => f.code).join(', ')}`,
    );
  return results;
}
