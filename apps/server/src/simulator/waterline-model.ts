import {
  DAY_SECONDS,
  MAX_SUBSTEP_SECONDS,
  round,
  type CycleReport,
  type ModelSettings,
  type StepResult,
} from './model';
import { chance, clamp, normal, pick, uniform, type Rng } from './rng';

/**
 * A dental-chair waterline disinfector (product WL-PRO): a tank of hypochlorous acid dosed into
 * the chairs' water. Free chlorine decays (faster while chairs draw water) and is topped up by a
 * short maintenance program when it falls below 0.5 mg/L; at the end of the day the lines are
 * flushed for 2 minutes and given a shock disinfection (50 mg/L held 30 minutes, then flushed).
 * ORP follows the chlorine through a slow electrode, pH stays near 7, the water temperature
 * drifts with the time of day. Pure: the next state from the state, the time step and the random source.
 */

export const WaterlinePhase = { idle: 0, dosing: 1, holding: 2, flushing: 3 } as const;

interface ProgramPlan {
  name: string;
  /** mg/L reached by dosing; 0 for a flush. */
  target: number;
  dosing: number;
  holding: number;
  flushing: number;
  /** Tank percentage one run uses. */
  dose: number;
  /** The lowest chlorine while holding for a pass. */
  passAt: number;
}

export const WATERLINE_PROGRAMS: Readonly<Record<1 | 2 | 3, ProgramPlan>> = {
  1: { name: '日常补氯', target: 2, dosing: 60, holding: 600, flushing: 0, dose: 0.2, passAt: 1 },
  2: { name: '强化冲击消毒', target: 50, dosing: 180, holding: 1800, flushing: 600, dose: 3, passAt: 40 },
  3: { name: '下班冲洗', target: 0, dosing: 0, holding: 0, flushing: 120, dose: 0, passAt: 0 },
};

/** Fault codes (field faultCode): 101 tank empty, 102 dosing pump, 103 no flow, 104 chlorine sensor. */
export const WATERLINE_FAULTS = { tankEmpty: 101, cycleFaults: [102, 103, 104] } as const;

type ProgramNo = keyof typeof WATERLINE_PROGRAMS;

interface Running {
  program: ProgramNo;
  startedAt: number;
  phase: number;
  phaseLeft: number;
  /** The fault this run ends with (decided at its start), 0 for none. */
  fault: number;
  minHold: number;
  maxChlorine: number;
  holdSeconds: number;
  flushSeconds: number;
}

export interface WaterlineState {
  /** Simulated seconds since the model started. */
  elapsed: number;
  chlorine: number;
  orp: number;
  ph: number;
  waterTemp: number;
  flow: number;
  tankLevel: number;
  faultCode: number;
  cycleCount: number;
  running: Running | null;
  /** Seconds until a fault is cleared by maintenance. */
  faultLeft: number;
  /** Seconds until someone refills a low tank; Infinity while nobody has noticed. */
  refillLeft: number;
  /** The simulated day of the last end-of-day flush and shock disinfection. */
  lastFlushDay: number;
  lastShockDay: number;
}

const HOUR = 3600;
const CLINIC_OPENS = 8 * HOUR;
const CLINIC_CLOSES = 18 * HOUR;
const FLUSH_AT = 18.5 * HOUR;
const SHOCK_AT = 19 * HOUR;
const MAINS_CHLORINE = 0.3;

const timeOfDay = (s: WaterlineState, settings: ModelSettings) => (settings.startTimeOfDay + s.elapsed) % DAY_SECONDS;
const dayOf = (s: WaterlineState, settings: ModelSettings) =>
  Math.floor((settings.startTimeOfDay + s.elapsed) / DAY_SECONDS);

export function initialWaterline(rng: Rng, settings: ModelSettings): WaterlineState {
  const state: WaterlineState = {
    elapsed: 0,
    chlorine: uniform(rng, 0.6, 2),
    orp: 0,
    ph: 7.1 + 0.05 * normal(rng),
    waterTemp: 22,
    flow: 0,
    tankLevel: uniform(rng, 30, 100),
    faultCode: 0,
    cycleCount: Math.floor(uniform(rng, 100, 3000)),
    running: null,
    faultLeft: 0,
    refillLeft: Infinity,
    lastFlushDay: 0,
    lastShockDay: 0,
  };
  const day = dayOf(state, settings);
  // A device started in the evening has done today's flush and shock already.
  const tod = timeOfDay(state, settings);
  state.lastFlushDay = tod >= FLUSH_AT ? day : day - 1;
  state.lastShockDay = tod >= SHOCK_AT ? day : day - 1;
  state.orp = orpFor(state.chlorine, state.ph);
  return state;
}

