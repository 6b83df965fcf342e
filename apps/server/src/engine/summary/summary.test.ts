import { describe, expect, it } from 'vitest';
import { boolean, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ResourceDef } from '@mes/contracts';
import { HttpError } from '../../platform/http/errors';
import { measureExpression, periodExpression, rangeCondition, summaryColumn } from './summary';

const probe = pgTable('probe', {
  name: varchar('name'),
  weight: integer('weight'),
  passed: boolean('passed'),
  doneAt: timestamp('done_at'),
  createTime: timestamp('create_time'),
});
const columns = probe as unknown as Record<string, PgColumn>;
// Only what the summary reads of a definition: its code, title and fields.
const def = {
  code: 'probe',
  title: { zh: '样例', en: 'Probe' },
  fields: {
    name: { kind: 'string', label: { zh: '名称', en: 'Name' } },
    weight: { kind: 'int', label: { zh: '重量', en: 'Weight' } },
    passed: { kind: 'boolean', label: { zh: '合格', en: 'Passed' } },
    doneAt: { kind: 'datetime', label: { zh: '完成时间', en: 'Done at' } },
  },
} as unknown as ResourceDef;

const dialect = new PgDialect();
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof HttpError ? error : undefined;
  }
  return undefined;
};

describe('summaryColumn', () => {
  it('gives the column of a field that suits the use', () => {
    expect(summaryColumn(def, columns, 'doneAt', 'date')).toBe(probe.doneAt);
    expect(summaryColumn(def, columns, 'name', 'group')).toBe(probe.name);
    expect(summaryColumn(def, columns, 'weight', 'measure')).toBe(probe.weight);
    expect(summaryColumn(def, columns, 'passed', 'flag')).toBe(probe.passed);
    // The audit time has no field of its own but may bound a range.
    expect(summaryColumn(def, columns, 'createTime', 'date')).toBe(probe.createTime);
  });

  it('refuses with a 400 naming the source a field that is missing or does not suit the use', () => {
    const missing = refusal(() => summaryColumn(def, columns, 'colour', 'group'));
    expect(missing?.code).toBe(400);
    expect(missing?.message).toContain('colour');
    expect(refusal(() => summaryColumn(def, columns, 'name', 'measure'))?.code).toBe(400);
    expect(refusal(() => summaryColumn(def, columns, 'weight', 'date'))?.code).toBe(400);
  });
});

describe('summary SQL', () => {
  it('bounds a range as [from, to) and leaves an open side out', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2026-02-01T00:00:00Z');
    expect(dialect.sqlToQuery(rangeCondition(probe.doneAt, { field: 'doneAt', from, to })!).sql).toBe(
      '("probe"."done_at" >= $1 and "probe"."done_at" < $2)',
    );
    expect(dialect.sqlToQuery(rangeCondition(probe.doneAt, { field: 'doneAt', to })!).sql).toBe(
      '"probe"."done_at" < $1',
    );
    expect(rangeCondition(probe.doneAt, undefined)).toBeUndefined();
  });

  it('buckets by a unit written into the text, never a parameter, so GROUP BY sees one expression', () => {
    const query = dialect.sqlToQuery(periodExpression(probe.doneAt, 'week'));
    expect(query.sql).toBe(`to_char(date_trunc('week', "probe"."done_at"), 'YYYY-MM-DD')`);
    expect(query.params).toEqual([]);
  });

  it('counts without a field and refuses other measures without one', () => {
    expect(dialect.sqlToQuery(measureExpression(def, columns, { key: 'n', fn: 'count' })).sql).toBe('count(*)');
    expect(refusal(() => measureExpression(def, columns, { key: 's', fn: 'sum' }))?.code).toBe(400);
    expect(
      dialect.sqlToQuery(measureExpression(def, columns, { key: 'ok', fn: 'countTrue', field: 'passed' })).sql,
    ).toBe('count(*) filter (where "probe"."passed")');
  });
});
