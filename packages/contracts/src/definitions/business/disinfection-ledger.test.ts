import { describe, expect, it } from 'vitest';
import { isLedgerRangeError, ledgerRange } from './disinfection-ledger';

const TODAY = '2026-02-14';

describe('ledgerRange', () => {
  it('defaults to the days of the current month, and a date alone to its month', () => {
    expect(ledgerRange({}, TODAY)).toEqual({ period: 'day', startDate: '2026-02-01', endDate: '2026-02-28' });
    expect(ledgerRange({ startDate: '2024-02-10' }, TODAY)).toMatchObject({
      startDate: '2024-02-10',
      endDate: '2024-02-29',
    });
    expect(ledgerRange({ endDate: '2025-12-05' }, TODAY)).toMatchObject({
      startDate: '2025-12-01',
      endDate: '2025-12-05',
    });
  });

  it('reads months, and takes a monthly range back to the first of its month', () => {
    expect(ledgerRange({ period: 'month', startDate: '2025-03', endDate: '2025-05' }, TODAY)).toEqual({
      period: 'month',
      startDate: '2025-03-01',
      endDate: '2025-05-31',
    });
    expect(ledgerRange({ period: 'month', startDate: '2025-03-17', endDate: '2025-03-20' }, TODAY)).toMatchObject({
      startDate: '2025-03-01',
    });
  });

  it('takes 366 days and 120 months, and no more', () => {
    expect(ledgerRange({ startDate: '2024-01-01', endDate: '2024-12-31' }, TODAY)).toMatchObject({ period: 'day' });
    const days = ledgerRange({ startDate: '2025-01-01', endDate: '2026-01-02' }, TODAY);
    expect(isLedgerRangeError(days) && days.param).toBe('endDate');
    expect(ledgerRange({ period: 'month', startDate: '2016-01', endDate: '2025-12' }, TODAY)).toMatchObject({
      period: 'month',
    });
    const months = ledgerRange({ period: 'month', startDate: '2015-12', endDate: '2025-12' }, TODAY);
    expect(isLedgerRangeError(months) && months.why.en).toContain('120 months');
  });

  it('names the parameter it refuses, in both languages', () => {
    for (const [query, param] of [
      [{ period: 'week' }, 'period'],
      [{ period: ['day', 'month'] }, 'period'],
      [{ startDate: '2026-02-30' }, 'startDate'],
      [{ endDate: '2026/02/01' }, 'endDate'],
      [{ startDate: '2026-02-10', endDate: '2026-02-01' }, 'endDate'],
    ] as const) {
      const refused = ledgerRange(query, TODAY);
      expect(isLedgerRangeError(refused) && refused.param, JSON.stringify(query)).toBe(param);
      expect(isLedgerRangeError(refused) && refused.why.zh && refused.why.en).toBeTruthy();
    }
  });
});
