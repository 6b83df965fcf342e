import type { z } from 'zod';

/**
 * What happens when a run throws (or outlives {@link JobDefinition.expireInSeconds}): the job is
 * run again up to `limit` more times, then kept as failed for the platform administrator.
 */
export interface RetryPolicy {
  /** Runs after the first; 0 fails the job at its first error. */
  limit: number;
  /** Seconds before the first retry. */
  delaySeconds: number;
  /**
   * Each following wait doubles, with up to as much again of random spread so that jobs failing
   * together do not retry together (pg-boss: `delay × 2^n / 2 × (1 + random)`).
   */
  backoff: boolean;
}

/** A kind of job: its queue name, the shape of its payload and how it is retried. */
export interface JobDefinition<P> {
  /** Queue name, `area.action` (`log.prune`); it is also the row key of the job's schedule. */
  readonly name: string;
  /** Checked when a job is enqueued and again when it runs (payloads are stored as JSON). */
  readonly payload: z.ZodType<P>;
  readonly retry: RetryPolicy;
  /** A run still going after this long counts as failed (and is retried). */
  readonly expireInSeconds: number;
}

export const DEFAULT_RETRY: RetryPolicy = { limit: 3, delaySeconds: 30, backoff: true };
export const DEFAULT_EXPIRE_SECONDS = 15 * 60;

/** Lower-case words joined by dots or dashes: safe as a pg-boss queue and schedule name. */
const JOB_NAME = /^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$/;
export const MAX_JOB_NAME = 100;

export const isJobName = (name: string) => name.length <= MAX_JOB_NAME && JOB_NAME.test(name);

export interface JobSpec<P extends Record<string, unknown>> {
  name: string;
  /** A JSON object schema (`z.object`): dates and other non-JSON values do not survive storage. */
  payload: z.ZodType<P>;
  retry?: Partial<RetryPolicy>;
  expireInSeconds?: number;
}

/**
 * Declares a kind of job. Producers need only the definition (to enqueue with a typed payload);
 * the handler is registered once, where the server is wired (`JobQueue.register`).
 */
export function defineJob<P extends Record<string, unknown>>(spec: JobSpec<P>): JobDefinition<P> {
  if (!isJobName(spec.name)) throw new Error(`job name ${JSON.stringify(spec.name)} is not lower-case.dotted`);
  const retry = { ...DEFAULT_RETRY, ...spec.retry };
  if (!Number.isInteger(retry.limit) || retry.limit < 0) throw new Error(`job ${spec.name}: retry.limit must be ≥ 0`);
  if (!Number.isInteger(retry.delaySeconds) || retry.delaySeconds < 0)
    throw new Error(`job ${spec.name}: retry.delaySeconds must be a whole number ≥ 0`);
  const expireInSeconds = spec.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS;
  // pg-boss refuses expirations of a day or more.
  if (!Number.isInteger(expireInSeconds) || expireInSeconds < 1 || expireInSeconds >= 24 * 3600)
    throw new Error(`job ${spec.name}: expireInSeconds must be from 1 to 86399`);
  return { name: spec.name, payload: spec.payload, retry, expireInSeconds };
}
