import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';

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

export interface FailedJobsQuery {
  /** Only this kind of job. */
  name?: string | undefined;
  offset: number;
  limit: number;
}

interface FailedJobRow extends Record<string, unknown> {
  id: string;
  name: string;
  data: unknown;
  output: unknown;
  retry_count: number;
  retry_limit: number;
  created_ms: number;
  started_ms: number | null;
  completed_ms: number | null;
  total: string;
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

/**
 * Failed jobs, latest first, from both of pg-boss's tables: a failed job stays in `job` until
 * maintenance moves it to `archive` (after 12 hours), where it is kept until deleted (7 days).
 */
export async function listFailedJobs(
  db: Db,
  schema: string,
  query: FailedJobsQuery,
): Promise<{ records: FailedJob[]; total: number }> {
  const jobTable = sql`${sql.identifier(schema)}.${sql.identifier('job')}`;
  const archiveTable = sql`${sql.identifier(schema)}.${sql.identifier('archive')}`;
  const byName = query.name === undefined ? sql`` : sql` and name = ${query.name}`;
  const columns = sql.raw('id, name, data, output, retry_count, retry_limit, created_on, started_on, completed_on');
  // Times as epoch milliseconds: Drizzle's driver hands raw statements' timestamps over as text.
  const ms = (column: string) => sql.raw(`(extract(epoch from ${column}) * 1000)::float8`);
  const result = await db.execute<FailedJobRow>(sql`
    with failed as (
      select ${columns} from ${jobTable} where state = 'failed'${byName}
      union all
      select ${columns} from ${archiveTable} where state = 'failed'${byName}
    )
    select id, name, data, output, retry_count, retry_limit,
      ${ms('created_on')} as created_ms, ${ms('started_on')} as started_ms, ${ms('completed_on')} as completed_ms,
      count(*) over () as total
    from failed
    order by completed_on desc nulls last, id
    limit ${query.limit} offset ${query.offset}`);
  let total = Number(result.rows[0]?.total ?? 0);
  if (!result.rows.length && query.offset > 0) {
    // A page past the end still tells how many there are.
    const counted = await db.execute<{ total: string }>(sql`
      select (select count(*) from ${jobTable} where state = 'failed'${byName})
           + (select count(*) from ${archiveTable} where state = 'failed'${byName}) as total`);
    total = Number(counted.rows[0]?.total ?? 0);
  }
  return {
    records: result.rows.map((row) => ({
      id: row.id,
      name: row.name,
      payload: row.data,
      error: errorMessageOf(row.output),
      retryCount: row.retry_count,
      retryLimit: row.retry_limit,
      createTime: new Date(Number(row.created_ms)),
      startTime: row.started_ms === null ? null : new Date(Number(row.started_ms)),
      failTime: row.completed_ms === null ? null : new Date(Number(row.completed_ms)),
    })),
    total,
  };
}
