import { and, asc, count, desc, eq, getTableColumns, gt, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  DEFAULT_SERIES_ESTIMATE_ABOVE,
  DEFAULT_SERIES_RANGE_HOURS,
  Messages,
  parseDateTime,
  type PageResult,
  type ResourceDef,
  type Row,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { selectNamed } from '../../platform/db/named-statements';
import { pageOf } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import type { ListQuery } from '../../platform/http/list-query';
import type { AnyResourceTable } from '../resource-access';

const HOUR_MS = 60 * 60 * 1000;

/**
 * What a series page needs of the resource's service (`seriesSourceOf`, series-plugin.ts):
 * the parsed list query with its scope, the row selection, and the totals key.
 */
export interface SeriesSource {
  ctx: AppContext;
  def: ResourceDef;
  table: AnyResourceTable;
  selection: Record<string, PgColumn>;
  /** The rows as replies show them (with referenced labels), before conditions. */
  selectRows(): { where(w: SQL | undefined): SeriesQuery };
  listWhere(query: Record<string, unknown>): Promise<{ parsed: ListQuery; where: SQL | undefined }>;
  decorate(rows: Row[]): Promise<Row[]>;
  /** The factor the planner's estimates are multiplied by (`ResourceHooks.estimateScale`). */
  estimateScale?(): Promise<number>;
  /** Whose totals these are (a tenant, or every tenant) and the filters' key. */
  rowsOf: string;
  filterKey: string;
}
interface SeriesQuery {
  orderBy(...o: SQL[]): SeriesQuery;
  limit(n: number): SeriesQuery;
  offset(n: number): SeriesQuery;
  toSQL(): { sql: string; params: unknown[] };
}

export interface SeriesPageOptions {
  /** Overrides the definition's `estimateAbove` (tests). */
  estimateAbove?: number;
}

/** The (time, id) keys of the last row of a page, in the order's columns. */
type Cursor = unknown[];

/** Remembered page ends per list; beyond this many lists the oldest are forgotten. */
const MAX_CURSOR_LISTS = 2000;
/** Remembered page ends per list; a reader going deeper forgets the earliest. */
const MAX_CURSOR_PAGES = 1000;
/** How far back a cold jump looks for a remembered page end to seek from. */
const MAX_CURSOR_WALK = 200;
const cursors = new Map<string, Map<number, Cursor>>();

function cursorsOf(key: string): Map<number, Cursor> {
  let pages = cursors.get(key);
  if (pages) {
    // Most recently used last, so the first key is the one to forget.
    cursors.delete(key);
    cursors.set(key, pages);
    return pages;
  }
  pages = new Map();
  cursors.set(key, pages);
  if (cursors.size > MAX_CURSOR_LISTS) cursors.delete(cursors.keys().next().value as string);
  return pages;
}

/** Names of the query parameters that bound the time field from below and from above. */
function rangeParams(field: string) {
  return {
    lower: [`${field}_dategt`, `${field}_gt`],
    upper: [`${field}_datelt`, `${field}_lt`],
    /** One day or one instant: bounded on both sides. */
    both: [field, `${field}_dateequal`],
  };
}

const present = (query: Record<string, unknown>, names: readonly string[]) =>
  names.filter((n) => typeof query[n] === 'string' && (query[n] as string).trim() !== '');

/**
 * The time range a series list reads. The list query has already checked each value; here a
 * missing lower bound becomes the day before the upper bound (or before now), and a lower bound
 * after the upper one is refused.
 */
export function seriesRange(
  def: ResourceDef,
  query: Record<string, unknown>,
  now: Date,
): { from: Date | undefined; to: Date | undefined; defaulted: boolean } {
  const field = def.series?.time ?? 'createTime';
  const names = rangeParams(field);
  const upperName = present(query, names.upper)[0];
  const lowerName = present(query, names.lower)[0];
  const parse = (name: string | undefined) => {
    if (!name) return undefined;
    const text = (query[name] as string).trim();
    const date = parseDateTime(text);
    if (!date) throw badRequest(Messages.invalidParam(name, '日期格式应为 yyyy-MM-dd HH:mm:ss'));
    // `_datelt` of a bare day includes that whole day (as the list query reads it).
    return /^\d{4}-\d{2}-\d{2}$/.test(text) && name.endsWith('_datelt')
      ? new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1)
      : date;
  };
  const to = parse(upperName);
  const from = parse(lowerName);
  if (from && to && from > to)
    throw badRequest(`${Messages.invalidParam(lowerName ?? field, '开始时间不能晚于结束时间')}`);
  if (from || present(query, names.both).length) return { from, to, defaulted: false };
  return { from: new Date((to ?? now).getTime() - DEFAULT_SERIES_RANGE_HOURS * HOUR_MS), to, defaulted: true };
}

