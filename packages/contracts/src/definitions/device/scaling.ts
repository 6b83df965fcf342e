/**
 * A PLC variable's scaling columns as stored: decimals arrive as text, unset as null (typed
 * `unknown` since the generic table's columns are).
 */
export interface ScalingColumns {
  multiplier: unknown;
  offset: unknown;
  rawLow: unknown;
  rawHigh: unknown;
  engLow: unknown;
  engHigh: unknown;
}

export interface Scaling {
  multiplier: number;
  offset: number;
}

/** A stored decimal (text) or number as a finite number; unset or not a number: undefined. */
export const decimalNumber = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** Which scaling columns are set: none of the range, all four, or a partial range (a fault). */
export function rangeState(columns: ScalingColumns): 'none' | 'complete' | 'partial' {
  const set = [columns.rawLow, columns.rawHigh, columns.engLow, columns.engHigh].filter(
    (v) => decimalNumber(v) !== undefined,
  ).length;
  return set === 0 ? 'none' : set === 4 ? 'complete' : 'partial';
}

/**
 * Raw → engineering as `value * multiplier + offset`. A complete raw low/high → engineering
 * low/high range wins over the multiplier and offset (it is the more specific statement: a
 * 4–20 mA input of 0–10 mg/L); otherwise the multiplier (default 1) and offset (default 0).
 * A range whose raw ends are equal maps nothing and is ignored here (the form refuses it).
 */
export function deriveScaling(columns: ScalingColumns): Scaling {
  if (rangeState(columns) === 'complete') {
    const rawLow = decimalNumber(columns.rawLow) as number;
    const rawHigh = decimalNumber(columns.rawHigh) as number;
    const engLow = decimalNumber(columns.engLow) as number;
    const engHigh = decimalNumber(columns.engHigh) as number;
    if (rawHigh !== rawLow) {
      const multiplier = (engHigh - engLow) / (rawHigh - rawLow);
      return { multiplier, offset: engLow - rawLow * multiplier };
    }
  }
  return { multiplier: decimalNumber(columns.multiplier) ?? 1, offset: decimalNumber(columns.offset) ?? 0 };
}

/** True when scaling changes nothing (the directory then leaves it out). */
export const isIdentity = (s: Scaling) => s.multiplier === 1 && s.offset === 0;
