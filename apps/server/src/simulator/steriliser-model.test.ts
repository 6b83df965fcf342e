import { describe, expect, it } from 'vitest';
import type { CycleReport } from './model';
import { seededRng } from './rng';
import {
  STERILISER_FAULTS,
  STERILISER_PROGRAMS,
  SteriliserPhase,
  initialSteriliser,
  saturationTemp,
  stepSteriliser,
  steriliserValues,
  type SteriliserState,
} from './steriliser-model';

const DAY = 86_400;

function run(days: number, faultProbability: number, seed = 1, stepSeconds = 5) {
  const rng = seededRng(seed);
  const settings = { faultProbability, startTimeOfDay: 7 * 3600 };
  let state: SteriliserState = initialSteriliser(rng, settings);
  const cycles: CycleReport[] = [];
  const samples: ReturnType<typeof steriliserValues>[] = [];
  for (let t = 0; t < days * DAY; t += stepSeconds) {
    const next = stepSteriliser(state, stepSeconds, rng, settings);
    state = next.state;
    cycles.push(...next.cycles);
    samples.push(steriliserValues(state));
  }
  return { cycles, samples };
}

// Long simulated runs; the generous limit is for loaded CI machines, nothing is timed.
describe('the steam steriliser model', { timeout: 60_000 }, () => {
  it('follows saturated steam: 0 kPa ≈ 100 °C, 110 kPa ≈ 121 °C, 210 kPa ≈ 134 °C', () => {
    expect(saturationTemp(0)).toBeCloseTo(100, 0);
    expect(Math.abs(saturationTemp(110) - 121.5)).toBeLessThan(1);
    expect(Math.abs(saturationTemp(210) - 134.5)).toBeLessThan(1);
  });

  it('keeps temperature and pressure within the chamber’s range, the door closed while running', () => {
    const { samples } = run(2, 0.05);
    const temps = samples.map((v) => v.chamberTemp);
    const pressures = samples.map((v) => v.chamberPressure);
    expect(Math.min(...temps)).toBeGreaterThanOrEqual(15);
    expect(Math.max(...temps)).toBeLessThanOrEqual(138);
    expect(Math.min(...pressures)).toBeGreaterThanOrEqual(-95);
    expect(Math.max(...pressures)).toBeLessThanOrEqual(230);
    expect(samples.filter((v) => v.phase !== SteriliserPhase.idle && !v.doorClosed)).toEqual([]);
    expect(samples.filter((v) => v.phase === SteriliserPhase.idle && v.remainingSeconds !== 0)).toEqual([]);
    const holding = samples.filter((v) => v.phase === SteriliserPhase.sterilising && v.program === 1);
    expect(holding.length).toBeGreaterThan(0);
    const meanTemp = holding.reduce((s, v) => s + v.chamberTemp, 0) / holding.length;
    const meanPressure = holding.reduce((s, v) => s + v.chamberPressure, 0) / holding.length;
    expect(meanTemp).toBeGreaterThan(134);
    expect(meanTemp).toBeLessThan(136.5);
    expect(meanPressure).toBeGreaterThan(200);
    expect(meanPressure).toBeLessThan(220);
  });

  it('runs complete cycles through every phase, a Bowie-Dick test first each day', () => {
    const { cycles, samples } = run(2, 0, 2);
    expect(cycles.length).toBeGreaterThan(20);
    expect(cycles.every((c) => c.result === 'pass')).toBe(true);
    // Each simulated day (the run starts at 07:00) opens with its Bowie-Dick test.
    const dayOf = (c: CycleReport) => Math.floor((7 * 3600 + c.startedAt) / DAY);
    const days = [...new Set(cycles.map(dayOf))];
    expect(cycles.filter((c) => c.program === 4).map(dayOf)).toEqual(days);
    for (const day of days) expect(cycles.find((c) => dayOf(c) === day)?.program).toBe(4);
    for (const c of cycles) {
      const plan = STERILISER_PROGRAMS[c.program as 1 | 2 | 3 | 4];
      expect(c.figures.holdSeconds).toBeGreaterThanOrEqual(plan.hold);
      expect(c.figures.minHoldTemperature).toBeGreaterThanOrEqual(plan.temperature);
    }
    const phases = new Set(samples.map((v) => v.phase));
    expect([...phases].sort()).toEqual(Object.values(SteriliserPhase).sort());
  });

  it('aborts cycles at the configured fault probability, reproducibly for a seed', () => {
    const { cycles } = run(10, 0.25, 3, 10);
    const aborted = cycles.filter((c) => c.result === 'aborted');
    expect(cycles.length).toBeGreaterThan(150);
    const share = aborted.length / cycles.length;
    expect(share).toBeGreaterThan(0.18);
    expect(share).toBeLessThan(0.32);
    expect(new Set(aborted.map((c) => c.faultCode))).toEqual(
      new Set([STERILISER_FAULTS.steam, STERILISER_FAULTS.vacuum]),
    );
    // A steam fault loses the hold: the temperature fell below the program's.
    for (const c of aborted.filter((x) => x.faultCode === STERILISER_FAULTS.steam))
      expect(c.figures.minHoldTemperature).toBeLessThan(STERILISER_PROGRAMS[c.program as 1].temperature);
    const again = () => run(2, 0.25, 5, 10).cycles;
    expect(again()).toEqual(again());
  });
});
