import { describe, expect, it } from 'vitest';
import {
  a0,
  cleanCurve,
  f0,
  judgeCycle,
  longestRun,
  ParametricResult,
  reasonText,
  type CurvePoint,
  type ValidatedProfile,
} from './lethality';

/** Points every `step` seconds from t = 0 with the given values (the worked examples of docs/lethality.md). */
const every = (step: number, values: number[], from = 0): CurvePoint[] =>
  values.map((v, i) => ({ t: (from + i * step) * 1000, v }));

const noProfile: ValidatedProfile = {
  lethalityKind: 'none',
  plateauMin: null,
  plateauMax: null,
  minHoldSeconds: null,
  pressureMin: null,
  pressureMax: null,
  minConcentration: null,
  minLethality: null,
};

describe('A0 (docs/lethality.md, examples 1–3)', () => {
  it('example 1: 90 ℃ for 60 s is A0 600', () => {
    expect(a0(every(10, [90, 90, 90, 90, 90, 90, 90]))).toBeCloseTo(600, 9);
  });

  it('example 2: 80, 90, 90 ℃ every 10 s is A0 155 (trapezoid on the rates; left rectangle 110, right 200)', () => {
    expect(a0(every(10, [80, 90, 90]))).toBeCloseTo(155, 9);
  });

  it('example 3: unsorted, a duplicate and a gap: the gap is not credited, the duplicate keeps its lower value', () => {
    const points = [
      { t: 30_000, v: 80 },
      { t: 0, v: 80 },
      { t: 10_000, v: 91 },
      { t: 20_000, v: 90 },
      { t: 10_000, v: 90 },
      // 70 s after the last: a gap (> 60 s), then one interval of 10 s at 90 ℃.
      { t: 100_000, v: 90 },
      { t: 110_000, v: 90 },
    ];
    expect(cleanCurve(points).map((p) => p.v)).toEqual([80, 90, 90, 80, 90, 90]);
    expect(a0(points)).toBeCloseTo(310, 9);
  });
});

describe('F0 (docs/lethality.md, examples 4–5)', () => {
  it('example 4: 121.1 ℃ for 15 min is F0 15', () => {
    expect(
      f0(
        every(
          30,
          Array.from({ length: 31 }, () => 121.1),
        ),
      ),
    ).toBeCloseTo(15, 9);
  });

  it('example 5: 121.1, 131.1, 121.1 ℃ every 30 s is F0 5.5 min', () => {
    expect(f0(every(30, [121.1, 131.1, 121.1]))).toBeCloseTo(5.5, 9);
  });

  it('A0 and F0 of one curve differ by the references: 10^4.11 and 60', () => {
    const curve = every(10, [121.1, 121.1]);
    expect(a0(curve) / f0(curve)).toBeCloseTo(60 * 10 ** 4.11, 6);
  });
});

describe('hold and judgement (docs/lethality.md, example 6)', () => {
  const temperature = every(10, [120, 134.2, 134.5, 135, 133.9, 134.1, 134.3, 120]);
  const profile: ValidatedProfile = {
    ...noProfile,
    lethalityKind: 'F0',
    plateauMin: 134,
    plateauMax: 137,
    minHoldSeconds: 15,
  };

  it('the longest contiguous run inside the band is 20 s (10 s to 30 s)', () => {
    expect(longestRun(temperature, (v) => v >= 134 && v <= 137)).toEqual({ seconds: 20, start: 10_000, end: 30_000 });
  });

  it('a gap breaks the run', () => {
    const gapped = [...every(10, [134, 134, 134]), ...every(10, [134, 134], 100)];
    expect(longestRun(gapped, (v) => v >= 134)?.seconds).toBe(20);
  });

  it('passes with a minimum hold of 15 s', () => {
    const judged = judgeCycle({ temperature, pressure: [], concentration: [] }, profile);
    expect(judged.result).toBe(ParametricResult.pass);
    expect(judged.holdSeconds).toBe(20);
    expect(judged.reasons).toEqual([]);
  });

  it('fails with a minimum hold of 30 s and names the hold', () => {
    const judged = judgeCycle({ temperature, pressure: [], concentration: [] }, { ...profile, minHoldSeconds: 30 });
    expect(judged.result).toBe(ParametricResult.fail);
    expect(judged.reasons.map((r) => r.limit)).toEqual(['hold']);
    expect(judged.reasons[0]?.en).toBe(
      'held 20 s within the plateau band 134–137 °C, below the minimum hold time of 30 s',
    );
    expect(judged.reasons[0]?.zh).toContain('最短维持时间 30 秒');
  });

  it('fails on lethality, on pressure outside the band during the hold, and says each', () => {
    const pressure = every(10, [0, 205, 212, 215, 200, 210, 210, 0]);
    const judged = judgeCycle(
      { temperature, pressure, concentration: [] },
      { ...profile, minLethality: 100, pressureMin: 206, pressureMax: 214 },
    );
    expect(judged.reasons.map((r) => r.limit)).toEqual(['lethality', 'pressureLow', 'pressureHigh']);
    // Only the hold's points (10–30 s) count: 205 and 215, not the 0 before and after.
    expect(judged.reasons[1]?.en).toContain('205.0 kPa');
    expect(judged.reasons[2]?.en).toContain('215.0 kPa');
    expect(reasonText(judged.reasons)).toMatch(/^F0 .* \/ F0 .*is below the minimum F0 of 100 min; pressure fell/);
  });

  it('measures a chemical hold on the concentration when there is no plateau', () => {
    const concentration = every(10, [0.3, 50, 52, 49, 51, 0.3]);
    const judged = judgeCycle(
      { temperature: [], pressure: [], concentration },
      { ...noProfile, minConcentration: 45, minHoldSeconds: 40 },
    );
    expect(judged.holdSeconds).toBe(30);
    expect(judged.reasons.map((r) => r.limit)).toEqual(['hold']);
  });

  it('no points and a plateau fails on missing data; an empty profile judges nothing', () => {
    expect(
      judgeCycle({ temperature: [], pressure: [], concentration: [] }, profile).reasons.map((r) => r.limit),
    ).toEqual(['noData', 'hold']);
    expect(judgeCycle({ temperature, pressure: [], concentration: [] }, noProfile).result).toBe(ParametricResult.none);
  });
});
