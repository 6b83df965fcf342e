import type pg from 'pg';
import { nextId } from '../../platform/db/ids';
import type { TelemetryRow } from './telemetry-row';

const MINUTE_MS = 60_000;

/**
 * One device-field-minute of a batch: its count, exact sum and extremes. A value is the decimal
 * text ingestion checked (`BatchRows`: at most 6 decimals, within ±(2^53 − 1)), read as its whole
 * part and its millionths, two safe integers of the same sign, so the sum and the comparisons are
 * exact without a number type of arbitrary precision per point: the wholes are added as doubles
 * while they stay safe integers and carried into a BigInt before they would not.
 */
export class MinuteBucket {
  points = 0;
  private wholes = 0;
  private carried = 0n;
  /** |millionths| < 10^6 a point: safe for 9·10^9 points, far beyond any batch. */
  private millionths = 0;
  low = '';
  high = '';
  private lowWhole = 0;
  private lowMillionths = 0;
  private highWhole = 0;
  private highMillionths = 0;

  constructor(readonly id: string) {}

  add(num: string): void {
    // The digits read one by one (no substrings per point): the whole part is below 2^53, so
    // every step is exact; at most 6 decimals, scaled to millionths.
    const negative = num.charCodeAt(0) === 45; /* - */
    let i = negative ? 1 : 0;
    let whole = 0;
    let millionths = 0;
    for (; i < num.length; i++) {
      const c = num.charCodeAt(i);
      if (c === 46 /* . */) break;
      whole = whole * 10 + (c - 48);
    }
    let step = 100_000;
    for (i++; i < num.length; i++, step /= 10) millionths += (num.charCodeAt(i) - 48) * step;
    if (negative) {
      whole = -whole;
      millionths = -millionths;
    }
    if (Math.abs(this.wholes) + Math.abs(whole) > Number.MAX_SAFE_INTEGER) {
      this.carried += BigInt(this.wholes);
      this.wholes = 0;
    }
    this.wholes += whole;
    this.millionths += millionths;
    // trunc() is monotonic and the millionths share the whole part's sign: (whole, millionths)
    // in that order compare as the values do.
    if (this.points === 0 || whole < this.lowWhole || (whole === this.lowWhole && millionths < this.lowMillionths)) {
      this.low = num;
      this.lowWhole = whole;
      this.lowMillionths = millionths;
    }
    if (this.points === 0 || whole > this.highWhole || (whole === this.highWhole && millionths > this.highMillionths)) {
      this.high = num;
      this.highWhole = whole;
      this.highMillionths = millionths;
    }
    this.points++;
  }

  /** The exact sum as decimal text with 6 decimals (`numeric(30, 6)` takes it as is). */
  get total(): string {
    const micro = (this.carried + BigInt(this.wholes)) * 1_000_000n + BigInt(this.millionths);
    const sign = micro < 0n ? '-' : '';
    const abs = micro < 0n ? -micro : micro;
    return `${sign}${abs / 1_000_000n}.${String(abs % 1_000_000n).padStart(6, '0')}`;
  }
}

/** A group of the batch's rollups: a device's field in one UTC minute. */
export interface MinuteGroup {
  tenantId: string;
  deviceCode: string;
  field: string;
  minute: number;
  bucket: MinuteBucket;
}

/**
 * The batch's numeric points folded per device, field and UTC minute as they are read, so that
 * the rollups' statement gets a row per group (a few dozen a batch) instead of one per point.
 * The points of one message share their device and minute: the last group's map is kept, and a
 * point costs a field look-up and the additions.
 */
export class MinuteRollups {
  private readonly byDeviceMinute = new Map<string, Map<string, MinuteGroup>>();
  private lastTenant = '';
  private lastDevice = '';
  private lastMinute = NaN;
  private lastFields: Map<string, MinuteGroup> | undefined;
  /** Numeric points added. */
  points = 0;

