import { z } from 'zod';
import { defineJob } from './job-definition';

/**
 * Drops expired entries of the ephemeral store (captcha codes, counters, revoked sessions) from
 * PostgreSQL; a no-op with Redis, which expires them itself. Missing a run costs only table
 * size, so it retries twice and then waits for the next period.
 */
export const storePurgeJob = defineJob({
  name: 'store.purge',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
});
/** Every ten minutes. */
export const STORE_PURGE_CRON = '*/10 * * * *';
