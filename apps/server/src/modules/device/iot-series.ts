import { and, asc, count, eq, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { ModelListPoint } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { acquisition, telemetryMinute, telemetryQuarter } from '../../platform/db/schema';
import { tenantRows } from '../../platform/tenancy/tenant-scope';
import { bucketSecondsFor, planWindow, type ModelListWindow, type Span, type WindowPlan } from './iot-range';

/** One field of one device of one tenant. */
export interface SeriesKey {
  tenantId: string;
  deviceCode: string;
  field: string;
}

/** The points of a window: raw, or folded into buckets of `bucketSeconds`. */
export interface SeriesPoints {
  bucketSeconds: number;
  points: ModelListPoint[];
}

/**
 * Rollup rows of the series: every condition leads with the `(tenant_id, device_code, field,
 * period)` index's columns, so each partition the window touches is read by one index range scan.
 */
const ofSeries = (
  table: typeof telemetryMinute | typeof telemetryQuarter,
  key: SeriesKey,
  ...conditions: (SQL | undefined)[]
) => tenantRows(table, key.tenantId, eq(table.deviceCode, key.deviceCode), eq(table.field, key.field), ...conditions);

/**
 * The raw points are the device's messages (`mes_acqdata`, one row per message with its values,
 * docs/mqtt.md "Stored once"), read by the `(tenant_id, device_code, collect_time)` index; those
 * holding the field are its points. Read from the rows themselves, not the `mes_telemetry` view,
 * so that only the field's value is taken out of each row instead of every value unnested.
 */
const ts = acquisition.collectTime;
const holding = (key: SeriesKey, ...conditions: (SQL | undefined)[]) =>
  tenantRows(
    acquisition,
    key.tenantId,
    eq(acquisition.deviceCode, key.deviceCode),
    sql`(${acquisition.dataValues} -> ${key.field}::text) is not null`,
    ...conditions,
  );
/** The field's number in a row (a text value of an enum has none). */
const numberOf = (key: SeriesKey) =>
  sql`(case when jsonb_typeof(${acquisition.dataValues} -> ${key.field}::text) = 'number'
    then (${acquisition.dataValues} ->> ${key.field}::text)::numeric end)`;

const inWindow = (key: SeriesKey, window: ModelListWindow) =>
  holding(key, gte(ts, new Date(window.from)), lte(ts, new Date(window.to)));

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * The raw points of the window when there are at most `maxPoints` of them. They are counted first,
 * up to `maxPoints + 1` index entries and without fetching a row, so a dense window costs one short
 * index read to rule out, and only a sparse one is fetched.
 */
async function rawPoints(ctx: AppContext, key: SeriesKey, window: ModelListWindow) {
  const capped = ctx.db
    .select({ one: sql<number>`1`.as('one') })
    .from(acquisition)
    .where(inWindow(key, window))
    .limit(window.maxPoints + 1)
    .as('capped');
  const [counted] = await ctx.db.select({ n: count() }).from(capped);
  if ((counted?.n ?? 0) > window.maxPoints) return undefined;
  const rows = await ctx.db
    .select({ ts, value: sql<string | null>`${numberOf(key)}` })
    .from(acquisition)
    .where(inWindow(key, window))
    .orderBy(asc(ts))
    .limit(window.maxPoints + 1);
  // Points that arrived between the count and the read can tip the window over: then it is bucketed.
  if (rows.length > window.maxPoints) return undefined;
  return rows.map((row): ModelListPoint => {
    const value = num(row.value);
    return { ts: (row.ts as Date).getTime(), value, min: value, max: value, count: 1 };
  });
}

/** One bucket as a statement answers it (sums and extremes as numbers or NUMERIC text). */
interface BucketRow {
  bucket: Date;
  sum: number | string | null;
  min: number | string | null;
  max: number | string | null;
  count: number;
}

/** A statement's buckets as points in time order, each with its average. */
function pointsOf(rows: readonly BucketRow[]): ModelListPoint[] {
  return rows
    .map((row) => ({
      ts: row.bucket.getTime(),
      value: row.count ? (num(row.sum) ?? 0) / row.count : null,
      min: num(row.min),
      max: num(row.max),
      count: row.count,
    }))
    .sort((x, y) => x.ts - y.ts);
}

const epochBin = (seconds: number, column: unknown) =>
  sql`date_bin(make_interval(secs => ${seconds}), ${column}, timestamptz '1970-01-01 00:00:00+00')`;

/**
 * Raw points of `[from, to]` folded into buckets of `bucketSeconds` aligned on the epoch
 * (`date_bin`). Sums in double precision: the chart needs no more, and `numeric` arithmetic over
 * a million rows costs several times more. For the statement: JIT off (compiling cost more,
 * ~60 ms, than it saved), and no sort — the planner takes every row for a group of its own, so it
 * sorts a million rows (spilling to disk) instead of hashing a thousand buckets; hashed, then
 * sorted here, took 30–45 % less.
 */
async function rawBuckets(ctx: AppContext, key: SeriesKey, window: ModelListWindow, bucketSeconds: number) {
  if (window.from > window.to) return [];
  const value = sql`${numberOf(key)}::float8`;
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    await tx.execute(sql`set local enable_sort = off`);
    const rows = await tx
      .select({
        bucket: sql<Date>`${epochBin(bucketSeconds, ts)}`.mapWith((v: string | Date) => new Date(v)),
        sum: sql<number | null>`sum(${value})`,
        min: sql<number | null>`min(${value})`,
        max: sql<number | null>`max(${value})`,
        count: sql<number>`count(${value})`.mapWith(Number),
      })
      .from(acquisition)
      .where(inWindow(key, window))
      .groupBy(sql`1`);
    return pointsOf(rows);
  });
}

