import {
  DEFAULT_PAGE_SIZE,
  INT4_MAX,
  bilingual,
  inputWhy,
  invalidParamText,
  isIdText,
  MAX_PAGE_SIZE,
  OPERATORS_BY_TYPE,
  PAGING_PARAMS,
  parseDateTime,
  parseDay,
  parseFilterName,
  type FilterOperator,
  type QueryFieldSpec,
} from '@mes/contracts';
import { and, asc, desc, eq, gt, gte, ilike, isNotNull, isNull, lt, lte, ne, not, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from './errors';

/** A field a list declares: what the client may do with it, and the column it maps to. */
export interface ListField extends QueryFieldSpec {
  column: AnyPgColumn;
}

export type ListFields = Record<string, ListField>;

export interface ListQuery {
  where: SQL | undefined;
  orderBy: SQL[];
  current: number;
  size: number;
  offset: number;
}

export interface ListQueryOptions {
  /** Route parameters that are not filters (for example `parentId` of a lazy tree). */
  extraParams?: readonly string[];
  /** Sort used when the client asks for none. */
  defaultOrder?: SQL[];
}

const MAX_TEXT = 200;

/**
 * Turns a BladeX list request into SQL conditions. Only declared fields are accepted: any other
 * parameter name, operator or sort field is a 400, and values only ever travel as bound
 * parameters (SpringBlade's CVE-2020-16165 came from turning parameter names into columns).
 */
export function parseListQuery(
  query: Record<string, unknown>,
  fields: ListFields,
  options: ListQueryOptions = {},
): ListQuery {
  const conditions: SQL[] = [];
  const extra = new Set<string>(options.extraParams ?? []);
  for (const [name, raw] of Object.entries(query)) {
    if ((PAGING_PARAMS as readonly string[]).includes(name) || extra.has(name)) continue;
    const { field, operator } = parseFilterName(name);
    const spec = fields[field];
    if (!spec?.filter) throw badRequest(bilingual('unknownFilter', name));
    const value = singleValue(name, raw);
    if (value === '' && operator !== 'null' && operator !== 'notnull') continue;
    const condition = conditionFor(name, spec, operator, value);
    if (condition) conditions.push(condition);
  }
  const current = positiveInt('current', query.current, 1);
  const size = Math.min(positiveInt('size', query.size, DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
  const orderBy = [...sortOf(query.ascs, 'asc', fields), ...sortOf(query.descs, 'desc', fields)];
  return {
    where: conditions.length ? and(...conditions) : undefined,
    orderBy: orderBy.length ? orderBy : (options.defaultOrder ?? []),
    current,
    size,
    offset: (current - 1) * size,
  };
}

function singleValue(name: string, raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') throw badRequest(invalidParamText(name, inputWhy('oneValue')));
  return raw.trim();
}

function conditionFor(name: string, spec: ListField, operator: FilterOperator | undefined, text: string) {
  // A bare date filter (the search bar's one-day picker) means that whole day.
  const op = operator ?? (spec.type === 'text' ? 'like' : spec.type === 'date' ? 'dateequal' : 'equal');
  if (!OPERATORS_BY_TYPE[spec.type].includes(op)) throw badRequest(bilingual('unknownFilter', name));
  const col = spec.column;
  switch (op) {
    case 'ignore':
      return undefined;
    case 'null':
      return isNull(col);
    case 'notnull':
      return isNotNull(col);
    case 'like':
      return ilike(col, `%${escapeLike(textValue(name, text))}%`);
    case 'notlike':
      return not(ilike(col, `%${escapeLike(textValue(name, text))}%`));
    case 'dategt':
      return isDayColumn(col) ? gte(col, dayValue(name, text)) : gte(col, dateValue(name, text));
    case 'datelt':
      return isDayColumn(col)
        ? lte(col, dayValue(name, text))
        : lte(col, endOfDayIfDateOnly(text, dateValue(name, text)));
    case 'dateequal': {
      if (isDayColumn(col)) return eq(col, dayValue(name, text));
      const day = dateValue(name, text);
      const start = new Date(day.getFullYear(), day.getMonth(), day.getDate());
      const next = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1);
      return and(gte(col, start), lt(col, next));
    }
    case 'equal':
      return eq(col, typedValue(name, spec, text));
    case 'notequal':
      return ne(col, typedValue(name, spec, text));
    case 'gt':
      return gt(col, typedValue(name, spec, text));
    case 'lt':
      return lt(col, typedValue(name, spec, text));
  }
}

function typedValue(name: string, spec: ListField, text: string): string | number | boolean | Date {
  switch (spec.type) {
    case 'text':
      return textValue(name, text);
    case 'number':
      return numberValue(name, spec, text);
    case 'id':
      if (!isIdText(text)) throw badRequest(invalidParamText(name, inputWhy('id')));
      return text;
    case 'date':
      return isDayColumn(spec.column) ? dayValue(name, text) : dateValue(name, text);
    case 'boolean':
      if (!['true', 'false', '1', '0'].includes(text))
        throw badRequest(invalidParamText(name, { zh: '应为 true 或 false', en: 'must be true or false' }));
      return text === 'true' || text === '1';
  }
}

function textValue(name: string, text: string): string {
  if (text.length > MAX_TEXT) throw badRequest(invalidParamText(name, inputWhy('tooLong', MAX_TEXT)));
  return text;
}

function dateValue(name: string, text: string): Date {
  const date = parseDateTime(text);
  if (!date)
    throw badRequest(
      invalidParamText(name, { zh: '日期格式应为 yyyy-MM-dd HH:mm:ss', en: 'must be a time as yyyy-MM-dd HH:mm:ss' }),
    );
  return date;
}

/** A `date` column: compared with day text, never with a `Date` (whose day depends on the zone). */
const isDayColumn = (column: AnyPgColumn) => column.getSQLType() === 'date';

/** The day of `yyyy-MM-dd` or of `yyyy-MM-dd HH:mm[:ss]` (a range picker's bounds). */
function dayValue(name: string, text: string): string {
  const day = parseDay(text.trim().slice(0, 10));
  if (!day || (text.trim().length > 10 && !parseDateTime(text)))
    throw badRequest(invalidParamText(name, { zh: '日期格式应为 yyyy-MM-dd', en: 'must be a date as yyyy-MM-dd' }));
  return day;
}

/** `createTime_datelt=2026-11-22` includes the whole of that day. */
function endOfDayIfDateOnly(text: string, date: Date): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? new Date(date.getFullYear(), date.getMonth(), date.getDate(), 23, 59, 59, 999)
    : date;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A plain decimal of at most 60 digits: what a `numeric` column compares without an error. */
const EXACT_DECIMAL = /^[+-]?(?:\d{1,60}(?:\.\d{0,60})?|\.\d{1,60})$/;

/** Whole-number ranges of the integer column types a filter may compare against. */
const INTEGER_RANGES: Record<string, readonly [number, number]> = {
  smallint: [-32_768, 32_767],
  integer: [-2_147_483_648, INT4_MAX],
  bigint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/**
 * A number compared with the column's own type: an integer column refuses fractions and values
 * beyond its range here, since PostgreSQL would answer them with an error rather than no rows.
 */
function numberValue(name: string, spec: ListField, text: string): number | string {
  const sqlType = spec.column.getSQLType();
  // An exact decimal is compared as the text the client sent, so no digit is lost to a float.
  if (sqlType.startsWith('numeric')) {
    if (!EXACT_DECIMAL.test(text)) throw badRequest(invalidParamText(name, inputWhy('number')));
    return text;
  }
  const range = INTEGER_RANGES[sqlType];
  if (range) {
    const n = /^[+-]?\d{1,16}$/.test(text) ? Number(text) : NaN;
    if (!Number.isInteger(n) || n < range[0] || n > range[1])
      throw badRequest(invalidParamText(name, inputWhy('intBetween', range[0], range[1])));
    return n;
  }
  const n = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(n)) throw badRequest(invalidParamText(name, inputWhy('number')));
  return n;
}

/** `current` and `size`: whole numbers from 1; `size` is then capped at {@link MAX_PAGE_SIZE}. */
function positiveInt(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string') throw badRequest(invalidParamText(name, inputWhy('oneValue')));
  const n = /^\d{1,10}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= 1 && n <= INT4_MAX)) throw badRequest(invalidParamText(name, inputWhy('intBetween', 1, INT4_MAX)));
  return n;
}

const toCamel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function sortOf(raw: unknown, direction: 'asc' | 'desc', fields: ListFields): SQL[] {
  if (raw === undefined || raw === '') return [];
  if (typeof raw !== 'string')
    throw badRequest(invalidParamText(direction === 'asc' ? 'ascs' : 'descs', inputWhy('oneValue')));
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      const spec = fields[toCamel(name)];
      if (!spec?.sort) throw badRequest(bilingual('unknownSort', name));
      return direction === 'asc' ? asc(spec.column) : desc(spec.column);
    });
}