/** One column of the keyset order, and the row field that holds its value. */
interface KeyPart {
  key: string;
  column: PgColumn;
  desc: boolean;
}

/**
 * The order a keyset follows: the definition's (newest first), then the id ascending unless the
 * definition orders by the id itself (a view over a union reads each part by one backward index
 * scan on `(time, id)` only when both run the same way: docs/series.md). Unlike other lists,
 * the platform's list across tenants is not grouped by tenant: `(tenant asc, time desc)` matches
 * no index direction, so PostgreSQL would sort the whole range (129 ms against 2 ms for a day of
 * 333,000 rows, docs/series.md), while newest-first walks each partition's time index backwards.
 * A client's own sort (`ascs` / `descs`) pages by offset.
 */
function keysetOrder(source: SeriesSource): KeyPart[] {
  const cols = getTableColumns(source.table) as Record<string, PgColumn>;
  const parts: KeyPart[] = [];
  for (const s of source.def.defaultSort ?? []) {
    const column = cols[s.field];
    if (column) parts.push({ key: s.field, column, desc: s.desc === true });
  }
  if (!parts.some((p) => p.key === 'id')) parts.push({ key: 'id', column: cols.id as PgColumn, desc: false });
  return parts;
}

/**
 * Rows after `cursor` in the keyset order: (a > x) or (a = x and b < y) or ..., and `a >= x`
 * besides, which every branch implies: PostgreSQL turns that one into an index bound where it
 * would only filter by the disjunction.
 */
function after(parts: KeyPart[], cursor: Cursor): SQL | undefined {
  const branches: SQL[] = [];
  parts.forEach((part, i) => {
    const value = cursor[i];
    const beyond = part.desc ? lt(part.column, value) : gt(part.column, value);
    const equalBefore = parts.slice(0, i).map((p, j) => eq(p.column, cursor[j]));
    branches.push(and(...equalBefore, beyond) as SQL);
  });
  const [first] = parts;
  const reach = first ? (first.desc ? lte(first.column, cursor[0]) : gte(first.column, cursor[0])) : undefined;
  return and(reach, or(...branches));
}

/** The planner's row estimate of the bounded, filtered rows: no scan, a few hundred microseconds. */
async function estimateRows(source: SeriesSource, where: SQL | undefined): Promise<number> {
  const query = source.ctx.db
    .select({ one: sql`1` })
    .from(source.table)
    .where(where)
    .toSQL();
  const [result, scale] = await Promise.all([
    source.ctx.database.pool.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(
      `explain (format json) ${query.sql}`,
      query.params,
    ),
    source.estimateScale ? source.estimateScale() : 1,
  ]);
  return Math.round((result.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0) * scale);
}

/**
 * The total of a series list. `scanned` is what a count has to visit: the caller's rows in the
 * bounded range, before the other filters (an index on them is not assumed). While the planner
 * expects at most `estimateAbove` rows there, the total is an exact `count(*)`; above, it is the
 * planner's estimate of the filtered rows, with no scan at all.
 */
