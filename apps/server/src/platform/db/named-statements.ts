import { createHash } from 'node:crypto';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type pg from 'pg';

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
  const { keys, columns: list } = fieldsOf(columns);
  const rows: Record<string, unknown>[] = new Array(result.rows.length);
  for (let r = 0; r < result.rows.length; r++) {
    const raw = result.rows[r] as unknown[];
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
