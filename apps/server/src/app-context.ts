import type { Database, Db } from './platform/db/database';
import type { TokenService } from './platform/auth/tokens';
import type { CacheRegistry } from './platform/cache/cache-registry';
import type { Clock, EphemeralStore } from './platform/store/ephemeral-store';
import type { ChangeFeed } from './platform/cache/change-feed';
import type { GrantService } from './platform/permissions/grants';
import type { NameLookups } from './crud/name-lookups';
import type { PageTotals } from './crud/page-totals';
import type { LogService } from './modules/log/log-service';

/** What route modules need from the platform; built once per server (or per test file). */
export interface AppContext {
  db: Db;
  database: Database;
  store: EphemeralStore;
  clock: Clock;
  tokens: TokenService;
  caches: CacheRegistry;
  /** Tells every process that data behind a cache changed. */
  changes: ChangeFeed;
  /** API and data scopes granted to roles. */
  grants: GrantService;
  /** Exact list totals, kept until a write changes them. */
  totals: PageTotals;
  /** Names shown beside ids in lists (roles, departments, posts, dictionary labels, tenants). */
  lookups: NameLookups;
  /** The API, usual, error and login logs' writers and the log retention schedule. */
  logs: LogService;
  /** DATA_DIR: uploaded files live under it. */
  dataDir: string;
  /** Writes the queued log rows, then releases the store and the revocation listener. */
  close(): Promise<void>;
}