export async function seriesTotal(
  source: SeriesSource,
  where: SQL | undefined,
  scanned: SQL | undefined,
  options: SeriesPageOptions = {},
): Promise<{ total: number; estimated: boolean }> {
  const bound = options.estimateAbove ?? source.def.series?.estimateAbove ?? DEFAULT_SERIES_ESTIMATE_ABOVE;
  if ((await estimateRows(source, scanned)) > bound)
    return { total: await estimateRows(source, where), estimated: true };
  const [row] = await source.ctx.db.select({ n: count() }).from(source.table).where(where);
  return { total: row?.n ?? 0, estimated: false };
}

/** The query's time range and tenant only: the rows a count of the list would visit. */
function rangeOnly(def: ResourceDef, query: Record<string, unknown>): Record<string, unknown> {
  const names = rangeParams(def.series?.time ?? 'createTime');
  const keep = new Set([...names.lower, ...names.upper, ...names.both, 'tenantId']);
  return Object.fromEntries(Object.entries(query).filter(([name]) => keep.has(name)));
}

/**
 * A page of a series list (docs/series.md): always within a bounded time range; in the default
 * order, page n+1 seeks from the remembered last row of page n (keyset), so rows appended between
 * requests neither repeat nor skip rows; a page with no remembered predecessor seeks from the
 * nearest remembered page before it, or from the start, by offset. The reply keeps the page shape.
 */
export async function seriesPage(
  source: SeriesSource,
  query: Record<string, unknown>,
  options: SeriesPageOptions = {},
): Promise<PageResult<Row>> {
  const { parsed, where } = await source.listWhere(query);
  const series = source.def.series;
  if (!series) throw new Error(`${source.def.code} is not a series resource`);
  const cols = getTableColumns(source.table) as Record<string, PgColumn>;
  const timeColumn = cols[series.time] as PgColumn;
  const range = seriesRange(source.def, query, new Date(source.ctx.clock.now()));
  // The list query already applies the client's bounds; the default one is added here.
  const defaultBound = range.defaulted && range.from ? gte(timeColumn, range.from) : undefined;
  const bounded = and(where, defaultBound);

  const sorted = present(query, ['ascs', 'descs']).length > 0;
  const parts = keysetOrder(source);
  const orderBy = sorted
    ? [...parsed.orderBy, asc(cols.id as PgColumn)]
    : parts.map((p) => (p.desc ? desc(p.column) : asc(p.column)));
  const listKey = `${source.def.code}|${source.rowsOf}|${source.filterKey}|${parsed.size}`;
  const pages = sorted ? undefined : cursorsOf(listKey);

  let seek: SQL | undefined;
  let offset = parsed.offset;
  if (pages && parsed.current > 1) {
    for (let j = parsed.current - 1; j >= 1 && j >= parsed.current - MAX_CURSOR_WALK; j--) {
      const cursor = pages.get(j);
      if (!cursor) continue;
      seek = after(parts, cursor);
      offset = (parsed.current - 1 - j) * parsed.size;
      break;
    }
  }
  const rowsQuery = source
    .selectRows()
    .where(and(bounded, seek))
    .orderBy(...orderBy)
    .limit(parsed.size)
    .offset(offset);
  const totalKey = `${source.filterKey}|series`;
  const [rows, total] = await Promise.all([
    selectNamed(source.ctx.database.pool, source.selection, rowsQuery),
    source.ctx.totals.get(source.def.code, source.rowsOf, totalKey, async () => {
      const scope = await source.listWhere(rangeOnly(source.def, query));
      const counted = await seriesTotal(source, bounded, and(scope.where, defaultBound), options);
      return counted.total;
    }),
  ]);
  const last = rows[rows.length - 1];
  if (pages && last && rows.length === parsed.size) {
    pages.set(
      parsed.current,
      parts.map((p) => last[p.key]),
    );
    if (pages.size > MAX_CURSOR_PAGES) pages.delete(pages.keys().next().value as number);
  }
  return pageOf(await source.decorate(rows), total, parsed.current, parsed.size);
}
