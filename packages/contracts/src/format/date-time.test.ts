import { describe, expect, it } from 'vitest';
import { formatDateTime, parseDateTime } from './date-time';

describe('date-time', () => {
  it('formats as yyyy-MM-dd HH:mm:ss', () => {
    expect(formatDateTime(new Date(2026, 0, 5, 7, 8, 9))).toBe('2026-01-05 07:08:09');
  });

  it('parses date, minute and second precision and round-trips', () => {
    expect(parseDateTime('2026-11-22')?.getTime()).toBe(new Date(2026, 10, 22).getTime());
    expect(parseDateTime('2026-11-22 13:45')?.getTime()).toBe(new Date(2026, 10, 22, 13, 45).getTime());
    expect(formatDateTime(parseDateTime('2026-11-22 13:45:59') as Date)).toBe('2026-11-22 13:45:59');
  });

  it.each(['2026-02-30', '2026-13-01', '2026-11-22 25:00:00', 'yesterday', '', '2026/11/22'])('refuses %s', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });
});
