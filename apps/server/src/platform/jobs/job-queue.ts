import { randomUUID } from 'node:crypto';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { ProcessRegistry } from '../cluster/process-registry';
import type { JobDefinition } from './job-definition';
import { giveBackJobsOfDeadProcesses, recordJobRun } from './dead-process-jobs';
import { transactionExecutor, type SqlRunner } from './transaction-executor';
import { throttledWarning } from '../db/throttled-warning';
import { isDatabaseUnavailable } from '../db/unavailable';
import { guardPgBossCompletion } from './pg-boss-completion-guard';
import { countJobRun, watchJobQueue } from '../metrics/metrics';

/** How the queue polls and where it keeps its tables; tests shorten the intervals. */
export interface JobQueueSettings {
  /** PostgreSQL schema of pg-boss's own tables; it creates (and upgrades) it at start. */
  schema: string;
  /** How often an idle worker asks for a job (pg-boss polls; it does not listen). */
  pollingIntervalSeconds: number;
  /** How often the schedules are checked (one process per interval does it, 1 to 45). */
  cronMonitorIntervalSeconds: number;
  /** How often a due schedule's job is handed to its queue (1 to 45). */
  cronWorkerIntervalSeconds: number;
  /** How often stuck jobs are expired and finished ones archived (one process per interval). */
  maintenanceIntervalSeconds: number;
  /** Connections of the queue's own pool (kept apart from the request pool; see docs/jobs.md). */
  poolSize: number;
  /** How long `stop` lets running jobs finish before recording them as failed. */
  stopTimeoutMs: number;
}

export const DEFAULT_JOB_SETTINGS: JobQueueSettings = {
  schema: 'pgboss',
  pollingIntervalSeconds: 2,
  cronMonitorIntervalSeconds: 30,
  cronWorkerIntervalSeconds: 5,
  maintenanceIntervalSeconds: 120,
  poolSize: 4,
  stopTimeoutMs: 10_000,
};

/** Which run of which job a handler is doing. */
export interface JobInfo {
  id: string;
  name: string;
  /** 0 on the first run, then 1, 2, ... on retries. */
  retryCount: number;
  retryLimit: number;
}

export type JobHandler<P> = (payload: P, job: JobInfo) => Promise<unknown>;

export interface EnqueueOptions {
  /** Not before this time (a date, or seconds from now). */
  startAfter?: Date | number;
  /**
   * At most one job of this key in each `seconds`-long slot (slots are aligned to the epoch):
   * a second enqueue in the same slot is dropped. For work several processes would all ask for.
   */
  throttle?: { key: string; seconds: number };
}

export interface ScheduleOptions {
  /** Time zone the cron expression is read in; default the server's. */
  tz?: string;
}

export interface JobQueueOptions {
  connectionString: string;
  settings?: Partial<JobQueueSettings>;
  /** Where queue errors and failed runs are reported (the server's logger once it has one). */
  warn(message: string, error?: unknown): void;
  /**
   * Tells every process that a job of this queue is ready now, in the enqueuing transaction
   * (`tx`, delivered on commit) or at once; each process then calls `wake`. Without it, workers
   * find new jobs by polling (up to `pollingIntervalSeconds` later).
   */
  announce?: (name: string, tx?: SqlRunner) => Promise<void>;
  /**
   * The process registry: each run is recorded with this process's instance, and the runs of a
   * dead process are given back (retried or failed) by a survivor (dead-process-jobs.ts).
   */
  cluster?: ProcessRegistry;
}

/** What a kind of job does beyond its handler. */
export interface RegisterOptions<P> {
  /**
   * The job was given up for good without its handler ending it (the process running its last
   * try died): the place that shows its outcome (a report file) is told, with a bilingual message.
   */
  failed?(payload: P, message: string): Promise<void>;
}

interface Registration {
  def: JobDefinition<unknown>;
  handler: JobHandler<unknown>;
  options: RegisterOptions<unknown>;
}

interface Schedule {
  def: JobDefinition<unknown>;
  cron: string;
  payload: unknown;
  tz: string;
}

/**
 * Advisory lock key serialising queue starts and queue creation on one database. pg-boss creates
 * its schema in one multi-statement transaction (a process losing that race gets "already
 * exists" with its connection left inside the failed transaction), and concurrent queue creations
 * can deadlock on the partitioned job table.
 */
const START_LOCK = 727_002;

