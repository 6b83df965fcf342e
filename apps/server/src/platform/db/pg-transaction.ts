import type pg from 'pg';

/**
 * Runs `work` in a transaction on one client of `pool` (for statements that must share it: an
 * advisory transaction lock and what it guards); rolled back when `work` throws.
 */
export async function pgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
