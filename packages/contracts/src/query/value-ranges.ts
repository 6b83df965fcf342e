/**
 * The ranges values must fit before they reach a column: a value outside them would make
 * PostgreSQL refuse the query (an error, not a clear 400), so both the server and the forms
 * check them first.
 */

/** `integer` columns (int4). */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/** The largest `bigint` (ids are positive 64-bit integers). */
export const MAX_ID_TEXT = '9223372036854775807';

/**
 * An id as the API carries it: decimal digits (at most 19) not above the signed 64-bit maximum.
 * Leading zeros are allowed, as `0` is the root of every tree.
 */
export function isIdText(text: string): boolean {
  if (!/^\d{1,19}$/.test(text)) return false;
  return text.length < MAX_ID_TEXT.length || text <= MAX_ID_TEXT;
}

/** A whole number an `integer` column holds. */
export const isInt4 = (n: number): boolean => Number.isInteger(n) && n >= INT4_MIN && n <= INT4_MAX;