/** ORP (mV) the electrode settles at for a free chlorine and pH. */
const orpFor = (chlorine: number, ph: number) => 480 + 130 * Math.log10(1 + 10 * chlorine) - 40 * (ph - 7);

function startProgram(s: WaterlineState, program: ProgramNo, rng: Rng, settings: ModelSettings): CycleReport | null {
  const plan = WATERLINE_PROGRAMS[program];
  const run: Running = {
    program,
    startedAt: s.elapsed,
    phase: plan.dosing ? WaterlinePhase.dosing : WaterlinePhase.flushing,
    phaseLeft: plan.dosing || plan.flushing,
    fault: chance(rng, settings.faultProbability) ? pick(rng, WATERLINE_FAULTS.cycleFaults) : 0,
    minHold: Infinity,
    maxChlorine: s.chlorine,
    holdSeconds: 0,
    flushSeconds: 0,
  };
  if (plan.dose > 0 && s.tankLevel < plan.dose + 1) {
    // Nothing to dose with: the run stops at once and the device reports the empty tank.
    s.faultCode = WATERLINE_FAULTS.tankEmpty;
    s.faultLeft = Infinity;
    if (s.refillLeft === Infinity) s.refillLeft = uniform(rng, 900, 3600);
    return report(s, run, 'aborted', WATERLINE_FAULTS.tankEmpty);
  }
  s.running = run;
  return null;
}

function report(s: WaterlineState, run: Running, result: CycleReport['result'], faultCode: number): CycleReport {
  const plan = WATERLINE_PROGRAMS[run.program];
  return {
    program: run.program,
    programName: plan.name,
    startedAt: run.startedAt,
    endedAt: s.elapsed,
    result,
    faultCode,
    figures: {
      targetConcentration: plan.target,
      maxConcentration: round(run.maxChlorine, 2),
      minHoldConcentration: run.minHold === Infinity ? 0 : round(run.minHold, 2),
      holdSeconds: Math.round(run.holdSeconds),
      flushSeconds: Math.round(run.flushSeconds),
    },
  };
}

/** Ends the current phase: next phase, or the cycle's end (its report, the fault it raises). */
function nextPhase(s: WaterlineState, run: Running, rng: Rng): CycleReport | null {
  const plan = WATERLINE_PROGRAMS[run.program];
  if (run.fault) {
    // The fault shows at the end of the first phase: the pump did not dose, the flow stopped, the
    // sensor disagreed. The run fails and the device waits for maintenance.
    s.running = null;
    s.faultCode = run.fault;
    s.faultLeft = uniform(rng, 600, 3600);
    s.cycleCount += 1;
    return report(s, run, 'fail', run.fault);
  }
  if (run.phase === WaterlinePhase.dosing) {
    s.tankLevel = Math.max(0, s.tankLevel - plan.dose);
    if (plan.holding) {
      run.phase = WaterlinePhase.holding;
      run.phaseLeft = plan.holding;
      return null;
    }
  }
  if (run.phase !== WaterlinePhase.flushing && plan.flushing) {
    run.phase = WaterlinePhase.flushing;
    run.phaseLeft = plan.flushing;
    return null;
  }
  s.running = null;
  s.cycleCount += 1;
  const pass = plan.holding === 0 || run.minHold >= plan.passAt;
  return report(s, run, pass ? 'pass' : 'fail', 0);
}

