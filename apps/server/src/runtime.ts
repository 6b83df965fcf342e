import { sql } from 'drizzle-orm';
import type { AppContext } from './app-context';
import { NameLookups } from './engine/name-lookups';
import { PageTotals } from './engine/page-totals';
import { postgresChangeFeed } from './platform/cache/change-feed';
import { announceJobsOn, wakeJobsFrom } from './platform/jobs/job-announcements';
import { GrantService } from './platform/permissions/grants';
import { LogService } from './modules/log/log-service';
import { LOG_DEFINITIONS, LOG_PRUNE_CRON, logPruneJob } from './modules/log/retention';
import { REGISTRY, type ResourceDef } from '@mes/contracts';
import { SERIES_UPKEEP_CRON, seriesUpkeepJob, upkeepAll } from './platform/series/upkeep';
import { JobQueue, type JobQueueSettings } from './platform/jobs/job-queue';
import { ProcessRegistry, type RegistrySettings } from './platform/cluster/process-registry';
import { postgresLiveHub } from './platform/live/live-hub';
import { STORE_PURGE_CRON, storePurgeJob } from './platform/jobs/store-purge';
import { DEVICE_INACTIVITY_CRON, deviceInactivityJob, sweepInactiveDevices } from './modules/telemetry/device-presence';
import { apiLogEnabled } from './platform/config';
import { postgresRevocationList, storeRevocationList } from './platform/auth/revocation-list';
import { SessionStates } from './platform/auth/session-state';
import { TokenService } from './platform/auth/tokens';
import { CacheRegistry } from './platform/cache/cache-registry';
import type { Database, Db } from './platform/db/database';
import { createPostgresStore } from './platform/store/postgres-store';
import { createRedisStore } from './platform/store/redis-store';
import { systemClock, type Clock, type EphemeralStore } from './platform/store/ephemeral-store';

export interface ContextOptions {
  database: Database;
  /** URL of `database`, for the connection that listens for revoked sessions. */
  databaseUrl: string;
  jwtSecret: string;
  dataDir: string;
  redisUrl?: string | undefined;
  clock?: Clock;
  store?: EphemeralStore;
  /** Record every API request; default the `API_LOG` variable (on unless `off`). */
  apiLog?: boolean;
  /** Job queue intervals (tests poll faster); see `DEFAULT_JOB_SETTINGS`. */
  jobs?: Partial<JobQueueSettings>;
  /** Heartbeat and dead-after of the process registry (tests shorten them); see `DEFAULT_REGISTRY_SETTINGS`. */
  cluster?: Partial<RegistrySettings>;
}

/** How long after a start its first log prune may be shared with other processes starting too. */
const START_PRUNE_SLOT_SECONDS = 10 * 60;

/**
 * The periodic work every server needs, as durable jobs: log retention every hour (and once soon
 * after a start, shared by processes starting together) and the ephemeral store's purge.
 */
function scheduleHousekeeping(jobs: JobQueue, logs: LogService, store: EphemeralStore, db: Db, clock: Clock): void {
  jobs.register(logPruneJob, () => logs.prune());
  jobs.schedule(logPruneJob, LOG_PRUNE_CRON, {});
  // Every other series (telemetry, MQTT messages, on/off records): the logs keep their own run.
  const logTables = new Set<string>(LOG_DEFINITIONS.map((d) => d.table));
  const otherSeries = REGISTRY.filter(
    (e): e is ResourceDef => 'series' in e && e.series !== undefined && !logTables.has(e.table),
  );
  jobs.register(seriesUpkeepJob, () => upkeepAll(db, otherSeries, new Date(clock.now())));
  jobs.schedule(seriesUpkeepJob, SERIES_UPKEEP_CRON, {});
  jobs.register(storePurgeJob, () => store.purgeExpired());
  jobs.schedule(storePurgeJob, STORE_PURGE_CRON, {});
  // Devices silent past their product's inactivity timeout go offline: once across processes,
  // from the device rows ingestion keeps (docs/mqtt.md "Online state and on/off records").
  jobs.register(deviceInactivityJob, () => sweepInactiveDevices(db, new Date(clock.now())));
  jobs.schedule(deviceInactivityJob, DEVICE_INACTIVITY_CRON, {});
}

