import type pg from 'pg';

/**
 * Reads a query through a cursor in a read-only transaction of its own on `client`, `size` rows at
 * a time, as arrays of pg's values: one query for PostgreSQL (no OFFSET, no page re-planned), while
 * the reader never holds more than `size` rows. A reader that stops early (the generator's return)
 * rolls the transaction back; `broken` hears when even that fails, so the connection is not reused.
 */
export async function* cursorPages(
  client: pg.ClientBase,
  text: string,
  params: unknown[],
  size: number,
  broken: () => void,
): AsyncGenerator<unknown[][]> {
  let done = false;
  try {
    await client.query('begin read only');
    await client.query({ text: `declare named_pages no scroll cursor for ${text}`, values: params });
    for (;;) {
      const page = await client.query<unknown[]>({ text: `fetch ${size} from named_pages`, rowMode: 'array' });
      if (page.rows.length) yield page.rows;
      if (page.rows.length < size) break;
    }
    await client.query('commit');
    done = true;
  } finally {
    if (!done) await client.query('rollback').catch(broken);
  }
}
