import type { Database, Db } from './platform/db/database';
import type { TokenService } from './platform/auth/tokens';
import type { SessionStates } from './platform/auth/session-state';
import type { CacheRegistry } from './platform/cache/cache-registry';
import type { Clock, EphemeralStore } from './platform/store/ephemeral-store';
import type { ChangeFeed } from './platform/cache/change-feed';
import type { GrantService } from './platform/permissions/grants';
import type { NameLookups } from './engine/name-lookups';
import type { PageTotals } from './engine/page-totals';
import type { LogWriters } from './platform/audit/log-writers';
import type { JobQueue } from './platform/jobs/job-queue';
import type { LiveHub } from './platform/live/live-hub';
import type { ProcessRegistry } from './platform/cluster/process-registry';

/** What route modules need from the platform; built once per server (or per test file). */
export interface AppContext {
  db: Db;
  database: Database;
  store: EphemeralStore;
  clock: Clock;
  tokens: TokenService;
  /** Whether sessions still stand for their accounts; writes outside the engine announce user changes here. */
  sessions: SessionStates;
  caches: CacheRegistry;
  /** Tells every process that data behind a cache changed. */
  changes: ChangeFeed;
  /** API and data scopes granted to roles. */
  grants: GrantService;
  /** Exact list totals, kept until a write changes them. */
  totals: PageTotals;
  /** Names shown beside ids in lists (roles, departments, posts, dictionary labels, tenants). */
  lookups: NameLookups;
  /** The API, usual, error and login logs' writers (retention runs as the `log.prune` job). */
  logs: LogWriters;
  /** The durable job queue: enqueue (also inside a transaction), handlers, cron schedules. */
  jobs: JobQueue;
  /** This process in the process registry (heartbeat; survivors take over what a dead process leaves). */
  cluster: ProcessRegistry;
  /** This process's listener for live events (docs/live.md): the live streams subscribe to it. */
  live: LiveHub;
  /** DATA_DIR: uploaded files live under it. */
  dataDir: string;
  /** Stops the job workers, writes the queued log rows, then releases the store and the listeners. */
  close(): Promise<void>;
}

const started = new WeakMap<AppContext, Set<string>>();

/**
 * Runs `start` once per context. A route module that adds a job handler, a schedule or a change
 * subscription does it when its routes register, and a test may build the app twice on one
 * context: the second build must not add them again (the queue refuses a second handler).
 */
export function oncePerContext(ctx: AppContext, key: string, start: () => void): void {
  const keys = started.get(ctx) ?? new Set<string>();
  started.set(ctx, keys);
  if (keys.has(key)) return;
  keys.add(key);
  start();
}
