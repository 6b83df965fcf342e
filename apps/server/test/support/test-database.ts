import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** Creates an empty database on the run's PostgreSQL server; returns its URL and a dropper. */
export function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  return createDatabaseOn(inject('pgServerUrl'));
}

/**
 * Creates a database holding the current schema and the seed (admin password `ADMIN_PASSWORD` of
 * template-database.ts), copied from the run's template instead of migrating and seeding anew.
 */
export function createSeededTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  return createDatabaseOn(inject('pgServerUrl'), inject('seededTemplate'));
}

/**
 * A database of its own on the PostgreSQL server `serverUrl` (empty, or copied from `template`),
 * named `<prefix><random>`; the cluster test makes its own this way on the machine's server.
 */
export async function createDatabaseOn(
  serverUrl: string,
  template?: string,
  prefix = 'mes_test_',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const from = template ? ` TEMPLATE ${admin.escapeIdentifier(template)}` : '';
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}${from}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`);
      await c.end();
    },
  };
}
