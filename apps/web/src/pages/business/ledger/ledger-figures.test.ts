import { describe, expect, it } from 'vitest';
import type { LedgerRow } from '@mes/contracts';
import { lastVerificationText, ledgerTotals, periodText } from './ledger-figures';

const row = (over: Partial<LedgerRow>): LedgerRow => ({
  id: 'x',
  period: 'day',
  periodStart: '2026-03-01',
  deptId: '1',
  deptIdName: 'A',
  deviceId: '2',
  deviceIdName: 'D',
  deviceCode: 'D',
  recordType: 3,
  chairs: 2,
  cycles: 0,
  passes: 0,
  fails: 0,
  aborts: 0,
  packs: 0,
  totalMinutes: null,
  avgConcentration: null,
  minConcentration: null,
  waterVolume: null,
  disinfectantMg: null,
  warnings: 0,
  minA0: null,
  avgA0: null,
  minF0: null,
  avgF0: null,
  parametricFails: 0,
  concentrationCount: 0,
  lastVerificationType: null,
  lastVerificationResult: null,
  lastVerificationTime: null,
  ...over,
});

describe('the register totals', () => {
  it('sums the figures as printed and weighs each average by its readings', () => {
    const totals = ledgerTotals([
      row({
        cycles: 50,
        passes: 49,
        fails: 1,
        totalMinutes: '0.1',
        avgConcentration: '2.00',
        minConcentration: '1.50',
        concentrationCount: 50,
        waterVolume: '0.10',
        warnings: 2,
      }),
      row({
        cycles: 1,
        aborts: 1,
        totalMinutes: '0.2',
        avgConcentration: '8.00',
        minConcentration: '8.00',
        concentrationCount: 1,
        waterVolume: '0.20',
        disinfectantMg: '1.60',
      }),
      row({ cycles: 3, passes: 3, totalMinutes: '30.0' }),
    ]);
    expect(totals).toEqual({
      cycles: 54,
      passes: 52,
      fails: 1,
      aborts: 1,
      totalMinutes: '30.3',
      avgConcentration: '2.12',
      minConcentration: '1.50',
      waterVolume: '0.30',
      disinfectantMg: '1.60',
      warnings: 2,
    });
  });

  it('leaves the concentration blank where no cycle reported one', () => {
    expect(ledgerTotals([row({ cycles: 1 })])).toMatchObject({ avgConcentration: '', minConcentration: '' });
    expect(ledgerTotals([])).toMatchObject({ cycles: 0, totalMinutes: '0.0' });
  });

  it('names a monthly row by its month', () => {
    expect(periodText('2026-03-01', 'month')).toBe('2026-03');
    expect(periodText('2026-03-07', 'day')).toBe('2026-03-07');
  });
});

describe('the register’s last verification', () => {
  it('names the type and result in the interface language, with the day', () => {
    const failed = row({
      lastVerificationType: 4,
      lastVerificationResult: 2,
      lastVerificationTime: '2026-11-02 09:00:00',
    });
    expect(lastVerificationText(failed, 'zh')).toBe('生物指示物 不合格 11-02');
    expect(lastVerificationText(failed, 'en')).toMatch(/^Biological indicator Fail 11-02$/);
    expect(lastVerificationText(row({}), 'zh')).toBe('');
  });
});
