/**
 * Exact decimals (`NUMERIC(precision, scale)`). They travel as text (`"12.50"`): a JavaScript
 * number cannot hold every such value (0.1 + 0.2, or more than 15 significant digits), so the
 * browser and the server both read a value digit by digit and never through a float.
 */

/** Total digits and digits after the point, as in PostgreSQL's `NUMERIC(p, s)`. */
export interface DecimalShape {
  precision: number;
  scale: number;
}

/** The shape of a `decimal` field that declares none: up to 16 digits before the point, 2 after. */
export const DEFAULT_DECIMAL_SHAPE: DecimalShape = { precision: 18, scale: 2 };

/** PostgreSQL's upper bound for a declared precision. */
export const MAX_DECIMAL_PRECISION = 1000;

/** Plain or scientific notation; at most this many characters, so no input costs much to read. */
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;
const MAX_TEXT = 1100;

export type DecimalProblem = 'notNumber' | 'tooManyDecimals' | 'tooManyDigits';

export type DecimalReading = { ok: true; text: string } | { ok: false; problem: DecimalProblem };

/**
 * The digits to read: a JSON number as JavaScript prints it (`1e-7` included), text only in
 * plain notation (`1e400` is no one's way of typing an amount).
 */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string' && !/[eE]/.test(value)) return value.trim();
  return undefined;
}

/**
 * Reads a decimal given as a JSON number or as text and returns it in its canonical form:
 * `scale` digits after the point (`"12.5"` → `"12.50"`), no leading zeros, no sign on zero.
 * Refuses a value with more significant decimals than `scale` or more integer digits than
 * `precision - scale` (PostgreSQL would round the first silently and refuse the second).
 */
export function readDecimal(value: unknown, shape: DecimalShape): DecimalReading {
  const text = textOf(value);
  if (text === undefined || text.length > MAX_TEXT) return { ok: false, problem: 'notNumber' };
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return { ok: false, problem: 'notNumber' };
  const [, sign = '', whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return { ok: false, problem: 'notNumber' };
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  // All digits, and where the point sits among them once the exponent has moved it.
  let digits = whole + fraction;
  let point = whole.length + exponent;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const integerPart = digits.slice(0, point).replace(/^0+/, '');
  const fractionPart = digits.slice(point).replace(/0+$/, '');
  if (fractionPart.length > shape.scale) return { ok: false, problem: 'tooManyDecimals' };
  if (integerPart.length > shape.precision - shape.scale) return { ok: false, problem: 'tooManyDigits' };
  const isZero = integerPart === '' && fractionPart === '';
  const scaled = shape.scale > 0 ? `.${fractionPart.padEnd(shape.scale, '0')}` : '';
  return { ok: true, text: `${sign === '-' && !isZero ? '-' : ''}${integerPart || '0'}${scaled}` };
}

/** Compares two canonical decimals of the same shape (or any plain decimal texts): -1, 0 or 1. */
export function compareDecimal(a: string, b: string): number {
  const negA = a.startsWith('-');
  const negB = b.startsWith('-');
  if (negA !== negB) return negA ? -1 : 1;
  const [ai = '', af = ''] = a.replace(/^[+-]/, '').split('.');
  const [bi = '', bf = ''] = b.replace(/^[+-]/, '').split('.');
  const width = Math.max(af.length, bf.length);
  const ia = ai.replace(/^0+/, '');
  const ib = bi.replace(/^0+/, '');
  let order = ia.length !== ib.length ? Math.sign(ia.length - ib.length) : 0;
  if (order === 0) {
    const x = ia + af.padEnd(width, '0');
    const y = ib + bf.padEnd(width, '0');
    order = x === y ? 0 : x < y ? -1 : 1;
  }
  return negA ? -order : order;
}
