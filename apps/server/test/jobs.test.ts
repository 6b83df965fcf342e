import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectDatabase, type Database } from '../src/platform/db/database';
import { defineJob } from '../src/platform/jobs/job-definition';
import { JobQueue, type JobQueueSettings } from '../src/platform/jobs/job-queue';
import { postgresChangeFeed } from '../src/platform/cache/change-feed';
import { announceJobsOn, wakeJobsFrom } from '../src/platform/jobs/job-announcements';
import { createTestDatabase } from './support/test-database';

/**
 * The job queue on a real PostgreSQL shared by several queue instances, each standing for one
 * server process: schedules, restarts, retries, transactions and shutdown.
 */
const FAST: Partial<JobQueueSettings> = {
  pollingIntervalSeconds: 0.5,
  cronMonitorIntervalSeconds: 1,
  cronWorkerIntervalSeconds: 1,
  stopTimeoutMs: 5000,
};

let url: string;
let drop: () => Promise<void>;
let database: Database;
const warnings: string[] = [];
const queues: JobQueue[] = [];

/** A queue of its own, as one more server process would have; stopped after the file. */
function process_(): JobQueue {
  const queue = new JobQueue({ connectionString: url, settings: FAST, warn: (message) => warnings.push(message) });
  queues.push(queue);
  return queue;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(100);
  }
}

async function jobRows(name: string) {
  const result = await database.db.execute<{ id: string; state: string; data: unknown; retry_count: number }>(
    sql`select id, state, data, retry_count from pgboss.job where name = ${name} order by created_on`,
  );
  return result.rows;
}

beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
  database = connectDatabase(url, 3);
  await database.db.execute(sql`create table note (id integer primary key, text text not null)`);
});

afterAll(async () => {
  await Promise.all(queues.map((q) => q.stop()));
  await database.close();
  await drop();
});

