import { sql } from 'drizzle-orm';
import type { AppContext } from './app-context';
import { NameLookups } from './crud/name-lookups';
import { PageTotals } from './crud/page-totals';
import { postgresChangeFeed } from './platform/cache/change-feed';
import { GrantService } from './platform/permissions/grants';
import { LogService } from './modules/log/log-service';
import { apiLogEnabled } from './platform/config';
import { postgresRevocationList, storeRevocationList } from './platform/auth/revocation-list';
import { TokenService } from './platform/auth/tokens';
import { CacheRegistry } from './platform/cache/cache-registry';
import type { Database } from './platform/db/database';
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
}

/** Wires the platform services every route module uses. */
export async function createAppContext(options: ContextOptions): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const store =
    options.store ??
    (options.redisUrl ? createRedisStore(options.redisUrl) : createPostgresStore(options.database.db, clock));
  const revocations = options.redisUrl
    ? storeRevocationList(store, clock)
    : await postgresRevocationList(options.database, options.databaseUrl, clock);
  const caches = new CacheRegistry();
  const changes = await postgresChangeFeed(options.databaseUrl, async (channel, payload) => {
    await options.database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
  });
  const totals = new PageTotals(changes, caches, () => clock.now());
  const logs = new LogService({
    db: options.database.db,
    pool: options.database.pool,
    clock,
    totals,
    apiLog: options.apiLog ?? apiLogEnabled(process.env),
  });
  logs.start();
  return {
    db: options.database.db,
    database: options.database,
    store,
    clock,
    tokens: new TokenService(options.jwtSecret, clock, revocations),
    caches,
    changes,
    grants: new GrantService(options.database.db, changes, caches),
    totals,
    lookups: new NameLookups(options.database.db, changes, caches),
    logs,
    dataDir: options.dataDir,
    async close() {
      await logs.close();
      await revocations.close();
      await changes.close();
      await store.close();
    },
  };
}
