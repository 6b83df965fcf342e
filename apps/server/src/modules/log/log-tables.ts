import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';

/**
 * A multi-row insert into a log table with one bound parameter: the rows as a JSON array,
 * expanded by `json_populate_recordset` into the table's own row type. The statement text is
 * fixed per table (prepared once per connection), and a batch of hundreds of rows costs one
 * `JSON.stringify` instead of thousands of bound values.
 */
export function jsonInserter<T extends object>(
  pool: pg.Pool,
  table: PgTable,
  /** `columns`: rows are already keyed by column name and complete (the hot API log path). */
  keys: 'fields' | 'columns' = 'fields',
): (rows: T[]) => Promise<void> {
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
  if (keys === 'columns')
    return async (rows) => {
      await pool.query({ name: statement, text, values: [JSON.stringify(rows)] });
    };
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
