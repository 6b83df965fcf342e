import { describe, expect, it } from 'vitest';
import type { CycleReport } from './model';
import { seededRng } from './rng';
import {
  WATERLINE_FAULTS,
  WaterlinePhase,
  initialWaterline,
  stepWaterline,
  waterlineValues,
  type WaterlineState,
} from './waterline-model';

const DAY = 86_400;

function run(days: number, faultProbability: number, seed = 1, stepSeconds = 10) {
  const rng = seededRng(seed);
  const settings = { faultProbability, startTimeOfDay: 7 * 3600 };
  let state: WaterlineState = initialWaterline(rng, settings);
  const cycles: CycleReport[] = [];
  const samples: ReturnType<typeof waterlineValues>[] = [];
  for (let t = 0; t < days * DAY; t += stepSeconds) {
    const next = stepWaterline(state, stepSeconds, rng, settings);
    state = next.state;
    cycles.push(...next.cycles);
    samples.push(waterlineValues(state));
  }
  return { cycles, samples, state };
}

// Long simulated runs; the generous limit is for loaded CI machines, nothing is timed.
describe('the waterline disinfector model', { timeout: 60_000 }, () => {
  it('keeps every value within what the device can report', () => {
    const { samples } = run(2, 0.05);
    const range = (key: keyof (typeof samples)[number]) => {
      const values = samples.map((v) => v[key]);
      return [Math.min(...values), Math.max(...values)];
    };
    const [chlorineLow = 0, chlorineHigh = 0] = range('chlorine');
    expect(chlorineLow).toBeGreaterThanOrEqual(0);
    expect(chlorineHigh).toBeGreaterThan(45);
    expect(chlorineHigh).toBeLessThanOrEqual(55);
    const [orpLow = 0, orpHigh = 0] = range('orp');
    expect(orpLow).toBeGreaterThanOrEqual(450);
    expect(orpHigh).toBeLessThanOrEqual(950);
    const [phLow = 0, phHigh = 0] = range('ph');
    expect(phLow).toBeGreaterThanOrEqual(6.3);
    expect(phHigh).toBeLessThanOrEqual(7.5);
    const [tempLow = 0, tempHigh = 0] = range('waterTemp');
    expect(tempLow).toBeGreaterThanOrEqual(18);
    expect(tempHigh).toBeLessThanOrEqual(26);
    const [flowLow = 0, flowHigh = 0] = range('flow');
    expect(flowLow).toBe(0);
    expect(flowHigh).toBeLessThanOrEqual(8);
    const [tankLow = 0, tankHigh = 0] = range('tankLevel');
    expect(tankLow).toBeGreaterThanOrEqual(0);
    expect(tankHigh).toBeLessThanOrEqual(100);
    expect(new Set(samples.map((v) => v.phase))).toEqual(new Set(Object.values(WaterlinePhase)));
    // Maintained residual chlorine: between programs it stays within the usual 0.3–2.5 mg/L.
    const idle = samples.filter((v) => v.program === 0 && v.faultCode === 0);
    const mean = idle.reduce((sum, v) => sum + v.chlorine, 0) / idle.length;
    expect(mean).toBeGreaterThan(0.5);
    expect(mean).toBeLessThan(2);
  });

  it('tops the chlorine up, flushes and shocks once a day, each cycle complete and counted', () => {
    const { cycles, state } = run(3, 0, 2);
    const byProgram = (p: number) => cycles.filter((c) => c.program === p);
    expect(byProgram(1).length).toBeGreaterThan(10);
    expect(byProgram(2)).toHaveLength(3);
    expect(byProgram(3)).toHaveLength(3);
    expect(cycles.every((c) => c.result === 'pass' && c.faultCode === 0)).toBe(true);
    for (const shock of byProgram(2)) {
      expect(shock.endedAt - shock.startedAt).toBeGreaterThanOrEqual(180 + 1800 + 600);
      expect(shock.figures.holdSeconds).toBe(1800);
      expect(shock.figures.minHoldConcentration).toBeGreaterThanOrEqual(40);
    }
    for (const flush of byProgram(3)) expect(flush.figures.flushSeconds).toBe(120);
    // ORP follows chlorine: higher during a shock than at a maintained residual.
    const first = cycles[0] as CycleReport;
    expect(first.endedAt).toBeGreaterThan(first.startedAt);
    expect(state.cycleCount).toBeGreaterThanOrEqual(cycles.length);
  });

  it('ends cycles in a fault at the configured probability, reproducibly for a seed', () => {
    const { cycles } = run(12, 0.2, 3, 30);
    const counted = cycles.filter((c) => c.faultCode !== WATERLINE_FAULTS.tankEmpty);
    const failed = counted.filter((c) => c.result === 'fail');
    expect(counted.length).toBeGreaterThan(100);
    const share = failed.length / counted.length;
    expect(share).toBeGreaterThan(0.12);
    expect(share).toBeLessThan(0.28);
    expect(new Set(failed.map((c) => c.faultCode))).toEqual(new Set(WATERLINE_FAULTS.cycleFaults));
    const again = () => run(2, 0.2, 5, 30).cycles;
    expect(again()).toEqual(again());
    expect(run(2, 0, 3, 20).cycles.some((c) => c.result !== 'pass')).toBe(false);
  });

  it('reports ORP in step with chlorine', () => {
    const { samples } = run(1, 0, 4);
    const high = samples.filter((v) => v.chlorine > 30);
    const low = samples.filter((v) => v.chlorine < 1 && v.program === 0);
    const meanOrp = (list: typeof samples) => list.reduce((s, v) => s + v.orp, 0) / list.length;
    expect(high.length).toBeGreaterThan(0);
    expect(meanOrp(high)).toBeGreaterThan(meanOrp(low) + 150);
  });
});
