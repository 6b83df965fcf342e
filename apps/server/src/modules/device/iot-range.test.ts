import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@mes/contracts';
import { HttpError } from '../../platform/http/errors';
import {
  bucketSecondsFor,
  MAX_MAX_POINTS,
  MIN_MAX_POINTS,
  modelListWindow,
  planWindow,
  type ModelListWindow,
  type Span,
} from './iot-range';

const NOW = Date.UTC(2026, 10, 24, 9, 30, 15, 250);
const DAY = 86_400_000;

/** Buckets of `width` seconds, aligned on the epoch, that a window touches (both ends included). */
const bucketsTouched = (w: ModelListWindow, width: number) =>
  Math.floor(w.to / (width * 1000)) - Math.floor(w.from / (width * 1000)) + 1;

const refusal = (query: Record<string, unknown>) => {
  try {
    modelListWindow(query, NOW);
  } catch (error) {
    if (error instanceof HttpError) return error.code;
  }
  return undefined;
};

describe('model-list window', () => {
  it('defaults to the 24 hours before now, or before the given end', () => {
    expect(modelListWindow({}, NOW)).toEqual({ from: NOW - DAY, to: NOW, maxPoints: 1000 });
    expect(modelListWindow({ endTime: String(NOW - DAY) }, NOW)).toMatchObject({ from: NOW - 2 * DAY, to: NOW - DAY });
  });

  it('reads the contract’s time format in local time, and epoch milliseconds', () => {
    const start = new Date(2026, 10, 23, 8, 0, 0);
    expect(modelListWindow({ startTime: formatDateTime(start), maxPoints: '50' }, NOW)).toEqual({
      from: start.getTime(),
      to: NOW,
      maxPoints: 50,
    });
  });

  it('refuses a bad time, a start after the end, more than 366 days and a bad maxPoints with a 400', () => {
    expect(refusal({ startTime: 'now' })).toBe(400);
    expect(refusal({ startTime: ['1', '2'] })).toBe(400);
    expect(refusal({ startTime: String(NOW + 1) })).toBe(400);
    expect(refusal({ startTime: String(NOW - 367 * DAY) })).toBe(400);
    expect(refusal({ startTime: String(NOW - 366 * DAY) })).toBeUndefined();
    for (const maxPoints of ['9', '5001', '1.5', '-10', 'x']) expect(refusal({ maxPoints })).toBe(400);
  });
});

describe('bucket width', () => {
  it('is a round width that folds any window into at most maxPoints buckets', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 5000; i++) {
      const span = Math.floor(random() * 366 * DAY);
      const from = NOW - span - Math.floor(random() * DAY);
      const maxPoints = MIN_MAX_POINTS + Math.floor(random() * (MAX_MAX_POINTS - MIN_MAX_POINTS + 1));
      const window = { from, to: from + span, maxPoints };
      const width = bucketSecondsFor(window);
      expect(bucketsTouched(window, width), JSON.stringify({ window, width })).toBeLessThanOrEqual(maxPoints);
    }
  });

  it('picks the smallest round width that fits', () => {
    expect(bucketSecondsFor({ from: 0, to: 3599_000, maxPoints: 60 })).toBe(120);
    expect(bucketSecondsFor({ from: 0, to: 3599_000, maxPoints: 1000 })).toBe(5);
    expect(bucketSecondsFor({ from: 0, to: 999_999_000, maxPoints: 1000 })).toBe(1800);
    expect(bucketSecondsFor({ from: 0, to: 366 * DAY, maxPoints: 10 })).toBe(41 * 86400);
  });
});

describe('planWindow', () => {
  const LEVELS = [900, 60];
  const MIN = 60_000;
  const QUARTER = 15 * MIN;
  /** 2026-11-01 00:00 UTC: a whole quarter hour. */
  const T = Date.UTC(2026, 10, 1);

  /** Every millisecond of `[from, to]` is in exactly one span: raw, minute or quarter. */
  const coversOnce = (from: number, to: number, spans: Span[]) => {
    const sorted = [...spans].filter(([a, b]) => a < b).sort((x, y) => x[0] - y[0]);
    let at = from;
    for (const [a, b] of sorted) {
      expect(a).toBe(at);
      at = b;
    }
    expect(at).toBe(to + 1);
  };

  it('reads whole quarters, then whole minutes at the edges, then raw part-minutes', () => {
    const from = T + 7 * MIN + 30_500;
    const to = T + 170 * MIN + 10_000;
    const plan = planWindow(from, to, 1800, LEVELS);
    expect(plan).toEqual({
      levels: [
        { seconds: 900, spans: [[T + QUARTER, T + 11 * QUARTER]] },
        {
          seconds: 60,
          spans: [
            [T + 8 * MIN, T + QUARTER],
            [T + 11 * QUARTER, T + 170 * MIN],
          ],
        },
      ],
      raw: [
        [from, T + 8 * MIN],
        [T + 170 * MIN, to],
      ],
    });
    if (!plan) return;
    // The closed end: the tail span is [a, to], one millisecond wider than half-open.
    const [head, tail] = plan.raw;
    coversOnce(from, to, [...plan.levels.flatMap((l) => l.spans), head, [tail[0], tail[1] + 1]]);
  });

  it('uses only the levels whose width divides the bucket', () => {
    const plan = planWindow(T + 30_000, T + 170 * MIN, 600, LEVELS);
    expect(plan?.levels).toEqual([{ seconds: 60, spans: [[T + MIN, T + 170 * MIN]] }]);
    expect(plan?.raw).toEqual([
      [T + 30_000, T + MIN],
      [T + 170 * MIN, T + 170 * MIN],
    ]);
    expect(planWindow(T, T + 3 * QUARTER, 30, LEVELS)).toBeUndefined();
  });

  it('leaves nothing to a finer level or the raw points when the window is whole quarters', () => {
    const plan = planWindow(T + QUARTER, T + 11 * QUARTER - 1, 1800, LEVELS);
    expect(plan).toEqual({
      levels: [
        { seconds: 900, spans: [[T + QUARTER, T + 11 * QUARTER]] },
        { seconds: 60, spans: [] },
      ],
      raw: [
        [T + QUARTER, T + QUARTER],
        [T + 11 * QUARTER, T + 11 * QUARTER - 1],
      ],
    });
    // Ending on a boundary: the point at the end itself is read raw.
    expect(planWindow(T + QUARTER, T + 11 * QUARTER, 1800, LEVELS)?.raw[1]).toEqual([
      T + 11 * QUARTER,
      T + 11 * QUARTER,
    ]);
  });

  it('falls back to a finer level when the window holds no whole period of the coarser one', () => {
    const plan = planWindow(T + MIN + 1, T + QUARTER + 5 * MIN, 900, LEVELS);
    expect(plan?.levels).toEqual([{ seconds: 60, spans: [[T + 2 * MIN, T + QUARTER + 5 * MIN]] }]);
    expect(planWindow(T + 1, T + MIN - 1, 60, LEVELS)).toBeUndefined();
  });
});
