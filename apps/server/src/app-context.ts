import type { Database, Db } from './platform/db/database';
import type { TokenService } from './platform/auth/tokens';
import type { CacheRegistry } from './platform/cache/cache-registry';
import type { Clock, EphemeralStore } from './platform/store/ephemeral-store';

/** What route modules need from the platform; built once per server (or per test file). */
export interface AppContext {
  db: Db;
  database: Database;
  store: EphemeralStore;
  clock: Clock;
  tokens: TokenService;
  caches: CacheRegistry;
  /** DATA_DIR: uploaded files live under it. */
  dataDir: string;
  /** Releases the store and the revocation listener. */
  close(): Promise<void>;
}
