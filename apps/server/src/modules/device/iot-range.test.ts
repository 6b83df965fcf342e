import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@mes/contracts';
import { HttpError } from '../../platform/http/errors';
import { bucketSecondsFor, MAX_MAX_POINTS, MIN_MAX_POINTS, modelListWindow, type ModelListWindow } from './iot-range';

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
