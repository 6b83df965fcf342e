import { and, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FieldDef, ReportMeasureFn, ReportPeriod, ResourceDef } from '@mes/contracts';
import { badRequest } from '../../platform/http/errors';

/**
 * Grouped reads of a resource (docs/reports.md, "Report sources"): what `ResourceService.summarize`
 * takes. The rows are the ones the resource's list reads for the caller (tenant, data scope,
 * list filters); this adds a day range on a date field, a time bucket, group fields and measures.
 */
export interface SummarySpec {
  /** Rows whose `field` is in [from, to). */
  range?: { field: string; from?: Date; to?: Date };
  /** Groups by the bucket of `field` (`period` in each row, `yyyy-MM-dd` of the bucket's first day). */
  period?: { field: string; unit: ReportPeriod };
  groupBy: readonly string[];
  measures: readonly SummaryMeasure[];
  /** Detail rows (no grouping): the fields to read; default every listed field. */
  limit: number;
}

export interface SummaryMeasure {
  /** Key of the value in each row and in the totals. */
  key: string;
  fn: ReportMeasureFn;
  field?: string;
}

/** The key of the time bucket in grouped rows. */
export const PERIOD_KEY = 'period';

const DATE_KINDS = new Set<FieldDef['kind']>(['datetime', 'date']);
const NUMBER_KINDS = new Set<FieldDef['kind']>(['int', 'decimal']);
const GROUP_KINDS = new Set<FieldDef['kind']>(['string', 'int', 'id', 'reference', 'boolean', 'date']);
/** `date_trunc` units, rendered into the SQL text (never a parameter: GROUP BY must see one expression). */
const TRUNC: Record<ReportPeriod, string> = { day: 'day', week: 'week', month: 'month' };

/** What a field is wanted for, in both languages. */
const USES = {
  date: { zh: '按日期筛选', en: 'filter by date' },
  group: { zh: '分组', en: 'group by' },
  measure: { zh: '统计', en: 'measure' },
} as const;

const fieldMessage = (def: ResourceDef, name: string, use: keyof typeof USES) => ({
  zh: `数据来源「${def.title.zh}」没有可${USES[use].zh}的字段 ${name}`,
  en: `the source ${def.code} has no field ${name} to ${USES[use].en}`,
});

/** The column of a field the spec names, refused with a 400 unless it exists and suits the use. */
export function summaryColumn(
  def: ResourceDef,
  columns: Record<string, PgColumn>,
  name: string,
  use: 'date' | 'group' | 'measure' | 'flag',
): PgColumn {
  const field = def.fields[name];
  const column = columns[name];
  const kinds =
    use === 'date' ? DATE_KINDS : use === 'group' ? GROUP_KINDS : use === 'measure' ? NUMBER_KINDS : undefined;
  const fits = field && column && field.kind !== 'secret' && (kinds ? kinds.has(field.kind) : field.kind === 'boolean');
  // The audit time is a column of every audited table, without a field of its own.
  if (!fits && use === 'date' && name === 'createTime' && columns.createTime) return columns.createTime;
  if (!fits) throw badRequest(fieldMessage(def, name, use === 'flag' ? 'measure' : use));
  return column;
}

export function rangeCondition(column: PgColumn, range: SummarySpec['range']): SQL | undefined {
  if (!range) return undefined;
  return and(range.from ? gte(column, range.from) : undefined, range.to ? lt(column, range.to) : undefined);
}

/** `yyyy-MM-dd` of the bucket's first day, in the database session's time zone. */
export function periodExpression(column: PgColumn, unit: ReportPeriod): SQL<string> {
  return sql<string>`to_char(date_trunc('${sql.raw(TRUNC[unit])}', ${column}), 'YYYY-MM-DD')`;
}

/** A measure as SQL; every value is a number (sums of ids or decimals included) or null. */
export function measureExpression(
  def: ResourceDef,
  columns: Record<string, PgColumn>,
  measure: SummaryMeasure,
): SQL<number | null> {
  if (measure.fn === 'count') return sql<number>`count(*)`.mapWith(Number);
  if (!measure.field)
    throw badRequest({ zh: `统计项 ${measure.fn} 需要字段`, en: `the measure ${measure.fn} needs a field` });
  if (measure.fn === 'countTrue') {
    const column = summaryColumn(def, columns, measure.field, 'flag');
    return sql<number>`count(*) filter (where ${column})`.mapWith(Number);
  }
  const column = summaryColumn(def, columns, measure.field, 'measure');
  const asNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  switch (measure.fn) {
    case 'sum':
      return sql<number | null>`sum(${column})`.mapWith(asNumber);
    case 'avg':
      return sql<number | null>`round(avg(${column}), 4)`.mapWith(asNumber);
    case 'min':
      return sql<number | null>`min(${column})`.mapWith(asNumber);
    case 'max':
      return sql<number | null>`max(${column})`.mapWith(asNumber);
  }
}