const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * The server's one durable job queue: pg-boss 10 on the application's PostgreSQL, in its own
 * schema. Jobs survive restarts (they are rows), a job is run by one worker of one process
 * (`SKIP LOCKED`), a schedule produces one job per period however many processes run it, and a
 * failed run is retried as its definition says, then kept as failed (see `failed-jobs.ts`).
 *
 * Handlers and schedules may be declared before or after `start`.
 */
export class JobQueue {
  readonly settings: JobQueueSettings;
  private readonly boss: PgBoss;
  private readonly registrations = new Map<string, Registration>();
  private readonly schedules = new Map<string, Schedule>();
  /** Queues known to exist with their definition's policy (created once per process). */
  private readonly queues = new Map<string, Promise<void>>();
  /** Late registrations still starting their workers; `stop` waits for them. */
  private readonly pending = new Set<Promise<void>>();
  private state: 'new' | 'starting' | 'started' | 'stopped' = 'new';
  private starting: Promise<void> | undefined;
  /** pg-boss's worker id per queue this process works. */
  private readonly workers = new Map<string, string>();
  private giveBackTimer: NodeJS.Timeout | undefined;
  /** Takes the queue's depth off /metrics again (set while started). */
  private unwatch: (() => void) | undefined;

  constructor(private readonly options: JobQueueOptions) {
    this.settings = { ...DEFAULT_JOB_SETTINGS, ...options.settings };
    const s = this.settings;
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: s.schema,
      max: s.poolSize,
      application_name: 'mes-jobs',
      pollingIntervalSeconds: s.pollingIntervalSeconds,
      cronMonitorIntervalSeconds: s.cronMonitorIntervalSeconds,
      cronWorkerIntervalSeconds: s.cronWorkerIntervalSeconds,
      maintenanceIntervalSeconds: s.maintenanceIntervalSeconds,
    });
    // An 'error' event without a listener would throw out of the emitter and end the process.
    // While the database is unreachable every poll fails alike: those are said once per 10 s.
    const outage = throttledWarning(options.warn);
    this.boss.on('error', (error) => (isDatabaseUnavailable(error) ? outage : options.warn)('job queue error', error));
    guardPgBossCompletion(outage);
  }

  /** The handler of a kind of job in this process (one worker, one job at a time). */
  register<P>(def: JobDefinition<P>, handler: JobHandler<P>, options: RegisterOptions<P> = {}): void {
    if (this.registrations.has(def.name)) throw new Error(`job ${def.name} already has a handler`);
    const registration = { def, handler, options } as Registration;
    this.registrations.set(def.name, registration);
    if (this.state === 'starting' || this.state === 'started') this.afterStart(() => this.startWorker(registration));
  }

  /**
   * A cron schedule (`5 * * * *`, minute resolution) for a kind of job. Stored in the database,
   * so one job is produced per period for all processes together; declaring it again replaces it.
   */
  schedule<P>(def: JobDefinition<P>, cron: string, payload: P, options: ScheduleOptions = {}): void {
    const entry = { def, cron, payload: def.payload.parse(payload), tz: options.tz ?? serverTimeZone() } as Schedule;
    this.schedules.set(def.name, entry);
    if (this.state === 'starting' || this.state === 'started') this.afterStart(() => this.applySchedule(entry));
  }

  /** A job of `name` is ready: this process's worker of that queue (if any) fetches now instead of at its next poll. */
  wake(name: string): void {
    const worker = this.workers.get(name);
    if (worker && this.state !== 'stopped') this.boss.notifyWorker(worker);
  }

  /** Due now (no `startAfter`): worth announcing. */
  private announceNow(name: string, options: EnqueueOptions, tx?: SqlRunner): Promise<void> {
    if (options.startAfter !== undefined || !this.options.announce) return Promise.resolve();
    return this.options.announce(name, tx);
  }

  /** Removes a schedule from the database (one that code no longer declares keeps running otherwise). */
  async unschedule(name: string): Promise<void> {
    this.schedules.delete(name);
    await this.ready();
    await this.boss.unschedule(name);
  }

  /** Creates the schema if needed, then starts the workers and stores the schedules. */
  start(): Promise<void> {
    if (this.state !== 'new') return this.starting ?? Promise.resolve();
    this.state = 'starting';
    // Declarations made while starting are started by `register` / `schedule` themselves.
    const registrations = [...this.registrations.values()];
    const schedules = [...this.schedules.values()];
    this.starting = (async () => {
      await this.exclusively(() => this.boss.start());
      for (const registration of registrations) await this.startWorker(registration);
      for (const entry of schedules) await this.applySchedule(entry);
      if (this.state === 'starting') this.state = 'started';
      this.startGivingBack();
      this.unwatch = watchJobQueue(() => this.queuedByJob());
    })();
    return this.starting;
  }

  /** Runs `work` while holding {@link START_LOCK} on a connection of its own. */
  private async exclusively(work: () => Promise<unknown>): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString, application_name: 'mes-jobs' });
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [START_LOCK]);
      await work();
    } finally {
      // Ending the session releases the lock.
      await client.end();
    }
  }

  /** Started and not yet stopped. */
  get running(): boolean {
    return this.state === 'started';
  }

  /** Settles when the start (begun by `start`) has finished; rejects if it failed. */
  started(): Promise<void> {
    return this.starting ?? Promise.reject(new Error('the job queue has not been started'));
  }

  /** Waits for a start under way; refuses use before `start` or after `stop`. */
  private async ready(): Promise<void> {
    if (this.state === 'new') throw new Error('the job queue has not been started');
    if (this.state === 'stopped') throw new Error('the job queue has been stopped');
    await this.starting;
  }

  /**
   * Adds a job now, on the queue's own connection. Returns its id, or null when a throttled job
   * of the same slot already exists.
   */
  async enqueue<P>(def: JobDefinition<P>, payload: P, options: EnqueueOptions = {}): Promise<string | null> {
    const data = def.payload.parse(payload) as object;
    await this.ready();
    await this.ensureQueue(def);
    const id = await this.boss.send(def.name, data, {
      startAfter: options.startAfter,
      ...(options.throttle ? { singletonKey: options.throttle.key, singletonSeconds: options.throttle.seconds } : {}),
    });
    if (id) await this.announceNow(def.name, options);
    return id;
  }

  /**
   * Adds a job inside the caller's transaction (`tx`, a Drizzle transaction): workers see it only
   * once the transaction commits, and it vanishes if the transaction rolls back, so the job can
   * neither be lost after the commit nor run before the data it is about. Returns the job's id
   * (with `throttle`, a duplicate of the slot is silently dropped at insert).
   */
  async enqueueInTransaction<P>(
    tx: SqlRunner,
    def: JobDefinition<P>,
    payload: P,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const data = def.payload.parse(payload) as object;
    await this.ready();
    // The queue (a partition of pg-boss's job table) is created on the queue's own connection
    // first: the insert joins it and would drop a job of an unknown queue.
    await this.ensureQueue(def);
    const id = randomUUID();
    const startAfter = options.startAfter;
    await this.boss.insert(
      [
        {
          id,
          name: def.name,
          data,
          ...(startAfter instanceof Date
            ? { startAfter: startAfter.toISOString() }
            : startAfter !== undefined
              ? { startAfter: String(startAfter) }
              : {}),
          ...(options.throttle
            ? { singletonKey: options.throttle.key, singletonSeconds: options.throttle.seconds }
            : {}),
        },
      ],
      { db: transactionExecutor(tx) },
    );
    await this.announceNow(def.name, options, tx);
    return id;
  }

  /** Every few seconds, the runs of dead processes are given back (one survivor claims each). */
  private startGivingBack(): void {
    const cluster = this.options.cluster;
    if (!cluster || this.state !== 'started') return;
    let busy = false;
    this.giveBackTimer = setInterval(() => {
      if (busy || this.state !== 'started') return;
      busy = true;
      void giveBackJobsOfDeadProcesses({
        boss: this.boss,
        schema: this.settings.schema,
        cluster,
        failed: (name) => this.registrations.get(name)?.options.failed,
        warn: this.options.warn,
      })
        .catch((error: unknown) => this.options.warn('job queue: cannot give back the jobs of dead processes', error))
        .finally(() => (busy = false));
    }, cluster.settings.heartbeatMs);
    this.giveBackTimer.unref();
  }

  /** Jobs waiting to run (new or waiting for a retry), by job: the depth /metrics shows. */
  private async queuedByJob(): Promise<{ job: string; queued: number }[]> {
    const schema = `"${this.settings.schema.replace(/"/g, '""')}"`;
    const result = await this.boss
      .getDb()
      .executeSql(
        `select name as job, count(*)::int as queued from ${schema}.job where state in ('created', 'retry') group by name`,
        [],
      );
    return result.rows as { job: string; queued: number }[];
  }

  /** Stops fetching, lets running jobs finish (up to `stopTimeoutMs`), closes the pool. */
  async stop(): Promise<void> {
    clearInterval(this.giveBackTimer);
    this.unwatch?.();
    if (this.state === 'stopped') return;
    const wasStarted = this.state !== 'new';
    this.state = 'stopped';
    const started = await this.starting?.then(
      () => true,
      () => false,
    );
    await Promise.allSettled([...this.pending]);
    if (started) {
      await this.boss.stop({ graceful: true, wait: true, close: true, timeout: this.settings.stopTimeoutMs });
    } else if (wasStarted) {
      // pg-boss's stop does nothing before a completed start, but its pool may already be open.
      const own = this.boss.getDb() as unknown as { opened?: boolean; close?: () => Promise<void> };
      if (own.opened) await own.close?.();
    }
  }

  /** Runs `work` once the start under way has finished; `stop` waits for it. */
  private afterStart(work: () => Promise<void>): void {
    const tracked = (this.starting ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) => this.options.warn('job queue: could not start a worker or schedule', error))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Creates the definition's queue, or brings its retry policy in line with the definition. */
  private ensureQueue(def: JobDefinition<unknown>): Promise<void> {
    let ready = this.queues.get(def.name);
    if (!ready) {
      ready = this.applyQueuePolicy(def);
      // A failed attempt is tried again at the next use.
      ready.catch(() => this.queues.delete(def.name));
      this.queues.set(def.name, ready);
    }
    return ready;
  }

  private async applyQueuePolicy(def: JobDefinition<unknown>): Promise<void> {
    const policy = {
      name: def.name,
      policy: 'standard' as const,
      retryLimit: def.retry.limit,
      retryDelay: def.retry.delaySeconds,
      retryBackoff: def.retry.backoff,
      expireInSeconds: def.expireInSeconds,
    };
    const matches = (queue: PgBoss.QueueResult | null) =>
      queue !== null &&
      queue.retryLimit === policy.retryLimit &&
      queue.retryDelay === policy.retryDelay &&
      queue.retryBackoff === policy.retryBackoff &&
      queue.expireInSeconds === policy.expireInSeconds;
    if (matches(await this.boss.getQueue(def.name))) return;
    // Creating a queue attaches a partition to pg-boss's job table; two processes doing it at
    // once can deadlock, so creation takes the start lock too.
    await this.exclusively(async () => {
      const existing = await this.boss.getQueue(def.name);
      if (!existing) await this.boss.createQueue(def.name, policy);
      else if (!matches(existing)) await this.boss.updateQueue(def.name, policy);
    });
  }

  private async startWorker({ def, handler }: Registration): Promise<void> {
    await this.ensureQueue(def);
    if (this.state === 'stopped') return;
    const worker = await this.boss.work<unknown>(
      def.name,
      { pollingIntervalSeconds: this.settings.pollingIntervalSeconds, batchSize: 1, includeMetadata: true },
      // One job per fetch (batchSize 1): what the handler returns is kept as the job's output.
      async ([job]) => {
        if (!job) return undefined;
        const info: JobInfo = { id: job.id, name: job.name, retryCount: job.retryCount, retryLimit: job.retryLimit };
        try {
          // Which process runs it: if this one dies, a survivor gives the job back.
          const cluster = this.options.cluster;
          if (cluster) await cluster.start().then(() => recordJobRun(this.boss, job.id, job.name, cluster.instanceId));
          const parsed = def.payload.safeParse(job.data);
          if (!parsed.success) throw new Error(`job ${def.name}: stored payload does not match its definition`);
          const output = await handler(parsed.data, info);
          countJobRun(def.name, false);
          return output;
        } catch (error) {
          countJobRun(def.name, true);
          const last = info.retryCount >= info.retryLimit;
          this.options.warn(
            `job ${def.name} ${info.id} failed (run ${info.retryCount + 1} of ${info.retryLimit + 1}${last ? ', kept as failed' : ', will retry'})`,
            error,
          );
          throw error;
        }
      },
    );
    this.workers.set(def.name, worker);
  }

  private async applySchedule({ def, cron, payload, tz }: Schedule): Promise<void> {
    await this.ensureQueue(def);
    if (this.state === 'stopped') return;
    await this.boss.schedule(def.name, cron, payload as object, { tz });
  }
}