describe('job queue', () => {
  it('runs a cron schedule once per period when several processes share the database', async () => {
    // pg-boss schedules have minute resolution: keep the whole check inside one minute.
    const [clock] = (await database.db.execute<{ s: number }>(sql`select extract(second from now())::float as s`)).rows;
    const second = Number(clock?.s ?? 0);
    if (second > 50) await sleep((61 - second) * 1000);

    const tick = defineJob({ name: 'test.tick', payload: z.object({ from: z.string() }) });
    const runs: string[] = [];
    const processes = [process_(), process_(), process_()];
    processes.forEach((queue, i) => {
      queue.register(tick, async (payload) => void runs.push(`${i}:${payload.from}`));
      queue.schedule(tick, '* * * * *', { from: 'cron' });
    });
    await Promise.all(processes.map((q) => q.start()));

    await waitFor(() => runs.length > 0);
    // Every process checks the schedules each second; give them several more chances to repeat it.
    await sleep(4000);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^\d:cron$/);
    expect(await jobRows('test.tick')).toHaveLength(1);
    const schedules = await database.db.execute<{ cron: string }>(
      sql`select cron from pgboss.schedule where name = 'test.tick'`,
    );
    expect(schedules.rows).toEqual([{ cron: '* * * * *' }]);
    await Promise.all(processes.map((q) => q.stop()));
  }, 60_000);

  it('keeps a job across a restart: enqueued by one process, run by the next', async () => {
    const report = defineJob({ name: 'test.report', payload: z.object({ reportId: z.number() }) });
    const first = process_();
    await first.start();
    const id = await first.enqueue(report, { reportId: 42 });
    await first.stop();
    expect(await jobRows('test.report')).toEqual([
      expect.objectContaining({ id, state: 'created', data: { reportId: 42 } }),
    ]);

    const ran: number[] = [];
    const second = process_();
    second.register(report, async (payload) => void ran.push(payload.reportId));
    await second.start();
    await waitFor(() => ran.length > 0);
    await waitFor(async () => (await jobRows('test.report'))[0]?.state === 'completed');
    expect(ran).toEqual([42]);
    await second.stop();
  });

  it('retries a failing job with growing waits, then keeps it as failed', async () => {
    const flaky = defineJob({
      name: 'test.flaky',
      payload: z.object({}),
      retry: { limit: 2, delaySeconds: 1, backoff: true },
    });
    const runs: { at: number; retryCount: number }[] = [];
    const queue = process_();
    queue.register(flaky, async (_payload, job) => {
      runs.push({ at: Date.now(), retryCount: job.retryCount });
      throw new Error(`refused on run ${job.retryCount + 1}`);
    });
    await queue.start();
    const id = await queue.enqueue(flaky, {});
    await waitFor(async () => (await jobRows('test.flaky'))[0]?.state === 'failed', 25_000);

    expect(runs.map((r) => r.retryCount)).toEqual([0, 1, 2]);
    const [first, second, third] = runs.map((r) => r.at) as [number, number, number];
    // Back-off: the first retry waits at least `delaySeconds`, the second at least twice that.
    expect(second - first).toBeGreaterThanOrEqual(1000);
    expect(third - second).toBeGreaterThanOrEqual(2000);
    const [row] = await jobRows('test.flaky');
    expect(row).toMatchObject({ id, state: 'failed', retry_count: 2 });
    expect(warnings.filter((w) => w.startsWith(`job test.flaky ${id}`))).toEqual([
      `job test.flaky ${id} failed (run 1 of 3, will retry)`,
      `job test.flaky ${id} failed (run 2 of 3, will retry)`,
      `job test.flaky ${id} failed (run 3 of 3, kept as failed)`,
    ]);

    // A job whose retry succeeds ends completed.
    const once = defineJob({ name: 'test.once', payload: z.object({}), retry: { limit: 1, delaySeconds: 0 } });
    let calls = 0;
    queue.register(once, async () => {
      calls += 1;
      if (calls === 1) throw new Error('first run fails');
    });
    await queue.enqueue(once, {});
    await waitFor(async () => (await jobRows('test.once'))[0]?.state === 'completed');
    expect(calls).toBe(2);
    await queue.stop();
  }, 40_000);

  it('enqueues inside the caller’s transaction: nothing on rollback, nothing before the commit', async () => {
    const noted = defineJob({ name: 'test.noted', payload: z.object({ noteId: z.number() }) });
    const seen: (string | null)[] = [];
    const queue = process_();
    queue.register(noted, async ({ noteId }) => {
      const rows = await database.db.execute<{ text: string }>(sql`select text from note where id = ${noteId}`);
      seen.push(rows.rows[0]?.text ?? null);
    });
    await queue.start();

    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into note (id, text) values (1, 'rolled back')`);
        await queue.enqueueInTransaction(tx, noted, { noteId: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');

    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const committed = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into note (id, text) values (2, 'committed')`);
      await queue.enqueueInTransaction(tx, noted, { noteId: 2 });
      await released;
    });
    // Workers poll every half second: two seconds of polling see no job while the transaction is open.
    await sleep(2000);
    expect(seen).toEqual([]);
    release();
    await committed;
    await waitFor(() => seen.length > 0);
    await sleep(1000);
    expect(seen).toEqual(['committed']);
    expect(await jobRows('test.noted')).toHaveLength(1);
    await queue.stop();
  });

  it('wakes the worker of another process on commit, long before its next poll', async () => {
    // Two processes joined by the change feed, as runtime.ts joins them; the worker polls only
    // once a minute, so a run within the wait below came from the announcement.
    const feeds = await Promise.all(
      [0, 1].map(() =>
        postgresChangeFeed(url, async (channel, payload) => {
          await database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
        }),
      ),
    );
    const [sender, worker] = feeds.map((changes) => {
      const queue = new JobQueue({
        connectionString: url,
        settings: { ...FAST, pollingIntervalSeconds: 60 },
        warn: (message) => warnings.push(message),
        announce: announceJobsOn(changes),
      });
      wakeJobsFrom(changes, queue);
      queues.push(queue);
      return queue;
    }) as [JobQueue, JobQueue];
    const woken = defineJob({ name: 'test.woken', payload: z.object({ n: z.number() }) });
    const ran: number[] = [];
    worker.register(woken, async ({ n }) => void ran.push(n));
    await Promise.all([sender.start(), worker.start()]);
    // Let the worker's first fetch find nothing, so it sleeps until its next poll.
    await sleep(1500);

    await database.db.transaction(async (tx) => {
      await sender.enqueueInTransaction(tx, woken, { n: 1 });
    });
    await waitFor(() => ran.includes(1), 20_000);
    await sender.enqueue(woken, { n: 2 });
    await waitFor(() => ran.includes(2), 20_000);
    await expect(
      database.db.transaction(async (tx) => {
        await sender.enqueueInTransaction(tx, woken, { n: 3 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(ran).toEqual([1, 2]);
    await Promise.all(feeds.map((f) => f.close()));
  });

  it('refuses a payload that does not match its definition', async () => {
    const typed = defineJob({ name: 'test.typed', payload: z.object({ count: z.number().int() }) });
    const queue = process_();
    await queue.start();
    await expect(queue.enqueue(typed, { count: 1.5 })).rejects.toThrow();
    expect(await jobRows('test.typed')).toEqual([]);
    await queue.stop();
  });

  it('stops cleanly: the running job finishes, then the queue’s connections close', async () => {
    // Only this test's queue may hold connections when it counts them.
    await Promise.all(queues.map((q) => q.stop()));
    const slow = defineJob({ name: 'test.slow', payload: z.object({}) });
    let finished = false;
    let started = false;
    const queue = process_();
    queue.register(slow, async () => {
      started = true;
      await sleep(1500);
      finished = true;
    });
    await queue.start();
    await queue.enqueue(slow, {});
    await waitFor(() => started);
    await queue.stop();
    expect(finished).toBe(true);
    await waitFor(async () => (await jobRows('test.slow'))[0]?.state === 'completed', 5000);
    // A closed connection leaves pg_stat_activity once its backend has exited: wait for that.
    const open = async () =>
      (
        await database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and application_name = 'mes-jobs'`,
        )
      ).rows[0]?.n;
    await waitFor(async () => (await open()) === 0, 3000);
  });
});
