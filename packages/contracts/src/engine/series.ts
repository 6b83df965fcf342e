/**
 * Append-only series resources (telemetry, acquisition data, MQTT messages, warnings, on/off
 * records, the logs): rows are only ever added, read newest first within a bounded time range,
 * and expire together by age. The server keeps such a table partitioned by time (docs/series.md).
 */

/** The span of one partition. Partitions start at UTC midnight (weeks on Monday, months on the 1st). */
export type SeriesPartition = 'day' | 'week' | 'month';

export interface SeriesDef {
  /** The `datetime` field rows are partitioned, ranged and ordered by (`createTime`). */
  time: string;
  /** One partition per day for busy series, per week or month for quiet ones. */
  partition: SeriesPartition;
  /**
   * How long rows are kept, in days: a platform parameter (`log.retentionDays`) read at every
   * upkeep run, with the days used while it is absent or invalid. Whole partitions whose every
   * row is older are dropped, so a row may outlive its retention by up to one partition span.
   */
  retention: { param?: string; days: number };
  /**
   * A list whose range holds more rows than this (by the planner's estimate) answers an
   * estimated `total` instead of counting them; default {@link DEFAULT_SERIES_ESTIMATE_ABOVE}.
   */
  estimateAbove?: number;
  /**
   * The rows are a view over another series resource's table (its `code`): listed like a series,
   * but the partitions and their retention are that resource's, never this one's.
   */
  viewOf?: string;
}

export const DEFAULT_SERIES_ESTIMATE_ABOVE = 100_000;

/** A list naming no time range shows the last day. */
export const DEFAULT_SERIES_RANGE_HOURS = 24;
