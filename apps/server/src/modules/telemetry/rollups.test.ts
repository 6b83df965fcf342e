import { describe, expect, it } from 'vitest';
import { MinuteBucket, MinuteRollups } from './rollups';

/** The exact sum of decimal texts, by BigInt millionths: what PostgreSQL's NUMERIC would answer. */
function exactTotal(values: readonly string[]): string {
  let sum = 0n;
  for (const v of values) {
    const [whole = '0', frac = ''] = v.replace('-', '').split('.');
    const micro = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0'));
    sum += v.startsWith('-') ? -micro : micro;
  }
  const abs = sum < 0n ? -sum : sum;
  return `${sum < 0n ? '-' : ''}${abs / 1_000_000n}.${String(abs % 1_000_000n).padStart(6, '0')}`;
}

const fold = (values: readonly string[]) => {
  const bucket = new MinuteBucket('1');
  for (const v of values) bucket.add(v);
  return { points: bucket.points, total: bucket.total, low: bucket.low, high: bucket.high };
};

describe('a minute of a batch folded in memory (MinuteBucket)', () => {
  it('sums decimal texts exactly, where doubles would not', () => {
    const values = ['0.1', '0.2', '0.000001', '-0.3'];
    expect(0.1 + 0.2 + 0.000001 - 0.3).not.toBe(0.000001);
    expect(fold(values)).toEqual({ points: 4, total: '0.000001', low: '-0.3', high: '0.2' });
  });

  it('stays exact beyond 2^53 in the sum and orders values a double cannot tell apart', () => {
    const big = '9007199254740991';
    const values = [big, `${big.slice(0, -1)}0.000002`, big, `${big.slice(0, -1)}0.000001`, '-9007199254740991.5'];
    // The two fractions read as the same double: only exact comparison finds the extremes.
    expect(Number(values[1])).toBe(Number(values[3]));
    expect(fold([values[1]!, values[3]!])).toMatchObject({ low: values[3], high: values[1] });
    expect(fold([values[3]!, values[1]!])).toMatchObject({ low: values[3], high: values[1] });
    const folded = fold(values);
    expect(folded.total).toBe(exactTotal(values));
    expect(folded.high).toBe(big);
    expect(folded.low).toBe('-9007199254740991.5');
    expect(fold(Array.from({ length: 2000 }, () => big)).total).toBe(`${9007199254740991n * 2000n}.000000`);
  });

  it('compares negatives and zero by their whole part, then their millionths', () => {
    const values = ['-0.5', '0', '-1', '-1.25', '0.75', '-0.000001'];
    expect(fold(values)).toEqual({ points: 6, total: exactTotal(values), low: '-1.25', high: '0.75' });
  });

  it('matches the exact sum on random values of up to 6 decimals', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values = Array.from({ length: 500 }, () => {
      const decimals = Math.floor(random() * 7);
      const text = ((random() - 0.5) * 10 ** Math.floor(random() * 16)).toFixed(decimals);
      return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
    }).map((t) => (t === '-0' || t === '' ? '0' : t));
    expect(fold(values).total).toBe(exactTotal(values));
  });
});

describe('a batch’s rollup groups (MinuteRollups)', () => {
  it('groups points by device, field and UTC minute, whatever order they come in', () => {
    const rollups = new MinuteRollups();
    const t = Date.UTC(2026, 10, 28, 12, 0, 30);
    rollups.add('t1', 'D1', 'ph', t, '7.1');
    rollups.add('t1', 'D2', 'ph', t, '5');
    rollups.add('t1', 'D1', 'ph', t + 40_000, '6.9');
    rollups.add('t1', 'D1', 'ph', t + 10_000, '7.3');
    rollups.add('t1', 'D1', 'temp', t, '80');
    const groups = [...rollups.groups()].map((g) => ({
      device: g.deviceCode,
      field: g.field,
      minute: g.minute,
      points: g.bucket.points,
      total: g.bucket.total,
    }));
    const minute = Date.UTC(2026, 10, 28, 12);
    expect(groups).toEqual(
      expect.arrayContaining([
        { device: 'D1', field: 'ph', minute, points: 2, total: '14.400000' },
        { device: 'D1', field: 'ph', minute: minute + 60_000, points: 1, total: '6.900000' },
        { device: 'D1', field: 'temp', minute, points: 1, total: '80.000000' },
        { device: 'D2', field: 'ph', minute, points: 1, total: '5.000000' },
      ]),
    );
    expect(groups).toHaveLength(4);
    expect(new Set([...rollups.groups()].map((g) => g.bucket.id)).size).toBe(4);
  });
});
