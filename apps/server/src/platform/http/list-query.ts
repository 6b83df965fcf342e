import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  Messages,
  OPERATORS_BY_TYPE,
  PAGING_PARAMS,
  parseDateTime,
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
    if (!spec?.filter) throw badRequest(Messages.unknownFilter(name));
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
  if (typeof raw !== 'string') throw badRequest(Messages.invalidParam(name, '只能有一个值'));
  return raw.trim();
}

function conditionFor(name: string, spec: ListField, operator: FilterOperator | undefined, text: string) {
  const op = operator ?? (spec.type === 'text' ? 'like' : 'equal');
  if (!OPERATORS_BY_TYPE[spec.type].includes(op)) throw badRequest(Messages.unknownFilter(name));
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
      return gte(col, dateValue(name, text));
    case 'datelt':
      return lte(col, endOfDayIfDateOnly(text, dateValue(name, text)));
    case 'dateequal': {
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
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n)) throw badRequest(Messages.invalidParam(name, '应为数字'));
      return n;
    }
    case 'id':
      if (!/^\d{1,19}$/.test(text)) throw badRequest(Messages.invalidParam(name, '应为编号'));
      return text;
    case 'date':
      return dateValue(name, text);
    case 'boolean':
      if (!['true', 'false', '1', '0'].includes(text))
        throw badRequest(Messages.invalidParam(name, '应为 true 或 false'));
      return text === 'true' || text === '1';
  }
}

function textValue(name: string, text: string): string {
  if (text.length > MAX_TEXT) throw badRequest(Messages.invalidParam(name, `最长 ${MAX_TEXT} 个字符`));
  return text;
}

function dateValue(name: string, text: string): Date {
  const date = parseDateTime(text);
  if (!date) throw badRequest(Messages.invalidParam(name, '日期格式应为 yyyy-MM-dd HH:mm:ss'));
  return date;
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

function positiveInt(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw badRequest(Messages.invalidParam(name, '应为正整数'));
  }
  return Number(raw);
}

const toCamel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function sortOf(raw: unknown, direction: 'asc' | 'desc', fields: ListFields): SQL[] {
  if (raw === undefined || raw === '') return [];
  if (typeof raw !== 'string')
    throw badRequest(Messages.invalidParam(direction === 'asc' ? 'ascs' : 'descs', '只能有一个值'));
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      const spec = fields[toCamel(name)];
      if (!spec?.sort) throw badRequest(Messages.unknownSort(name));
      return direction === 'asc' ? asc(spec.column) : desc(spec.column);
    });
}