/** A rollup table as the reader sees it: its period column and width (ingestion's `ROLLUP_LEVELS`). */
interface Level {
  seconds: number;
  table: typeof telemetryMinute | typeof telemetryQuarter;
  period: typeof telemetryMinute.minute | typeof telemetryQuarter.quarter;
}

/** Coarsest first: a bucket is read from the coarsest level whose width divides it. */
const LEVELS: readonly Level[] = [
  { seconds: 900, table: telemetryQuarter, period: telemetryQuarter.quarter },
  { seconds: 60, table: telemetryMinute, period: telemetryMinute.minute },
];

const inSpan = (column: typeof ts | Level['period'], [a, b]: Span) =>
  and(gte(column, new Date(a)), lt(column, new Date(b)));

/** The columns of one part of the window (rollup rows or raw points), as the union adds them up. */
const partColumns = (bucket: SQL, sum: unknown, min: unknown, max: unknown, count: unknown) => ({
  bucket: sql<string>`${bucket}`.as('bucket'),
  sum: sql<string>`${sum}`.as('sum'),
  min: sql<string>`${min}`.as('min'),
  max: sql<string>`${max}`.as('max'),
  count: sql<number>`${count}`.as('count'),
});

/**
 * Buckets of a minute or more in one statement, read as {@link planWindow} splits the window:
 * whole quarter hours from `mes_telemetry_quarter`, whole minutes at the edges from
 * `mes_telemetry_minute` (both kept by ingestion in the batch's transaction), part-minutes at the
 * very edges from the raw points, folded together into buckets of `bucketSeconds`. A 30-day chart
 * reads 2,880 quarter rows instead of 43,200 minute rows or 2,592,000 raw points at 1 Hz.
 * Aggregated as NUMERIC, uncast: converting every row to double precision cost more than the
 * aggregates themselves (101 against 165 statements/s at 10 clients over 16,667 rows), and the
 * sums stay exact.
 */
async function rollupBuckets(
  ctx: AppContext,
  key: SeriesKey,
  window: ModelListWindow,
  bucketSeconds: number,
  plan: WindowPlan,
) {
  const byLevel = plan.levels.flatMap(({ seconds, spans }) => {
    const level = LEVELS.find((l) => l.seconds === seconds);
    if (!level || !spans.length) return [];
    const { table, period } = level;
    return [
      ctx.db
        .select(partColumns(epochBin(bucketSeconds, period), table.total, table.low, table.high, table.points))
        .from(table)
        .where(ofSeries(table, key, or(...spans.map((span) => inSpan(period, span))))),
    ];
  });
  const value = numberOf(key);
  const [head, tail] = plan.raw;
  const edges = ctx.db
    .select(partColumns(epochBin(bucketSeconds, ts), value, value, value, sql`1`))
    .from(acquisition)
    .where(
      holding(
        key,
        sql`${value} is not null`,
        // The window's end is included: the tail span is closed.
        or(inSpan(ts, head), and(gte(ts, new Date(tail[0])), lte(ts, new Date(tail[1])))),
      ),
    );
  // planWindow answers at least one level with whole periods, so there is a second part.
  const [first, ...more] = byLevel;
  if (!first) return rawBuckets(ctx, key, window, bucketSeconds);
  const parts = unionAll(edges, first, ...more).as('parts');
  const rows = await ctx.db
    .select({
      bucket: sql<Date>`${parts.bucket}`.mapWith((v: string | Date) => new Date(v)),
      sum: sql<string | null>`sum(${parts.sum})`,
      min: sql<string | null>`min(${parts.min})`,
      max: sql<string | null>`max(${parts.max})`,
      count: sql<number>`sum(${parts.count})`.mapWith(Number),
    })
    .from(parts)
    .groupBy(sql`1`);
  return pointsOf(rows);
}

/**
 * Buckets of a minute or more come from the rollups for the window's whole periods and from the
 * raw series only for the part-minutes at its two edges; finer buckets from the raw series alone.
 */
async function bucketPoints(ctx: AppContext, key: SeriesKey, window: ModelListWindow, bucketSeconds: number) {
  const widths = LEVELS.map((l) => l.seconds);
  const plan = window.from <= window.to ? planWindow(window.from, window.to, bucketSeconds, widths) : undefined;
  if (!plan) return rawBuckets(ctx, key, window, bucketSeconds);
  return rollupBuckets(ctx, key, window, bucketSeconds, plan);
}

/** The window's points: raw when they fit in `maxPoints`, else downsampled on the server. */
export async function seriesPoints(ctx: AppContext, key: SeriesKey, window: ModelListWindow): Promise<SeriesPoints> {
  const raw = await rawPoints(ctx, key, window);
  if (raw) return { bucketSeconds: 0, points: raw };
  const bucketSeconds = bucketSecondsFor(window);
  return { bucketSeconds, points: await bucketPoints(ctx, key, window, bucketSeconds) };
}
