/** What every simulated device model shares (waterline-model.ts, steriliser-model.ts). */

export type TelemetryValue = number | boolean;

/** A finished cycle, published on `mes/{tenant}/{code}/cycle`. */
export interface CycleReport {
  program: number;
  programName: string;
  /** Simulated seconds since the model started, at the cycle's start and end. */
  startedAt: number;
  endedAt: number;
  result: 'pass' | 'fail' | 'aborted';
  /** 0 when the cycle passed. */
  faultCode: number;
  /** Process figures of the cycle (hold time, extremes, concentration), by name. */
  figures: Record<string, number>;
}

export interface StepResult<S> {
  state: S;
  /** Cycles that ended during the step (at most one in practice; a long step may hold more). */
  cycles: CycleReport[];
}

/** Settings every model takes. */
export interface ModelSettings {
  /** Probability that a cycle ends in a fault (0–1). */
  faultProbability: number;
  /** Simulated seconds since midnight at the model's start (daily drift, clinic hours). */
  startTimeOfDay: number;
}

/** A step longer than this is split, so phase changes land within a few seconds of their time. */
export const MAX_SUBSTEP_SECONDS = 2;

export const DAY_SECONDS = 86_400;

export const round = (value: number, decimals: number) => {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
};
