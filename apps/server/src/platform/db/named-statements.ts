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
  const fields = Object.entries(columns);
  return result.rows.map((raw) => {
    const row: Record<string, unknown> = {};
    fields.forEach(([key, column], i) => {
      const value = raw[i];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    });
    return row;
  });
}
