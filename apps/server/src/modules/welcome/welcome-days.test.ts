import { describe, expect, it } from 'vitest';
import { addDays, chartWindow, dayStart, zoneDay } from './welcome-days';

describe('welcome days (Asia/Shanghai)', () => {
  it('takes today in the product’s zone, not UTC', () => {
    // 2026-11-24 17:30 UTC is 01:30 on the 25th in Shanghai.
    expect(zoneDay(Date.UTC(2026, 10, 24, 17, 30))).toBe('2026-11-25');
    expect(zoneDay(Date.UTC(2026, 10, 24, 15, 59))).toBe('2026-11-24');
  });

  it('counts 30 days back over month and year ends', () => {
    const { today, first, days } = chartWindow(Date.UTC(2026, 0, 10, 4));
    expect(today).toBe('2026-01-10');
    expect(first).toBe('2025-12-12');
    expect(days).toHaveLength(30);
    expect(days[0]).toBe(first);
    expect(days.at(-1)).toBe(today);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });

  it('starts a day at midnight in Shanghai', () => {
    expect(dayStart('2026-11-24').toISOString()).toBe('2026-11-23T16:00:00.000Z');
  });
});
