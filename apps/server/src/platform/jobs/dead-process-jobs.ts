import type PgBoss from 'pg-boss';
import type pg from 'pg';
import type { ProcessRegistry } from '../cluster/process-registry';

/**
 * Jobs whose process died (docs/jobs.md "A crash during a job"). pg-boss keeps no record of which
 * process holds an active job; left alone, a job of a killed process stays `active` until its
 * `expireInSeconds` (10 minutes for a report) and is then failed or retried, and nothing tells the
 * place that shows its outcome. So each run is recorded in `mes_server_job_run` with the process's
 * registry instance, and survivors give back the runs of dead processes through pg-boss's own
 * `fail` (a retry if the job has retries left, else failed, counted like any failed run).
 */

/** pg-boss's pool (its `Db` opens one `pg.Pool`): a run's claim and its `fail` share one transaction. */
const poolOf = (boss: PgBoss): pg.Pool | undefined => (boss.getDb() as unknown as { pool?: pg.Pool }).pool;

/** Shown as the failed run's error (the failed-jobs screen) and handed to `failed` hooks. */
export const PROCESS_DIED = '运行该任务的服务进程已停止 / The server process running this job stopped';

export async function recordJobRun(boss: PgBoss, jobId: string, name: string, instanceId: string): Promise<void> {
  await boss.getDb().executeSql(
    `insert into mes_server_job_run (job_id, name, instance_id) values ($1, $2, $3)
       on conflict (job_id) do update set instance_id = excluded.instance_id, started_at = now()`,
    [jobId, name, instanceId],
  );
}

export interface GiveBackOptions {
  boss: PgBoss;
  schema: string;
  cluster: ProcessRegistry;
  /** The `failed` hook of a kind of job, if this process registered one. */
  failed(name: string): ((payload: never, message: string) => Promise<void>) | undefined;
  warn(message: string, error?: unknown): void;
}

/** One pass: forgets finished runs, then gives back each run of a dead process (claimed by deleting its row). */
export async function giveBackJobsOfDeadProcesses(options: GiveBackOptions): Promise<number> {
  const { boss, schema, cluster } = options;
  const pool = poolOf(boss);
  if (!pool) return 0;
  await pool.query(
    `delete from mes_server_job_run r where not exists (
       select 1 from ${schema}.job j where j.name = r.name and j.id = r.job_id and j.state = 'active')`,
  );
  const { rows } = await pool.query<{ job_id: string; name: string; instance_id: string }>(
    `select job_id, name, instance_id from mes_server_job_run where instance_id <> $1 limit 500`,
    [cluster.instanceId],
  );
  if (!rows.length) return 0;
  const dead = await cluster.deadAmong([...new Set(rows.map((r) => r.instance_id))]);
  let given = 0;
  for (const run of rows) {
    if (!dead.has(run.instance_id)) continue;
    const client = await pool.connect();
    let outcome: { state: string; data: unknown } | undefined;
    try {
      await client.query('begin');
      // Deleting the row is the claim: of several survivors, one gets it.
      const claimed = await client.query(`delete from mes_server_job_run where job_id = $1 and instance_id = $2`, [
        run.job_id,
        run.instance_id,
      ]);
      const { rows: jobs } = claimed.rowCount
        ? await client.query<{ state: string }>(
            `select state from ${schema}.job where name = $1 and id = $2 for update`,
            [run.name, run.job_id],
          )
        : { rows: [] };
      if (jobs[0]?.state === 'active') {
        await boss.fail(run.name, run.job_id, { message: PROCESS_DIED }, {
          db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) },
        } as never);
        const { rows: after } = await client.query<{ state: string; data: unknown }>(
          `select state, data from ${schema}.job where name = $1 and id = $2`,
          [run.name, run.job_id],
        );
        outcome = after[0];
      }
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    if (!outcome) continue;
    given++;
    options.warn(
      `job ${run.name} ${run.job_id}: its process ${run.instance_id} died; ${outcome.state === 'failed' ? 'failed (no retries left)' : 'given back for a retry'}`,
    );
    const hook = outcome.state === 'failed' ? options.failed(run.name) : undefined;
    if (hook) await hook(outcome.data as never, PROCESS_DIED);
  }
  return given;
}
