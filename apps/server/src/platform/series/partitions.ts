import { sql } from 'drizzle-orm';
import { columnOf, type ResourceDef, type SeriesDef, type SeriesPartition } from '@mes/contracts';
import type { Db } from '../db/database';
import { readIntParam } from '../db/params';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How far ahead partitions exist, so that inserts land in a partition of their own even when
 * the upkeep job has not run for a while (it runs hourly; a default partition catches the rest).
 */
export const AHEAD_DAYS: Record<SeriesPartition, number> = { day: 7, week: 14, month: 62 };

/**
 * Creating or dropping a partition takes an exclusive lock on the parent for a moment; waiting
 * for it behind a long read would queue every insert behind the wait. Giving up after this long
 * leaves the work to the next run (partitions exist a week ahead, so there are many).
 */
const DDL_LOCK_TIMEOUT = '3s';
const LOCK_NOT_AVAILABLE = '55P03';

const lockTimedOut = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === LOCK_NOT_AVAILABLE;
};

/** A series table as the upkeep sees it: its name and the column it is partitioned by. */
export interface SeriesTable {
  code: string;
  table: string;
  column: string;
  series: SeriesDef;
}

export function seriesTableOf(def: ResourceDef): SeriesTable {
  const series = def.series;
  if (!series) throw new Error(`${def.code} is not a series resource`);
  const field = def.fields[series.time];
  if (!field || field.kind !== 'datetime') throw new Error(`${def.code}: series.time must name a datetime field`);
  return { code: def.code, table: def.table, column: columnOf(series.time, field), series };
}

