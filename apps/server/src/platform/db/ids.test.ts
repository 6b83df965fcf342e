import { describe, expect, it, vi } from 'vitest';
import { isId, nextId } from './ids';

describe('nextId', () => {
  it('gives unique, increasing decimal strings that fit a signed bigint', () => {
    const ids = Array.from({ length: 20_000 }, () => nextId());
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i] as string) > BigInt(ids[i - 1] as string)).toBe(true);
    expect(BigInt(ids.at(-1) as string) < 2n ** 63n).toBe(true);
    expect(ids[0]).toMatch(/^\d{16,19}$/);
  });

  it('never issues an id in the millisecond of the ids the first releases seeded', () => {
    // 1000000000000000001 … read as 2027-07-22 11:22:59.101 UTC.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2027-07-22T11:22:59.101Z'));
      const seeded = new Set(['1000000000000000001', '1000000000000200100']);
      const id = BigInt(nextId());
      expect(id >> 22n).not.toBe(1_000_000_000_000_000_000n >> 22n);
      expect(seeded.has(id.toString())).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('isId', () => {
  it('takes decimal ids up to the signed 64-bit maximum', () => {
    for (const id of ['0', '1', '1123598821738675201', '9223372036854775807', '0000000000000000001'])
      expect(isId(id), id).toBe(true);
  });

  it('refuses ids above 2^63-1, longer than 19 digits, signed, fractional or not digits', () => {
    for (const id of [
      '9223372036854775808',
      '9999999999999999999',
      '99999999999999999999',
      '-1',
      '+1',
      '1.0',
      '1e3',
      '',
      ' 1',
      'a',
    ])
      expect(isId(id), id).toBe(false);
  });
});
