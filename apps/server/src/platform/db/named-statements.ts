import { createHash } from 'node:crypto';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { cursorPages } from './cursor-pages';

/** Beyond this many distinct query shapes, queries run unnamed (planned on every call). */
const MAX_SHAPES = 500;
const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_SHAPES) {
    name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs a built select as a named prepared statement and maps its rows to the selected fields.
 *
 * The name is derived from the SQL text, so every call of the same shape (same filters, other
 * values) reuses the plan each pooled connection made on first use: PostgreSQL then skips parsing
 * and planning, most of the cost of a 10-row page. Drizzle's own `prepare(name)` would build the
 * SQL a second time per call, which costs as much as the planning saved; this builds it once.
 * The number of shapes is bounded because each stays prepared on every connection.
 */
export async function selectNamed(
  pool: pg.Pool,
  columns: Record<string, PgColumn>,
  query: { toSQL(): { sql: string; params: unknown[] } },
): Promise<Record<string, unknown>[]> {
  const { sql: text, params } = query.toSQL();
  const result = await pool.query<unknown[]>({ name: nameOf(text), text, values: params, rowMode: 'array' });
  return named(result.rows, columns);
}

/**
 * Runs a built select through a cursor in a transaction of its own and yields its rows mapped to
 * the selected fields, `size` at a time: one query for PostgreSQL (no OFFSET, no page re-planned),
 * while this thread never holds more than `size` rows at once between turns of the event loop. The
 * connection is held until the last page is read or the reader stops (the generator's return).
 */
export async function* selectNamedPages(
  pool: pg.Pool,
  columns: Record<string, PgColumn>,
  query: { toSQL(): { sql: string; params: unknown[] } },
  size: number,
): AsyncGenerator<Record<string, unknown>[]> {
  const { sql: text, params } = query.toSQL();
  const client = await pool.connect();
  // A connection that cannot even roll back is not handed to the next caller.
  let broken = false;
  try {
    for await (const page of cursorPages(client, text, params, size, () => (broken = true))) yield named(page, columns);
  } finally {
    client.release(broken);
  }
}

function named(rawRows: unknown[][], columns: Record<string, PgColumn>): Record<string, unknown>[] {
  const { keys, columns: list } = fieldsOf(columns);
  const rows: Record<string, unknown>[] = new Array(rawRows.length);
  for (let r = 0; r < rawRows.length; r++) {
    const raw = rawRows[r] as unknown[];
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = raw[i];
      row[keys[i] as string] =
        value === null || value === undefined ? null : (list[i] as PgColumn).mapFromDriverValue(value);
    }
    rows[r] = row;
  }
  return rows;
}

/** The selection's keys and columns as arrays, once per selection object (they are built once per resource). */
const fieldLists = new WeakMap<Record<string, PgColumn>, { keys: string[]; columns: PgColumn[] }>();
function fieldsOf(columns: Record<string, PgColumn>) {
  let lists = fieldLists.get(columns);
  if (!lists) {
    lists = { keys: Object.keys(columns), columns: Object.values(columns) };
    fieldLists.set(columns, lists);
  }
  return lists;
}
