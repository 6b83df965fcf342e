import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * A multi-row insert into a log table with one bound parameter: the rows as a JSON array,
 * expanded by `json_populate_recordset` into the table's own row type. The statement text is
 * fixed per table (prepared once per connection), and a batch of hundreds of rows costs one
 * `JSON.stringify` instead of thousands of bound values.
 */
export function jsonInserter<T extends object>(pool: pg.Pool, table: PgTable): (rows: T[]) => Promise<void> {
  const name = getTableName(table);
  // Keys of the rows (camelCase) → column names, with each column's default for absent values:
  // the record type knows no defaults, and NOT NULL columns must get a value.
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({
    key,
    column: column.name,
    fallback: column.default === undefined ? null : (column.default as unknown),
  }));
  const quoted = `"${name.replace(/"/g, '""')}"`;
  const text = `insert into ${quoted} select * from json_populate_recordset(null::${quoted}, $1::json)`;
  const statement = `log_insert_${name}`;
  return async (rows) => {
    const records = rows.map((row) => {
      const record: Record<string, unknown> = {};
      for (const { key, column, fallback } of columns) {
        const value = (row as Record<string, unknown>)[key];
        record[column] = value === undefined || value === null ? fallback : value;
      }
      return record;
    });
    await pool.query({ name: statement, text, values: [JSON.stringify(records)] });
  };
}

/** Characters COPY's text format gives a meaning to; a value holding none is written as it is. */
const COPY_SPECIAL = /[\\\t\n\r]/;

/** One value in COPY's text format: `\N` for null, backslash escapes for the separators. */
export function copyValue(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** One row in COPY's text format: the values tab-separated, ended by a newline. */
export const copyLine = (values: readonly (string | number | null)[]): string =>
  `${values.map(copyValue).join('\t')}\n`;

/**
 * A bulk insert for the busiest log: rows arrive already rendered as COPY text lines (`copyLine`,
 * values in `columns` order) and a batch is one `COPY … FROM STDIN`. PostgreSQL parses COPY's
 * text with far less work per row than a JSON array expanded into records (bench in
 * docs/api.md: about half the database CPU per row), and the request path keeps one string per
 * request instead of an object.
 */
export function copyInserter(
  pool: pg.Pool,
  table: PgTable,
  columns: readonly string[],
): (lines: string[]) => Promise<void> {
  const known = new Set(Object.values(getTableColumns(table)).map((column) => column.name));
  const unknown = columns.filter((column) => !known.has(column));
  if (unknown.length) throw new Error(`copyInserter: ${getTableName(table)} has no column ${unknown.join(', ')}`);
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const text = `copy ${quote(getTableName(table))} (${columns.map(quote).join(', ')}) from stdin`;
  return async (lines) => {
    const client = await pool.connect();
    try {
      const stream = client.query(copyFrom(text));
      await pipeline(Readable.from([lines.join('')]), stream);
      client.release();
    } catch (error) {
      // A connection that failed mid-COPY is not given back to other queries.
      client.release(error instanceof Error ? error : true);
      throw error;
    }
  };
}