  add(tenantId: string, deviceCode: string, field: string, tsMs: number, num: string): void {
    const minute = Math.floor(tsMs / MINUTE_MS) * MINUTE_MS;
    let fields = this.lastFields;
    if (!fields || minute !== this.lastMinute || deviceCode !== this.lastDevice || tenantId !== this.lastTenant) {
      const key = `${tenantId}\u0000${deviceCode}\u0000${minute}`;
      fields = this.byDeviceMinute.get(key);
      if (!fields) this.byDeviceMinute.set(key, (fields = new Map()));
      this.lastFields = fields;
      this.lastTenant = tenantId;
      this.lastDevice = deviceCode;
      this.lastMinute = minute;
    }
    let group = fields.get(field);
    if (!group)
      fields.set(field, (group = { tenantId, deviceCode, field, minute, bucket: new MinuteBucket(nextId()) }));
    group.bucket.add(num);
    this.points++;
  }

  *groups(): IterableIterator<MinuteGroup> {
    for (const fields of this.byDeviceMinute.values()) yield* fields.values();
  }
}

/**
 * The rollups of a batch in one statement: its groups (device, field, UTC minute: `g`, folded
 * by {@link MinuteRollups}) upserted into `mes_telemetry_minute` (`m`), then the same groups
 * folded into quarter hours and upserted into `mes_telemetry_quarter`. One statement rather than
 * one a level: the groups cross to PostgreSQL once. The quarter rows are selected only after
 * counting every row `m` returns, so every minute row is locked before any quarter row
 * (data-modifying CTEs otherwise run in no set order) and each table in key order: two processes
 * never wait on each other's rows in opposite orders. A quarter row that is new takes the
 * smallest id of its minutes' new ids, which no other quarter row has.
 */
const UPSERT_ROLLUPS = `
with g as (
  select *
    from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[],
                $6::int[], $7::numeric[], $8::numeric[], $9::numeric[])
         as g(id, tenant_id, device_code, field, minute, points, total, low, high)
),
m as (
  insert into mes_telemetry_minute (id, tenant_id, device_code, field, minute, points, total, low, high)
  select id, tenant_id, device_code, field, minute, points, total, low, high
    from g order by tenant_id, device_code, field, minute
  on conflict (tenant_id, device_code, field, minute) do update
    set points = mes_telemetry_minute.points + excluded.points,
        total = mes_telemetry_minute.total + excluded.total,
        low = least(mes_telemetry_minute.low, excluded.low),
        high = greatest(mes_telemetry_minute.high, excluded.high)
  returning 1
)
insert into mes_telemetry_quarter (id, tenant_id, device_code, field, quarter, points, total, low, high)
select min(id), tenant_id, device_code, field, date_bin('15 minutes', minute, timestamptz '1970-01-01 00:00:00+00') as quarter,
       sum(points), sum(total), min(low), max(high)
  from g
 where (select count(*) from m) > 0
 group by tenant_id, device_code, field, quarter
 order by tenant_id, device_code, field, quarter
on conflict (tenant_id, device_code, field, quarter) do update
  set points = mes_telemetry_quarter.points + excluded.points,
      total = mes_telemetry_quarter.total + excluded.total,
      low = least(mes_telemetry_quarter.low, excluded.low),
      high = greatest(mes_telemetry_quarter.high, excluded.high)`;

/**
 * Adds a batch's groups to the per-minute and per-quarter-hour rollups, inside the batch's
 * transaction, so both hold exactly the committed points (late ones included). The groups' sums
 * are exact decimal text ({@link MinuteBucket}); PostgreSQL adds them to the stored ones in NUMERIC.
 */
export async function writeRollups(client: pg.PoolClient, rollups: MinuteRollups): Promise<void> {
  const groups = [...rollups.groups()];
  if (!groups.length) return;
  await client.query(UPSERT_ROLLUPS, [
    groups.map((g) => g.bucket.id),
    groups.map((g) => g.tenantId),
    groups.map((g) => g.deviceCode),
    groups.map((g) => g.field),
    groups.map((g) => new Date(g.minute)),
    groups.map((g) => g.bucket.points),
    groups.map((g) => g.bucket.total),
    groups.map((g) => g.bucket.low),
    groups.map((g) => g.bucket.high),
  ]);
}

/** Points folded into groups ({@link MinuteRollups}) and written: the rollups of points read elsewhere. */
export async function addToRollups(client: pg.PoolClient, points: readonly TelemetryRow[]): Promise<void> {
  const rollups = new MinuteRollups();
  for (const p of points) if (p.num !== null) rollups.add(p.tenantId, p.deviceCode, p.field, p.ts.getTime(), p.num);
  await writeRollups(client, rollups);
}
