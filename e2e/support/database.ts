import pg from 'pg';
import { thisServer } from './server';

/**
 * A connection to the e2e server's own database (global-setup.ts provides its URL), for specs
 * that seed rows no screen creates or check what a screen stored. The caller ends it.
 */
export async function serverDatabase(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: thisServer().databaseUrl });
  await client.connect();
  return client;
}
