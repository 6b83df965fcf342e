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
 * A class-B steam steriliser (product ST-B23). Between cycles it stands with the door open while
 * it is loaded; a cycle runs three vacuum/steam pulses, heats to the program's pressure (the
 * chamber follows the temperature of saturated steam: 210 kPa gauge ≈ 134 °C), holds it for the
 * sterilisation time, exhausts and dries under vacuum. The first cycle of a day is a Bowie-Dick
 * test. A fault (decided at the cycle's start with the configured probability) is a vacuum that
 * does not reach its level or a steam supply that drops during the hold: the cycle is aborted.
 * Pure: the next state from the state, the time step and the random source.
 */

export const SteriliserPhase = { idle: 0, prevacuum: 1, heating: 2, sterilising: 3, exhaust: 4, drying: 5 } as const;

interface ProgramPlan {
  name: string;
  temperature: number;
  /** Gauge kPa of the hold. */
  pressure: number;
  hold: number;
  drying: number;
}

export const STERILISER_PROGRAMS: Readonly<Record<1 | 2 | 3 | 4, ProgramPlan>> = {
  1: { name: '134℃ 标准', temperature: 134, pressure: 210, hold: 240, drying: 600 },
  2: { name: '134℃ 朊病毒', temperature: 134, pressure: 210, hold: 1080, drying: 600 },
  3: { name: '121℃ 织物', temperature: 121, pressure: 110, hold: 1200, drying: 900 },
  4: { name: 'B-D 测试', temperature: 134, pressure: 210, hold: 210, drying: 120 },
};

/** Fault codes (field faultCode): 201 steam supply (temperature below the hold), 202 vacuum not reached. */
export const STERILISER_FAULTS = { steam: 201, vacuum: 202 } as const;

type ProgramNo = keyof typeof STERILISER_PROGRAMS;

interface Segment {
  phase: number;
  seconds: number;
  /** Gauge kPa the chamber is driven to. */
  pressure: number;
}

interface Running {
  program: ProgramNo;
  startedAt: number;
  segments: Segment[];
  index: number;
  inSegment: number;
  fault: number;
  /** Seconds into the hold at which a steam fault starts. */
  faultAt: number;
  maxTemp: number;
  minHoldTemp: number;
  maxPressure: number;
  holdSeconds: number;
}

export interface SteriliserState {
  elapsed: number;
  chamberTemp: number;
  chamberPressure: number;
  doorClosed: boolean;
  faultCode: number;
  cycleCount: number;
  running: Running | null;
  /** Seconds of standby (loading) before the next cycle. */
  waitLeft: number;
  faultLeft: number;
  lastBdDay: number;
}

const STANDBY_TEMP = 55;
const VACUUM = -80;

/** Saturated steam temperature (°C) at a gauge pressure (kPa), from Antoine's equation for water above 100 °C. */
export function saturationTemp(gaugeKPa: number): number {
  const mmHg = Math.max(101.325 + gaugeKPa, 1) * 7.50062;
  return 1810.94 / (8.14019 - Math.log10(mmHg)) - 244.485;
}

function segmentsOf(program: ProgramNo): Segment[] {
  const plan = STERILISER_PROGRAMS[program];
  const pulses: Segment[] = [];
  for (let i = 0; i < 3; i++)
    pulses.push(
      { phase: SteriliserPhase.prevacuum, seconds: 90, pressure: VACUUM },
      { phase: SteriliserPhase.prevacuum, seconds: 60, pressure: 100 },
    );
  return [
    ...pulses,
    { phase: SteriliserPhase.heating, seconds: 180, pressure: plan.pressure },
    { phase: SteriliserPhase.sterilising, seconds: plan.hold, pressure: plan.pressure + 2 },
    { phase: SteriliserPhase.exhaust, seconds: 120, pressure: 0 },
    { phase: SteriliserPhase.drying, seconds: plan.drying, pressure: VACUUM },
  ];
}

const dayOf = (s: SteriliserState, settings: ModelSettings) =>
  Math.floor((settings.startTimeOfDay + s.elapsed) / DAY_SECONDS);

export function initialSteriliser(rng: Rng, settings: ModelSettings): SteriliserState {
  const state: SteriliserState = {
    elapsed: 0,
    chamberTemp: STANDBY_TEMP + normal(rng),
    chamberPressure: 0,
    doorClosed: false,
    faultCode: 0,
    cycleCount: Math.floor(uniform(rng, 50, 2000)),
    running: null,
    // Devices of one clinic do not start in step.
    waitLeft: uniform(rng, 30, 900),
    faultLeft: 0,
    lastBdDay: 0,
  };
  state.lastBdDay = dayOf(state, settings) - 1;
  return state;
}

function start(s: SteriliserState, rng: Rng, settings: ModelSettings): void {
  const day = dayOf(s, settings);
  let program: ProgramNo;
  if (s.lastBdDay < day) {
    s.lastBdDay = day;
    program = 4;
  } else {
    const r = rng.next();
    program = r < 0.7 ? 1 : r < 0.8 ? 2 : 3;
  }
  const segments = segmentsOf(program);
  const fault = chance(rng, settings.faultProbability)
    ? pick(rng, [STERILISER_FAULTS.steam, STERILISER_FAULTS.vacuum])
    : 0;
  if (fault === STERILISER_FAULTS.vacuum) for (const seg of segments) if (seg.pressure === VACUUM) seg.pressure = -35;
  s.running = {
    program,
    startedAt: s.elapsed,
    segments,
    index: 0,
    inSegment: 0,
    fault,
    faultAt: uniform(rng, 0.2, 0.8) * STERILISER_PROGRAMS[program].hold,
    maxTemp: s.chamberTemp,
    minHoldTemp: Infinity,
    maxPressure: s.chamberPressure,
    holdSeconds: 0,
  };
  s.doorClosed = true;
}

function finish(s: SteriliserState, run: Running, rng: Rng, faultCode: number): CycleReport {
  const plan = STERILISER_PROGRAMS[run.program];
  s.running = null;
  s.cycleCount += 1;
  s.doorClosed = false;
  s.waitLeft = uniform(rng, 900, 2700);
  if (faultCode) {
    s.faultCode = faultCode;
    s.faultLeft = uniform(rng, 600, 2400);
  }
  return {
    program: run.program,
    programName: plan.name,
    startedAt: run.startedAt,
    endedAt: s.elapsed,
    result: faultCode ? 'aborted' : 'pass',
    faultCode,
    figures: {
      targetTemperature: plan.temperature,
      maxTemperature: round(run.maxTemp, 1),
      minHoldTemperature: run.minHoldTemp === Infinity ? 0 : round(run.minHoldTemp, 1),
      maxPressure: round(run.maxPressure, 1),
      holdSeconds: Math.round(run.holdSeconds),
    },
  };
}

/** Jumps to the exhaust: what an aborted cycle does before the door may open. */
function abort(run: Running, faultCode: number): void {
  run.fault = faultCode;
  run.index = run.segments.findIndex((seg) => seg.phase === SteriliserPhase.exhaust);
  run.inSegment = 0;
  // The abort skips drying.
  run.segments = run.segments.slice(0, run.index + 1);
}

function substep(s: SteriliserState, h: number, rng: Rng, settings: ModelSettings, cycles: CycleReport[]): void {
  if (s.faultCode) {
    s.faultLeft -= h;
    if (s.faultLeft <= 0) s.faultCode = 0;
  }
  if (!s.running) {
    s.waitLeft -= h;
    // Loaded: the door closes a minute before the start.
    if (s.waitLeft < 60 && !s.faultCode) s.doorClosed = true;
    if (s.waitLeft <= 0 && !s.faultCode) start(s, rng, settings);
  }
  // A cycle started above began at the substep's start; its dynamics cover [elapsed, elapsed + h].
  s.elapsed += h;

  const run = s.running;
  const segment = run?.segments[run.index];
  let pressureTarget = 0;
  let tempTarget = s.doorClosed ? STANDBY_TEMP + 5 : STANDBY_TEMP - 10;
  let tau = 600;
  if (run && segment) {
    pressureTarget = segment.pressure;
    if (segment.phase === SteriliserPhase.heating) {
      // The steam valve opens gradually: the target pressure ramps over the phase.
      const from = run.segments[run.index - 1]?.pressure ?? 0;
      pressureTarget = from + (segment.pressure - from) * Math.min(1, (run.inSegment + h) / segment.seconds);
    }
    const holding = segment.phase === SteriliserPhase.sterilising;
    // A failing steam supply: the pressure, and with it the temperature, sags.
    if (holding && run.fault === STERILISER_FAULTS.steam && run.holdSeconds >= run.faultAt)
      pressureTarget = segment.pressure * 0.6;
    if (pressureTarget > 0 && segment.phase !== SteriliserPhase.exhaust) {
      // With steam in the chamber the load follows saturated steam closely.
      tempTarget = saturationTemp(s.chamberPressure) + (holding ? 0.3 : 0);
      tau = 8;
    } else if (segment.phase === SteriliserPhase.exhaust) {
      tempTarget = 105;
      tau = 90;
    } else {
      // Under vacuum the hot walls keep the chamber warm; it cools slowly.
      tempTarget = Math.max(85, s.chamberTemp - 5);
      tau = 240;
    }
  }
  s.chamberPressure = clamp(
    s.chamberPressure + (pressureTarget - s.chamberPressure) * (1 - Math.exp(-h / 12)) + 0.25 * normal(rng),
    -95,
    260,
  );
  s.chamberTemp = clamp(
    s.chamberTemp + (tempTarget - s.chamberTemp) * (1 - Math.exp(-h / tau)) + 0.08 * normal(rng),
    15,
    140,
  );

  if (!run || !segment) return;
  run.maxTemp = Math.max(run.maxTemp, s.chamberTemp);
  run.maxPressure = Math.max(run.maxPressure, s.chamberPressure);
  const plan = STERILISER_PROGRAMS[run.program];
  if (segment.phase === SteriliserPhase.sterilising) {
    run.holdSeconds += h;
    run.minHoldTemp = Math.min(run.minHoldTemp, s.chamberTemp);
    // The hold is lost when the load falls a degree below the program's temperature.
    if (s.chamberTemp < plan.temperature - 1 && run.holdSeconds > 20) {
      abort(run, STERILISER_FAULTS.steam);
      return;
    }
  }
  run.inSegment += h;
  if (run.inSegment < segment.seconds - 1e-9) return;
  // The hold starts only once the load is at temperature (a cold load heats a little longer).
  if (
    segment.phase === SteriliserPhase.heating &&
    s.chamberTemp < plan.temperature + 0.2 &&
    run.inSegment < 2 * segment.seconds
  )
    return;
  if (segment.phase === SteriliserPhase.prevacuum && segment.pressure < 0 && s.chamberPressure > -60) {
    abort(run, STERILISER_FAULTS.vacuum);
    return;
  }
  run.index += 1;
  run.inSegment = 0;
  if (run.index >= run.segments.length) cycles.push(finish(s, run, rng, run.fault));
}

/** Advances the model by `seconds` of simulated time. */
export function stepSteriliser(
  previous: SteriliserState,
  seconds: number,
  rng: Rng,
  settings: ModelSettings,
): StepResult<SteriliserState> {
  const s: SteriliserState = {
    ...previous,
    running: previous.running && {
      ...previous.running,
      segments: previous.running.segments.map((seg) => ({ ...seg })),
    },
  };
  const cycles: CycleReport[] = [];
  let left = seconds;
  while (left > 1e-9) {
    const h = Math.min(left, MAX_SUBSTEP_SECONDS);
    substep(s, h, rng, settings, cycles);
    left -= h;
  }
  return { state: s, cycles };
}

/** Seconds left in the running cycle (0 when idle). */
export function remainingSeconds(s: SteriliserState): number {
  const run = s.running;
  if (!run) return 0;
  let left = -run.inSegment;
  for (let i = run.index; i < run.segments.length; i++) left += run.segments[i]?.seconds ?? 0;
  return Math.max(0, Math.round(left));
}

/** A report of ST-B23: the model's field keys (seed/demo-devices.ts). A type, so it is a `Record` too. */
export type SteriliserValues = {
  chamberTemp: number;
  chamberPressure: number;
  program: number;
  phase: number;
  remainingSeconds: number;
  doorClosed: boolean;
  faultCode: number;
  cycleCount: number;
};

/** The telemetry values of a state, keyed and rounded as the ST-B23 model declares them. */
export function steriliserValues(s: SteriliserState): SteriliserValues {
  return {
    chamberTemp: round(s.chamberTemp, 1),
    chamberPressure: round(s.chamberPressure, 1),
    program: s.running?.program ?? 0,
    phase: s.running?.segments[s.running.index]?.phase ?? SteriliserPhase.idle,
    remainingSeconds: remainingSeconds(s),
    doorClosed: s.doorClosed,
    faultCode: s.faultCode,
    cycleCount: s.cycleCount,
  };
}
