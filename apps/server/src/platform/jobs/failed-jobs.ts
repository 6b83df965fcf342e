/** A job that ran out of retries, as the platform administrator sees it. */
export interface FailedJob {
  id: string;
  /** The kind of job (`log.prune`). */
  name: string;
  /** What it was asked to do. */
  payload: unknown;
  /** The last run's error message. */
  error: string;
  /** Retries made before giving up (the first run is not counted). */
  retryCount: number;
  retryLimit: number;
  createTime: Date;
  /** When the last run started. */
  startTime: Date | null;
  /** When the job was recorded as failed. */
  failTime: Date | null;
}

const MAX_ERROR = 2000;

/** The message of a failed run's output: pg-boss stores the thrown error serialised. */
export function errorMessageOf(output: unknown): string {
  if (output && typeof output === 'object') {
    const o = output as Record<string, unknown>;
    if (typeof o.value === 'string') return o.value.slice(0, MAX_ERROR);
    const inner = o.value && typeof o.value === 'object' ? (o.value as Record<string, unknown>) : o;
    const message = typeof inner.message === 'string' ? inner.message : JSON.stringify(output);
    return message.slice(0, MAX_ERROR);
  }
  return output === null || output === undefined ? '' : String(output).slice(0, MAX_ERROR);
}
