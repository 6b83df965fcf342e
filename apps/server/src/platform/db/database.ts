import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { watchPool } from '../metrics/metrics';
import { throttledWarning, type Warn } from './throttled-warning';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * The pool every request, job and batch uses. `warn` hears of lost connections (at most one line
 * per 10 s: during an outage every connection fails).
 */
export function connectDatabase(url: string, max = 10, warn?: Warn): Database {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  const lost = warn ? throttledWarning(warn) : () => undefined;
  // pg-pool listens for errors only while a client is idle (and then drops it). A checked-out one
  // (a transaction, an ingestion batch) whose connection drops emits 'error' with no listener,
  // which would end the process: every client gets one of its own. Its pending query fails on
  // its own, and the pool discards it on release (it is no longer queryable).
  pool.on('connect', (client) => {
    client.on('error', (error) => lost('database: a pooled connection was lost', error));
  });
  // Also said by the client's own listener above.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  // Its use and waits on /metrics (platform/metrics), until it is closed.
  const unwatch = watchPool('main', pool);
  return {
    db,
    pool,
    close: () => {
      unwatch();
      return pool.end();
    },
  };
}

/** The committed migrations, found beside the source tree or the built bundle alike. */
function migrationsFolder(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'drizzle');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
  }
  throw new Error('The migrations folder (apps/server/drizzle) was not found');
}

/** Applies the committed migrations; concurrent starts are serialised by an advisory lock. */
export async function applyMigrations(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727001)');
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query('SELECT pg_advisory_unlock(727001)');
    }
  } finally {
    client.release();
  }
}
