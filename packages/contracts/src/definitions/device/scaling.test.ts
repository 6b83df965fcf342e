import { describe, expect, it } from 'vitest';
import { deriveScaling, rangeState, type ScalingColumns } from './scaling';

const cols = (over: Partial<ScalingColumns>): ScalingColumns => ({
  multiplier: '1.000000',
  offset: '0.000000',
  rawLow: null,
  rawHigh: null,
  engLow: null,
  engHigh: null,
  ...over,
});

describe('PLC variable scaling', () => {
  it('uses the multiplier and offset when no range is given', () => {
    expect(deriveScaling(cols({ multiplier: '0.1', offset: '-5' }))).toEqual({ multiplier: 0.1, offset: -5 });
    expect(deriveScaling(cols({ multiplier: null, offset: null }))).toEqual({ multiplier: 1, offset: 0 });
  });

  it('derives multiplier and offset from a raw → engineering range', () => {
    // A 4–20 mA input (raw 4000–20000) of a 0–10 mg/L chlorine probe.
    const s = deriveScaling(cols({ rawLow: '4000', rawHigh: '20000', engLow: '0', engHigh: '10' }));
    expect(s.multiplier).toBeCloseTo(10 / 16000, 12);
    expect(s.offset).toBeCloseTo(-2.5, 12);
    expect(4000 * s.multiplier + s.offset).toBeCloseTo(0, 12);
    expect(12000 * s.multiplier + s.offset).toBeCloseTo(5, 12);
    expect(20000 * s.multiplier + s.offset).toBeCloseTo(10, 12);
  });

  it('lets a complete range win over the multiplier, and handles an inverted range', () => {
    const s = deriveScaling(cols({ multiplier: '3', offset: '7', rawLow: 0, rawHigh: 100, engLow: 50, engHigh: -50 }));
    expect(s).toEqual({ multiplier: -1, offset: 50 });
  });

  it('ignores a partial or degenerate range', () => {
    expect(deriveScaling(cols({ multiplier: '2', rawLow: '0', rawHigh: '10' }))).toEqual({ multiplier: 2, offset: 0 });
    expect(deriveScaling(cols({ rawLow: '5', rawHigh: '5', engLow: '0', engHigh: '1' }))).toEqual({
      multiplier: 1,
      offset: 0,
    });
    expect(rangeState(cols({ rawLow: '0', engHigh: '1' }))).toBe('partial');
    expect(rangeState(cols({}))).toBe('none');
    expect(rangeState(cols({ rawLow: 0, rawHigh: 1, engLow: 0, engHigh: 1 }))).toBe('complete');
  });
});
