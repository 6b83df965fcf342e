import { parseDateTime } from '@mes/contracts';
import { badRequest } from '../../platform/http/errors';
import { IotMessages } from './iot-messages';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Without `startTime`, model-list reads this far back from its end (the series lists' default too). */
export const DEFAULT_MODEL_LIST_HOURS = 24;
/** The widest range one call may read: a year and a day, so "the last year" always fits. */
export const MAX_MODEL_LIST_DAYS = 366;
export const DEFAULT_MAX_POINTS = 1000;
export const MIN_MAX_POINTS = 10;
export const MAX_MAX_POINTS = 5000;

/**
 * Bucket widths (seconds) a downsampled series may use: round numbers a chart's axis reads well,
 * and which keep buckets aligned to the same instants from one call to the next.
 */
const NICE_SECONDS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800,
];

/** The range and resolution of one model-list call. */
export interface ModelListWindow {
  /** Epoch milliseconds, both ends included. */
  from: number;
  to: number;
  maxPoints: number;
}

/** An instant as the contract writes it (`yyyy-MM-dd HH:mm:ss`, local time) or epoch milliseconds. */
function instantOf(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw badRequest(IotMessages.badTime(name));
  const text = String(value).trim();
  const ms = /^\d{10,15}$/.test(text) ? Number(text) : parseDateTime(text)?.getTime();
  if (ms === undefined || !Number.isSafeInteger(ms)) throw badRequest(IotMessages.badTime(name));
  return ms;
}

function maxPointsOf(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_MAX_POINTS;
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < MIN_MAX_POINTS || n > MAX_MAX_POINTS)
    throw badRequest(IotMessages.badMaxPoints(MIN_MAX_POINTS, MAX_MAX_POINTS));
  return n;
}

/**
 * The window of a call: the end defaults to now, the start to 24 h before the end; a start
 * after the end, or a range wider than {@link MAX_MODEL_LIST_DAYS}, is a 400 — never a scan of
 * a device's whole history.
 */
export function modelListWindow(query: Record<string, unknown>, now: number): ModelListWindow {
  const to = instantOf(query.endTime, 'endTime') ?? now;
  const from = instantOf(query.startTime, 'startTime') ?? to - DEFAULT_MODEL_LIST_HOURS * HOUR_MS;
  if (from > to) throw badRequest(IotMessages.startAfterEnd);
  if (to - from > MAX_MODEL_LIST_DAYS * DAY_MS) throw badRequest(IotMessages.rangeTooWide(MAX_MODEL_LIST_DAYS));
  return { from, to, maxPoints: maxPointsOf(query.maxPoints) };
}

/**
 * The bucket width (seconds) that folds the window into at most `maxPoints` buckets. Buckets start
 * at multiples of the width since the epoch, so the window touches at most
 * `floor(span / width) + 1` of them: the width is at least `span / (maxPoints - 1)`.
 */
export function bucketSecondsFor(window: ModelListWindow): number {
  const needed = Math.max(1, Math.ceil((window.to - window.from) / 1000 / (window.maxPoints - 1)));
  const nice = NICE_SECONDS.find((s) => s >= needed);
  return nice ?? Math.ceil(needed / 86400) * 86400;
}

/** A half-open range of epoch milliseconds `[from, to)`. */
export type Span = readonly [number, number];

/** Where each part of a window is read from: whole periods of a level, or raw points at the edges. */
export interface WindowPlan {
  /** Per level used, coarsest first: the spans of whole periods read from it. */
  levels: { seconds: number; spans: Span[] }[];
  /** The part-minutes read from the raw points: before the whole periods, and after them up to the
   * window's end, which is included (the one closed end). */
  raw: readonly [Span, Span];
}

/**
 * Splits `[from, to]` for buckets of `bucketSeconds` over rollup levels of `levelSeconds`
 * (coarsest first, each a multiple of the next): the coarsest level whose width divides the
 * bucket takes the window's whole periods of that width, each finer level the whole periods of
 * its own width left at the two edges, and the raw points what is left at the very edges. Since
 * the bucket is a multiple of every width used, each bucket is a union of whole periods and raw
 * points, each point counted once. Undefined when no level fits (buckets under a minute, or a
 * window inside one minute).
 */
export function planWindow(
  from: number,
  to: number,
  bucketSeconds: number,
  levelSeconds: readonly number[],
): WindowPlan | undefined {
  const levels: WindowPlan['levels'] = [];
  let inner: Span | undefined;
  for (const seconds of levelSeconds) {
    if (bucketSeconds % seconds !== 0) continue;
    const width = seconds * 1000;
    const first = Math.ceil(from / width) * width;
    const end = Math.floor((to + 1) / width) * width;
    if (first >= end) continue;
    const spans: Span[] = inner
      ? [
          [first, inner[0]],
          [inner[1], end],
        ]
      : [[first, end]];
    levels.push({ seconds, spans: spans.filter(([a, b]) => a < b) });
    inner = [first, end];
  }
  if (!inner) return undefined;
  return {
    levels,
    raw: [
      [from, inner[0]],
      [inner[1], to],
    ],
  };
}