/** Start (UTC) of the partition holding `at`: midnight, Monday midnight, or the 1st. */
export function periodStart(at: Date, partition: SeriesPartition): Date {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (partition === 'day') return new Date(day);
  if (partition === 'week') return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** Start of the partition after the one starting at `start`. */
export function nextPeriod(start: Date, partition: SeriesPartition): Date {
  if (partition === 'day') return new Date(start.getTime() + DAY_MS);
  if (partition === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

const stamp = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

/** `blade_log_api_p20261124`: the table and the UTC day its partition starts. */
export const partitionName = (table: string, start: Date) => `${table}_p${stamp(start)}`;
export const defaultPartitionName = (table: string) => `${table}_default`;

const PARTITION_SUFFIX = /_p(\d{4})(\d{2})(\d{2})$/;

/** Quoted identifier; our names come from definitions, never from requests, but quote anyway. */
const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);
/** A bound of a partition: DDL takes no parameters, and the text is our own ISO timestamp. */
const bound = (d: Date) => sql.raw(`'${d.toISOString()}'`);

/** The partitions of a series table named as the upkeep names them, oldest first. */
export async function listPartitions(db: Db, table: string): Promise<{ name: string; start: Date }[]> {
  const rows = await db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    join pg_namespace n on n.oid = p.relnamespace
    where p.relname = ${table} and n.nspname = current_schema()`);
  return rows.rows
    .flatMap((r) => {
      const m = PARTITION_SUFFIX.exec(r.name);
      if (!m || r.name !== `${table}${m[0]}`) return [];
      return [{ name: r.name, start: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) }];
    })
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}

/**
 * Creates the partition starting at `start` unless it exists. Rows of its range already caught by
 * the default partition (written while it was missing) are moved into it in the same
 * transaction: PostgreSQL refuses a new partition whose range the default still holds rows of.
 */
export async function ensurePartition(db: Db, t: SeriesTable, start: Date): Promise<boolean> {
  const name = partitionName(t.table, start);
  const end = nextPeriod(start, t.series.partition);
  return db.transaction(async (tx) => {
    // One creator per table at a time (the job runs once, but a test or a second job may not).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`series:${t.table}`}))`);
    await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`));
    const exists = await tx.execute(sql`select 1 from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where c.relname = ${name} and n.nspname = current_schema()`);
    if (exists.rows.length) return false;
    const strays = await tx.execute(
      sql`select 1 from ${ident(defaultPartitionName(t.table))} where ${ident(t.column)} >= ${start} and ${ident(t.column)} < ${end} limit 1`,
    );
    if (!strays.rows.length) {
      await tx.execute(
        sql`create table ${ident(name)} partition of ${ident(t.table)} for values from (${bound(start)}) to (${bound(end)})`,
      );
      return true;
    }
    await tx.execute(sql`create table ${ident(name)} (like ${ident(t.table)} including defaults)`);
    await tx.execute(sql`with moved as (
        delete from ${ident(defaultPartitionName(t.table))}
        where ${ident(t.column)} >= ${start} and ${ident(t.column)} < ${end} returning *)
      insert into ${ident(name)} select * from moved`);
    await tx.execute(
      sql`alter table ${ident(t.table)} attach partition ${ident(name)} for values from (${bound(start)}) to (${bound(end)})`,
    );
    return true;
  });
}

export interface UpkeepResult {
  retentionDays: number;
  cutoff: Date;
  /** Partitions created, by name. */
  created: string[];
  /** Partitions dropped whole, by name. */
  dropped: string[];
  /** Partitions left to the next run: their table's lock was not free in time. */
  postponed: string[];
  /**
   * Rows removed: those of the dropped partitions (the statistics' count, no scan) and expired
   * rows of the default partition, the only rows ever deleted one by one.
   */
  removed: number;
}

/** Retention of a series: its parameter when set to a whole number of days, else its default. */
export async function retentionDaysOf(db: Db, series: SeriesDef): Promise<number> {
  return series.retention.param
    ? readIntParam(db, series.retention.param, series.retention.days)
    : series.retention.days;
}

/**
 * One upkeep run of one series table: partitions from the current period to {@link AHEAD_DAYS}
 * ahead; partitions for rows the default partition caught within retention; partitions wholly
 * older than the retention dropped (never `DELETE`); expired strays of the default deleted.
 */
export async function upkeepSeries(db: Db, t: SeriesTable, now: Date): Promise<UpkeepResult> {
  const { partition } = t.series;
  const retentionDays = await retentionDaysOf(db, t.series);
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const created: string[] = [];
  const dropped: string[] = [];
  const postponed: string[] = [];
  let removed = 0;
  const create = async (start: Date) => {
    const name = partitionName(t.table, start);
    try {
      if (await ensurePartition(db, t, start)) created.push(name);
    } catch (error) {
      if (!lockTimedOut(error)) throw error;
      postponed.push(name);
    }
  };

  const until = new Date(now.getTime() + AHEAD_DAYS[partition] * DAY_MS);
  for (let start = periodStart(now, partition); start <= until; start = nextPeriod(start, partition))
    await create(start);

  const strays = await db.execute<{ day: string }>(
    sql`select distinct to_char(date_trunc('day', ${ident(t.column)} at time zone 'UTC'), 'YYYY-MM-DD') as day
      from ${ident(defaultPartitionName(t.table))} where ${ident(t.column)} >= ${cutoff} and ${ident(t.column)} < ${until}`,
  );
  const periods = new Map<number, Date>();
  for (const r of strays.rows) {
    const start = periodStart(new Date(`${r.day}T00:00:00Z`), partition);
    periods.set(start.getTime(), start);
  }
  for (const start of periods.values()) await create(start);

  for (const p of await listPartitions(db, t.table)) {
    if (nextPeriod(p.start, partition) > cutoff) continue;
    try {
      removed += await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local lock_timeout = '${DDL_LOCK_TIMEOUT}'`));
        const [stats] = (
          await tx.execute<{ n: string }>(
            sql`select reltuples::bigint as n from pg_class where relname = ${p.name} and relnamespace = current_schema()::regnamespace`,
          )
        ).rows;
        let rows = Number(stats?.n ?? -1);
        // Never analysed (reltuples -1): small or just filled, so counting it is cheap enough.
        if (rows < 0)
          rows = Number(
            (await tx.execute<{ n: string }>(sql`select count(*) as n from ${ident(p.name)}`)).rows[0]?.n ?? 0,
          );
        await tx.execute(sql`drop table ${ident(p.name)}`);
        return rows;
      });
      dropped.push(p.name);
    } catch (error) {
      if (!lockTimedOut(error)) throw error;
      postponed.push(p.name);
    }
  }

  // tenancy: all tenants (retention expires every tenant's rows alike)
  const expired = await db.execute(
    sql`delete from ${ident(defaultPartitionName(t.table))} where ${ident(t.column)} < ${cutoff}`,
  );
  removed += expired.rowCount ?? 0;
  return { retentionDays, cutoff, created, dropped, postponed, removed };
}
