import { ParametricResult, type LethalityKind, type ValidatedProfile } from '@mes/contracts';

/**
 * Lethality and the parametric judgement of a finished cycle (docs/lethality.md), from the raw
 * points the device reported during it. Pure: the caller reads the points and the program's
 * validated profile.
 *
 * - A0 (ISO 15883-1, washer-disinfectors and thermal disinfection): Σ 10^((T − 80)/10)·Δt, seconds.
 * - F0 (steam sterilisation): Σ 10^((T − 121.1)/10)·Δt / 60, minutes.
 *
 * The sum is the trapezoid rule on the lethal rate L(T) = 10^((T − Tref)/z) between consecutive
 * points: each interval gets the mean of its two end rates times its length. Averaging the rates,
 * not the temperatures, keeps the exponential honest (the rate of a mean temperature understates a
 * rising interval), and the rule needs no assumption about which end's reading held for the
 * interval, unlike the left or right rectangle a PLC usually sums. An interval longer than
 * {@link MAX_GAP_SECONDS} is a gap in the record: it is credited with no lethality and breaks the
 * hold, since nothing shows what the load saw meanwhile.
 */

export const Z_VALUE = 10;
export const A0_REFERENCE = 80;
export const F0_REFERENCE = 121.1;
/** The longest interval between two points that is still integrated. */
export const MAX_GAP_SECONDS = 60;

export type { LethalityKind, ValidatedProfile };

/** A point: epoch milliseconds and the value. */
export interface CurvePoint {
  t: number;
  v: number;
}

export interface CycleCurves {
  temperature: readonly CurvePoint[];
  pressure: readonly CurvePoint[];
  concentration: readonly CurvePoint[];
}

/** Which limit a failed cycle broke. */
export type BrokenLimit =
  'noData' | 'hold' | 'lethality' | 'pressureLow' | 'pressureHigh' | 'noPressure' | 'concentration' | 'noConcentration';

export interface Reason {
  limit: BrokenLimit;
  zh: string;
  en: string;
}

export { ParametricResult };
export type ParametricResultValue = (typeof ParametricResult)[keyof typeof ParametricResult];

export interface Judgement {
  kind: LethalityKind;
  /** A0 in seconds or F0 in minutes; null when the profile asks for neither. */
  lethality: number | null;
  /** The longest contiguous time within the plateau band (or at or above the minimum concentration). */
  holdSeconds: number | null;
  holdStart: number | null;
  holdEnd: number | null;
  result: ParametricResultValue;
  reasons: Reason[];
}

/**
 * Sorted by time, non-finite values dropped; two points at one time (a redelivered report, two
 * sources) keep the lower value, the conservative reading for every limit judged here but a
 * pressure's upper bound (which a duplicate at the same instant cannot plausibly decide).
 */
export function cleanCurve(points: readonly CurvePoint[]): CurvePoint[] {
  const sorted = points
    .filter((p) => Number.isFinite(p.t) && Number.isFinite(p.v))
    .slice()
    .sort((a, b) => a.t - b.t);
  const out: CurvePoint[] = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (last && last.t === p.t) last.v = Math.min(last.v, p.v);
    else out.push({ t: p.t, v: p.v });
  }
  return out;
}

export const lethalRate = (temperature: number, reference: number, z = Z_VALUE) =>
  10 ** ((temperature - reference) / z);

/** Σ over intervals of (L₁ + L₂)/2 · Δt in seconds; intervals beyond the gap limit count nothing. */
function integrate(points: readonly CurvePoint[], reference: number, maxGapSeconds: number): number {
  const curve = cleanCurve(points);
  let sum = 0;
  for (let i = 1; i < curve.length; i++) {
    const a = curve[i - 1]!;
    const b = curve[i]!;
    const dt = (b.t - a.t) / 1000;
    if (dt > maxGapSeconds) continue;
    sum += ((lethalRate(a.v, reference) + lethalRate(b.v, reference)) / 2) * dt;
  }
  return sum;
}

/** A0 in seconds (ISO 15883-1: z = 10 K, 80 ℃). */
export const a0 = (points: readonly CurvePoint[], maxGapSeconds = MAX_GAP_SECONDS) =>
  integrate(points, A0_REFERENCE, maxGapSeconds);