/** Wires the platform services every route module uses. */
export async function createAppContext(options: ContextOptions): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const store =
    options.store ??
    (options.redisUrl ? createRedisStore(options.redisUrl) : createPostgresStore(options.database.db, clock));
  // The listening connections start before the log service; their warnings come later (on a loss).
  const warnings: { to?: LogService } = {};
  const warn = (message: string, error?: unknown) => warnings.to?.warn(message, error);
  const revocations = options.redisUrl
    ? storeRevocationList(store, clock)
    : await postgresRevocationList(options.database, options.databaseUrl, clock, warn);
  const caches = new CacheRegistry();
  const changes = await postgresChangeFeed(
    options.databaseUrl,
    async (channel, payload) => {
      await options.database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
    warn,
  );
  const sessions = new SessionStates(options.database.db, store, changes, caches, clock);
  const totals = new PageTotals(changes, caches, () => clock.now(), warn);
  const logs = new LogService({
    db: options.database.db,
    pool: options.database.pool,
    clock,
    totals,
    apiLog: options.apiLog ?? apiLogEnabled(process.env),
  });
  logs.start();
  warnings.to = logs;
  const live = await postgresLiveHub(options.databaseUrl, (message, error) => logs.warn(message, error));
  // This process's row and heartbeat: survivors take over what a dead process leaves (its MQTT
  // session, its running jobs). Written in the background, retried while the database is away.
  const cluster = new ProcessRegistry({
    pool: options.database.pool,
    dataDir: options.dataDir,
    settings: options.cluster,
    warn: (message, error) => logs.warn(message, error),
  });
  void cluster.start();
  const jobs = new JobQueue({
    connectionString: options.databaseUrl,
    settings: options.jobs,
    warn: (message, error) => logs.warn(message, error),
    announce: announceJobsOn(changes),
    cluster,
  });
  wakeJobsFrom(changes, jobs);
  scheduleHousekeeping(jobs, logs, store, options.database.db, clock);
  // Started in the background: a fresh database needs about a second of DDL for pg-boss's
  // schema and queues, which no request and no test should wait for (an enqueue waits for the
  // start itself). main.ts waits for `jobs.started()`, so a server whose queue cannot start stops.
  void jobs.start().then(
    () =>
      jobs
        .enqueue(logPruneJob, {}, { throttle: { key: 'start', seconds: START_PRUNE_SLOT_SECONDS } })
        .catch((error: unknown) => {
          // Stopped meanwhile (a short-lived test context): nothing to prune for.
          if (jobs.running) logs.warn('job queue: could not enqueue the first log prune', error);
        }),
    (error: unknown) => logs.warn('job queue: start failed', error),
  );
  const close = async () => {
    // Workers first: a running job (a prune) finishes before the services it uses close.
    await jobs.stop().catch((error: unknown) => logs.warn('job queue: stop failed', error));
    await cluster.stop();
    await logs.close();
    // Before the feed closes: batch writers' totals still to drop (ingestion stops before this).
    await totals.close();
    await live.close();
    await revocations.close();
    await changes.close();
    await store.close();
  };
  return {
    db: options.database.db,
    database: options.database,
    store,
    clock,
    tokens: new TokenService(options.jwtSecret, clock, revocations, sessions),
    sessions,
    caches,
    changes,
    grants: new GrantService(options.database.db, changes, caches),
    totals,
    lookups: new NameLookups(options.database.db, changes, caches),
    logs,
    jobs,
    cluster,
    live,
    dataDir: options.dataDir,
    close,
  };
}
