import { describe, expect, it } from 'vitest';
import { nextId } from './ids';

describe('nextId', () => {
  it('gives unique, increasing decimal strings that fit a signed bigint', () => {
    const ids = Array.from({ length: 20_000 }, () => nextId());
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i] as string) > BigInt(ids[i - 1] as string)).toBe(true);
    expect(BigInt(ids.at(-1) as string) < 2n ** 63n).toBe(true);
    expect(ids[0]).toMatch(/^\d{16,19}$/);
  });
});
