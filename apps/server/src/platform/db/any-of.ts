import { sql, type Column, type SQL } from 'drizzle-orm';

/**
 * `column = any($1)`: one array parameter however many values. `inArray` binds one parameter per
 * value, and drizzle checks each as it builds the query: for a page's 1,000 keys that was half the
 * main thread's share of a decorated export (docs/operations.md "Fair shares").
 */
export const anyOf = (column: Column, values: readonly string[], type: 'text' | 'bigint'): SQL =>
  sql`${column} = any(${sql.param([...values])}::${sql.raw(type)}[])`;
