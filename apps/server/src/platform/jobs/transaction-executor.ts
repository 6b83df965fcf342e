import { sql, type SQL } from 'drizzle-orm';

/** What pg-boss runs its statements through when given a connection of the caller's (`{ db }`). */
export interface SqlExecutor {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A Drizzle transaction (or database): anything that runs an SQL object and returns its rows. */
export interface SqlRunner {
  execute(query: SQL): PromiseLike<{ rows: unknown[] }>;
}

/**
 * pg-boss's `$1`-numbered statement as a Drizzle SQL object with the values bound as parameters,
 * so that it runs on the caller's transaction. Drizzle numbers parameters itself, so each `$n`
 * must appear exactly once: a parameter used twice would become two parameters whose types
 * PostgreSQL infers apart. Such a statement is refused rather than run differently.
 */
export function numberedToSql(text: string, values: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  const seen = new Set<number>();
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) chunks.push(sql.raw(part));
      return;
    }
    const n = Number(part);
    if (n < 1 || n > values.length || seen.has(n))
      throw new Error(`statement parameter $${n} is out of range or used twice`);
    seen.add(n);
    chunks.push(sql`${sql.param(values[n - 1])}`);
  });
  if (seen.size !== values.length) throw new Error('statement leaves some of its values unused');
  return sql.join(chunks);
}

/**
 * A Drizzle transaction as code written for a pg client sees it (`query(text, values)` →
 * `{ rows }`): the statements run, commit and roll back with the transaction. Each `$n` once, as
 * {@link numberedToSql} requires.
 */
export function txQueryable(runner: SqlRunner): {
  query<R>(text: string, values: unknown[]): Promise<{ rows: R[] }>;
} {
  return {
    async query<R>(text: string, values: unknown[]) {
      const result = await runner.execute(numberedToSql(text, values));
      // The caller names the row shape of its own statement, as with pg's client.query<R>.
      return { rows: result.rows as R[] };
    },
  };
}

/** Runs pg-boss statements on `runner` (a Drizzle transaction): they commit or roll back with it. */
export function transactionExecutor(runner: SqlRunner): SqlExecutor {
  return {
    async executeSql(text, values) {
      const result = await runner.execute(numberedToSql(text, values ?? []));
      return { rows: result.rows };
    },
  };
}