function substep(s: WaterlineState, h: number, rng: Rng, settings: ModelSettings, cycles: CycleReport[]): void {
  // Decisions are taken at the substep's start; its dynamics then cover [elapsed, elapsed + h].
  const tod = timeOfDay(s, settings);
  const day = dayOf(s, settings);

  // Maintenance: a fault clears after a while; a low tank is noticed and refilled.
  if (s.faultCode && s.faultCode !== WATERLINE_FAULTS.tankEmpty) {
    s.faultLeft -= h;
    if (s.faultLeft <= 0) s.faultCode = 0;
  }
  if (s.tankLevel < 10 && s.refillLeft === Infinity) s.refillLeft = uniform(rng, 1800, 7200);
  if (s.refillLeft !== Infinity) {
    s.refillLeft -= h;
    if (s.refillLeft <= 0) {
      s.tankLevel = 100;
      s.refillLeft = Infinity;
      if (s.faultCode === WATERLINE_FAULTS.tankEmpty) s.faultCode = 0;
    }
  }

  // What to run next, when idle and healthy.
  if (!s.running && !s.faultCode) {
    let program: ProgramNo | undefined;
    if (tod >= FLUSH_AT && s.lastFlushDay < day) {
      s.lastFlushDay = day;
      program = 3;
    } else if (tod >= SHOCK_AT && s.lastShockDay < day) {
      s.lastShockDay = day;
      program = 2;
    } else if (s.chlorine < 0.5) program = 1;
    if (program) {
      const aborted = startProgram(s, program, rng, settings);
      if (aborted) cycles.push(aborted);
    }
  }
  s.elapsed += h;

  const run = s.running;
  const phase = run?.phase ?? WaterlinePhase.idle;
  const plan = run ? WATERLINE_PROGRAMS[run.program] : undefined;

  // Flow: chairs draw water in clinic hours; a flush runs the lines at full flow; a shock holds them.
  const inClinicHours = tod >= CLINIC_OPENS && tod < CLINIC_CLOSES;
  let flowTarget = inClinicHours ? 0.8 : 0;
  if (phase === WaterlinePhase.flushing) flowTarget = run?.fault === 103 ? 0 : 6;
  if (run?.program === 2 && phase !== WaterlinePhase.flushing) flowTarget = 0;
  s.flow = clamp(
    s.flow + (flowTarget - s.flow) * (1 - Math.exp(-h / 20)) + (flowTarget > 0 ? 0.05 * Math.sqrt(h) * normal(rng) : 0),
    0,
    8,
  );
  if (flowTarget === 0 && s.flow < 0.02) s.flow = 0;

  // Chlorine: decays, faster while fresh water comes in; dosing ramps it up; flushing washes it out.
  if (run && phase === WaterlinePhase.dosing && plan) {
    if (run.fault !== 102) s.chlorine += (plan.target - s.chlorine) * Math.min(1, h / Math.max(run.phaseLeft, h));
  } else if (phase === WaterlinePhase.flushing) {
    s.chlorine = MAINS_CHLORINE + (s.chlorine - MAINS_CHLORINE) * Math.exp(-h / 60);
  } else {
    const tau = run?.program === 2 ? 10 * HOUR : (3 * HOUR) / (1 + s.flow);
    s.chlorine *= Math.exp(-h / tau);
  }
  s.chlorine = clamp(s.chlorine, 0, 100);

  // pH: hypochlorous acid pulls it down a little while dosed; otherwise it returns to 7.1.
  const phTarget = run?.program === 2 && phase !== WaterlinePhase.flushing ? 6.7 : run?.program === 1 ? 6.95 : 7.1;
  s.ph = clamp(s.ph + (phTarget - s.ph) * (1 - Math.exp(-h / 300)) + 0.003 * Math.sqrt(h) * normal(rng), 6, 8);

  s.orp = clamp(s.orp + (orpFor(s.chlorine, s.ph) - s.orp) * (1 - Math.exp(-h / 20)) + 1.5 * normal(rng), 200, 950);
  // Warmest mid-afternoon.
  s.waterTemp = clamp(22 + 3 * Math.cos((2 * Math.PI * (tod - 15 * HOUR)) / DAY_SECONDS) + 0.1 * normal(rng), 5, 40);

  if (run) {
    run.maxChlorine = Math.max(run.maxChlorine, s.chlorine);
    if (phase === WaterlinePhase.holding) {
      run.holdSeconds += h;
      run.minHold = Math.min(run.minHold, s.chlorine);
    }
    if (phase === WaterlinePhase.flushing) run.flushSeconds += h;
    run.phaseLeft -= h;
    if (run.phaseLeft <= 1e-9) {
      const done = nextPhase(s, run, rng);
      if (done) cycles.push(done);
    }
  }
}

/** Advances the model by `seconds` of simulated time. */
export function stepWaterline(
  previous: WaterlineState,
  seconds: number,
  rng: Rng,
  settings: ModelSettings,
): StepResult<WaterlineState> {
  const s: WaterlineState = { ...previous, running: previous.running && { ...previous.running } };
  const cycles: CycleReport[] = [];
  let left = seconds;
  while (left > 1e-9) {
    const h = Math.min(left, MAX_SUBSTEP_SECONDS);
    substep(s, h, rng, settings, cycles);
    left -= h;
  }
  return { state: s, cycles };
}

/** A report of WL-PRO: the model's field keys (seed/demo-devices.ts). A type, so it is a `Record` too. */
export type WaterlineValues = {
  chlorine: number;
  orp: number;
  ph: number;
  waterTemp: number;
  flow: number;
  tankLevel: number;
  program: number;
  phase: number;
  faultCode: number;
  cycleCount: number;
};

/** The telemetry values of a state, keyed and rounded as the WL-PRO model declares them. */
export function waterlineValues(s: WaterlineState): WaterlineValues {
  return {
    chlorine: round(s.chlorine, 2),
    orp: round(s.orp, 0),
    ph: round(s.ph, 2),
    waterTemp: round(s.waterTemp, 1),
    flow: round(s.flow, 2),
    tankLevel: round(s.tankLevel, 1),
    program: s.running?.program ?? 0,
    phase: s.running?.phase ?? WaterlinePhase.idle,
    faultCode: s.faultCode,
    cycleCount: s.cycleCount,
  };
}