/** F0 in minutes (z = 10 K, 121.1 ℃). */
export const f0 = (points: readonly CurvePoint[], maxGapSeconds = MAX_GAP_SECONDS) =>
  integrate(points, F0_REFERENCE, maxGapSeconds) / 60;

export interface Run {
  seconds: number;
  start: number;
  end: number;
}

/**
 * The longest contiguous run of points inside `within`, from its first to its last point (no
 * interpolation to the crossings: the hold is what the points prove). A gap breaks the run.
 */
export function longestRun(
  points: readonly CurvePoint[],
  within: (v: number) => boolean,
  maxGapSeconds = MAX_GAP_SECONDS,
): Run | null {
  const curve = cleanCurve(points);
  let best: Run | null = null;
  let start: number | null = null;
  let previous: number | null = null;
  const close = () => {
    if (start !== null && previous !== null) {
      const seconds = (previous - start) / 1000;
      if (!best || seconds > best.seconds) best = { seconds, start, end: previous };
    }
    start = null;
    previous = null;
  };
  for (const p of curve) {
    if (!within(p.v)) {
      close();
      continue;
    }
    if (previous !== null && (p.t - previous) / 1000 > maxGapSeconds) close();
    if (start === null) start = p.t;
    previous = p.t;
  }
  close();
  return best;
}

const fmt = (value: number, digits: number) => value.toFixed(digits);
const lethalityDigits = (kind: LethalityKind) => (kind === 'F0' ? 2 : 0);

/** Whether the profile judges anything at all. */
export function profileJudges(profile: ValidatedProfile): boolean {
  return (
    profile.lethalityKind !== 'none' ||
    profile.plateauMin !== null ||
    profile.plateauMax !== null ||
    profile.minHoldSeconds !== null ||
    profile.pressureMin !== null ||
    profile.pressureMax !== null ||
    profile.minConcentration !== null ||
    profile.minLethality !== null
  );
}

const inWindow = (points: readonly CurvePoint[], run: Run) =>
  cleanCurve(points).filter((p) => p.t >= run.start && p.t <= run.end);

/**
 * The cycle's lethality, hold and parametric result against the profile. The hold is measured on
 * the temperature plateau band when the profile has one, else on the concentration at or above
 * its minimum (a chemical disinfection has no plateau). Pressure and, with a plateau,
 * concentration are judged over the hold; every broken limit is a reason, in the order of the
 * profile.
 */
