import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { numberedToSql } from './transaction-executor';

const render = (text: string, values: unknown[]) => new PgDialect().sqlToQuery(numberedToSql(text, values));

describe('numberedToSql', () => {
  it('keeps the statement text and passes values only as parameters', () => {
    const query = render("insert into t (a, b) select $2, $1::jsonb where 'x' = 'x'", ['{"k":1}', "o'brien"]);
    expect(query.sql).toBe("insert into t (a, b) select $1, $2::jsonb where 'x' = 'x'");
    expect(query.params).toEqual(["o'brien", '{"k":1}']);
  });

  it('refuses a parameter used twice, out of range, or values left unused', () => {
    expect(() => numberedToSql('select $1, $1', [1])).toThrow(/used twice/);
    expect(() => numberedToSql('select $2', [1])).toThrow(/out of range/);
    expect(() => numberedToSql('select $1', [1, 2])).toThrow(/unused/);
  });
});
