import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import pg from 'pg';

/**
 * Creates the tables (and their indexes, enums, sequences) of Drizzle `pgTable` objects in the
 * database at `databaseUrl`, for resources defined only in a test. The statements are the ones
 * `npm run db:generate` would write for these tables into an empty database: drizzle-kit diffs
 * an empty snapshot against the tables' snapshot, so a fixture's table is built exactly as a
 * real resource's migration would build it. Runs in one transaction: all tables or none.
 *
 * `tables` maps any names to the objects (non-table values are ignored by drizzle-kit, so a
 * module's whole export object may be passed).
 */
export async function createTablesFor(databaseUrl: string, tables: Record<string, unknown>): Promise<void> {
  const empty = generateDrizzleJson({});
  const wanted = generateDrizzleJson(tables, empty.id);
  const statements = await generateMigration(empty, wanted);
  if (!statements.length) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const statement of statements) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