export function judgeCycle(curves: CycleCurves, profile: ValidatedProfile): Judgement {
  const kind = profile.lethalityKind;
  const reasons: Reason[] = [];
  const temperature = cleanCurve(curves.temperature);
  const lethality = kind === 'A0' ? a0(temperature) : kind === 'F0' ? f0(temperature) : null;
  const plateau = profile.plateauMin !== null || profile.plateauMax !== null;
  const lo = profile.plateauMin ?? -Infinity;
  const hi = profile.plateauMax ?? Infinity;

  let run: Run | null = null;
  let measured = false;
  if (plateau) {
    measured = true;
    if (!temperature.length)
      reasons.push({ limit: 'noData', zh: '周期内没有温度数据', en: 'no temperature points within the cycle' });
    run = longestRun(temperature, (v) => v >= lo && v <= hi);
  } else if (profile.minConcentration !== null) {
    measured = true;
    const min = profile.minConcentration;
    if (!curves.concentration.length)
      reasons.push({
        limit: 'noConcentration',
        zh: '周期内没有浓度数据',
        en: 'no concentration points within the cycle',
      });
    run = longestRun(curves.concentration, (v) => v >= min);
  } else if (kind !== 'none' && !temperature.length)
    reasons.push({ limit: 'noData', zh: '周期内没有温度数据', en: 'no temperature points within the cycle' });

  const holdSeconds = measured ? (run?.seconds ?? 0) : null;
  if (profile.minHoldSeconds !== null && measured && (holdSeconds ?? 0) < profile.minHoldSeconds) {
    const band = plateau
      ? {
          zh: `平台温度带 ${bandText(profile.plateauMin, profile.plateauMax)} ℃`,
          en: `the plateau band ${bandText(profile.plateauMin, profile.plateauMax)} °C`,
        }
      : { zh: `浓度 ≥ ${profile.minConcentration} mg/L`, en: `a concentration ≥ ${profile.minConcentration} mg/L` };
    reasons.push({
      limit: 'hold',
      zh: `${band.zh}内维持 ${fmt(holdSeconds ?? 0, 0)} 秒, 低于最短维持时间 ${profile.minHoldSeconds} 秒`,
      en: `held ${fmt(holdSeconds ?? 0, 0)} s within ${band.en}, below the minimum hold time of ${profile.minHoldSeconds} s`,
    });
  }

  if (kind !== 'none' && profile.minLethality !== null && lethality !== null && lethality < profile.minLethality) {
    const digits = lethalityDigits(kind);
    const unit = kind === 'F0' ? { zh: '分钟', en: 'min' } : { zh: '秒', en: 's' };
    reasons.push({
      limit: 'lethality',
      zh: `${kind} ${fmt(lethality, digits)} ${unit.zh}, 低于最低 ${kind} ${profile.minLethality} ${unit.zh}`,
      en: `${kind} ${fmt(lethality, digits)} ${unit.en} is below the minimum ${kind} of ${profile.minLethality} ${unit.en}`,
    });
  }

  if (profile.pressureMin !== null || profile.pressureMax !== null) {
    // Over the hold when there is one; over the whole cycle otherwise (no hold to narrow it to).
    const pressure = run ? inWindow(curves.pressure, run) : cleanCurve(curves.pressure);
    if (!pressure.length)
      reasons.push({
        limit: 'noPressure',
        zh: run ? '维持期间没有压力数据' : '周期内没有压力数据',
        en: run ? 'no pressure points during the hold' : 'no pressure points within the cycle',
      });
    else {
      const low = Math.min(...pressure.map((p) => p.v));
      const high = Math.max(...pressure.map((p) => p.v));
      if (profile.pressureMin !== null && low < profile.pressureMin)
        reasons.push({
          limit: 'pressureLow',
          zh: `维持期间压力最低 ${fmt(low, 1)} kPa, 低于压力带下限 ${profile.pressureMin} kPa`,
          en: `pressure fell to ${fmt(low, 1)} kPa during the hold, below the band's minimum of ${profile.pressureMin} kPa`,
        });
      if (profile.pressureMax !== null && high > profile.pressureMax)
        reasons.push({
          limit: 'pressureHigh',
          zh: `维持期间压力最高 ${fmt(high, 1)} kPa, 高于压力带上限 ${profile.pressureMax} kPa`,
          en: `pressure rose to ${fmt(high, 1)} kPa during the hold, above the band's maximum of ${profile.pressureMax} kPa`,
        });
    }
  }

  if (plateau && profile.minConcentration !== null) {
    const concentration = run ? inWindow(curves.concentration, run) : cleanCurve(curves.concentration);
    if (!concentration.length)
      reasons.push({
        limit: 'noConcentration',
        zh: '维持期间没有浓度数据',
        en: 'no concentration points during the hold',
      });
    else {
      const low = Math.min(...concentration.map((p) => p.v));
      if (low < profile.minConcentration)
        reasons.push({
          limit: 'concentration',
          zh: `维持期间浓度最低 ${fmt(low, 2)} mg/L, 低于最低浓度 ${profile.minConcentration} mg/L`,
          en: `concentration fell to ${fmt(low, 2)} mg/L during the hold, below the minimum of ${profile.minConcentration} mg/L`,
        });
    }
  }

  return {
    kind,
    lethality,
    holdSeconds,
    holdStart: run?.start ?? null,
    holdEnd: run?.end ?? null,
    result: !profileJudges(profile)
      ? ParametricResult.none
      : reasons.length
        ? ParametricResult.fail
        : ParametricResult.pass,
    reasons,
  };
}

function bandText(min: number | null, max: number | null): string {
  if (min !== null && max !== null) return `${min}–${max}`;
  if (min !== null) return `≥ ${min}`;
  return `≤ ${max}`;
}

/** The reasons as the record's one line, each language on its own side of the separator. */
export function reasonText(reasons: readonly Reason[]): string {
  if (!reasons.length) return '';
  return `${reasons.map((r) => r.zh).join('；')} / ${reasons.map((r) => r.en).join('; ')}`;
}
