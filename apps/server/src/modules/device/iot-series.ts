import { and, asc, count, eq, gte, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { ModelListPoint } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { telemetry, telemetryMinute } from '../../platform/db/schema';
import { tenantRows } from '../../platform/tenancy/tenant-scope';
import { bucketSecondsFor, type ModelListWindow } from './iot-range';

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
 * Every condition leads with the `(tenant_id, device_code, field, ts)` index's columns, so each
 * partition the window touches is read by one index range scan and nothing else.
 */
const inWindow = (key: SeriesKey, window: ModelListWindow) =>
  tenantRows(
    telemetry,
    key.tenantId,
    eq(telemetry.deviceCode, key.deviceCode),
    eq(telemetry.field, key.field),
    gte(telemetry.ts, new Date(window.from)),
    lte(telemetry.ts, new Date(window.to)),
  );

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * The raw points of the window when there are at most `maxPoints` of them. They are counted first,
 * up to `maxPoints + 1` index entries and without fetching a row, so a dense window costs one short
 * index read to rule out, and only a sparse one is fetched.
 */
async function rawPoints(ctx: AppContext, key: SeriesKey, window: ModelListWindow) {
  const capped = ctx.db
    .select({ one: sql<number>`1`.as('one') })
    .from(telemetry)
    .where(inWindow(key, window))
    .limit(window.maxPoints + 1)
    .as('capped');
  const [counted] = await ctx.db.select({ n: count() }).from(capped);
  if ((counted?.n ?? 0) > window.maxPoints) return undefined;
  const rows = await ctx.db
    .select({ ts: telemetry.ts, value: telemetry.numValue })
    .from(telemetry)
    .where(inWindow(key, window))
    .orderBy(asc(telemetry.ts))
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

const MINUTE_MS = 60_000;
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
  const value = sql`${telemetry.numValue}::float8`;
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    await tx.execute(sql`set local enable_sort = off`);
    const rows = await tx
      .select({
        bucket: sql<Date>`${epochBin(bucketSeconds, telemetry.ts)}`.mapWith((v: string | Date) => new Date(v)),
        sum: sql<number | null>`sum(${value})`,
        min: sql<number | null>`min(${value})`,
        max: sql<number | null>`max(${value})`,
        count: sql<number>`count(${value})`.mapWith(Number),
      })
      .from(telemetry)
      .where(inWindow(key, window))
      .groupBy(sql`1`);
    return pointsOf(rows);
  });
}

/**
 * Buckets of a minute or more in one statement: the window's whole minutes `[firstWhole, endWhole)`
 * from the per-minute rollup (`mes_telemetry_minute`, kept by ingestion in the batch's
 * transaction; a day at 1 Hz is 1,440 rows there instead of 86,400 raw ones), and the part-minutes
 * at its two edges from the raw points, folded together into buckets of `bucketSeconds` (a
 * multiple of 60, so each bucket is a union of whole minutes). Aggregated as NUMERIC, uncast:
 * converting every row to double precision cost more than the aggregates themselves (101 against
 * 165 statements/s at 10 clients over 16,667 rows).
 */
async function rollupBuckets(
  ctx: AppContext,
  key: SeriesKey,
  window: ModelListWindow,
  bucketSeconds: number,
  firstWhole: number,
  endWhole: number,
) {
  const whole = ctx.db
    .select({
      bucket: sql<string>`${epochBin(bucketSeconds, telemetryMinute.minute)}`.as('bucket'),
      sum: sql<string>`${telemetryMinute.total}`.as('sum'),
      min: sql<string>`${telemetryMinute.low}`.as('min'),
      max: sql<string>`${telemetryMinute.high}`.as('max'),
      count: sql<number>`${telemetryMinute.points}`.as('count'),
    })
    .from(telemetryMinute)
    .where(
      tenantRows(
        telemetryMinute,
        key.tenantId,
        eq(telemetryMinute.deviceCode, key.deviceCode),
        eq(telemetryMinute.field, key.field),
        gte(telemetryMinute.minute, new Date(firstWhole)),
        lt(telemetryMinute.minute, new Date(endWhole)),
      ),
    );
  const value = sql`${telemetry.numValue}`;
  const edges = ctx.db
    .select({
      bucket: sql<string>`${epochBin(bucketSeconds, telemetry.ts)}`.as('bucket'),
      sum: sql<string>`${value}`.as('sum'),
      min: sql<string>`${value}`.as('min'),
      max: sql<string>`${value}`.as('max'),
      count: sql<number>`1`.as('count'),
    })
    .from(telemetry)
    .where(
      tenantRows(
        telemetry,
        key.tenantId,
        eq(telemetry.deviceCode, key.deviceCode),
        eq(telemetry.field, key.field),
        isNotNull(telemetry.numValue),
        or(
          and(gte(telemetry.ts, new Date(window.from)), lt(telemetry.ts, new Date(firstWhole))),
          and(gte(telemetry.ts, new Date(endWhole)), lte(telemetry.ts, new Date(window.to))),
        ),
      ),
    );
  const parts = unionAll(whole, edges).as('parts');
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
 * Buckets of a minute or more come from the rollup for the window's whole minutes and from the
 * raw series only for the part-minutes at its two edges; finer buckets from the raw series alone.
 */
async function bucketPoints(ctx: AppContext, key: SeriesKey, window: ModelListWindow, bucketSeconds: number) {
  if (bucketSeconds % 60 !== 0) return rawBuckets(ctx, key, window, bucketSeconds);
  const firstWhole = Math.ceil(window.from / MINUTE_MS) * MINUTE_MS;
  const endWhole = Math.floor((window.to + 1) / MINUTE_MS) * MINUTE_MS;
  if (firstWhole >= endWhole) return rawBuckets(ctx, key, window, bucketSeconds);
  return rollupBuckets(ctx, key, window, bucketSeconds, firstWhole, endWhole);
}

/** The window's points: raw when they fit in `maxPoints`, else downsampled on the server. */
export async function seriesPoints(ctx: AppContext, key: SeriesKey, window: ModelListWindow): Promise<SeriesPoints> {
  const raw = await rawPoints(ctx, key, window);
  if (raw) return { bucketSeconds: 0, points: raw };
  const bucketSeconds = bucketSecondsFor(window);
  return { bucketSeconds, points: await bucketPoints(ctx, key, window, bucketSeconds) };
}
