import { createHash } from 'node:crypto';
import {
  LEGACY_API_SCOPE_IDS,
  LEGACY_DICT_IDS,
  LEGACY_MENU_IDS,
  LEGACY_PARAM_IDS,
  LEGACY_POST_IDS,
} from './legacy-ids';

/**
 * Ids of seeded rows, derived from what the row is (its kind and code), never from a position
 * in a list: reordering or inserting definitions leaves every existing id where it was.
 *
 * Derived ids lie in [10^17, 1.1 × 10^17). Read as `nextId()` snowflakes (ids.ts) these are
 * timestamps in October 2020, before any install existed, so a generated id never meets one. The
 * range holds 10^16 values; with a thousand seeded codes the chance that two share an id is
 * about 5 × 10^-11, and `buildSeed` refuses to start if it ever happens (rename the code).
 */
const DERIVED_BASE = 10n ** 17n;
const DERIVED_SPAN = 10n ** 16n;

/** The id of `parts` (kind first) in the derived range: SHA-256, first 64 bits, modulo the span. */
export function derivedSeedId(...parts: readonly string[]): string {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest();
  return String(DERIVED_BASE + (digest.readBigUInt64BE(0) % DERIVED_SPAN));
}

export const isDerivedSeedId = (id: string): boolean => {
  const value = BigInt(id);
  return value >= DERIVED_BASE && value < DERIVED_BASE + DERIVED_SPAN;
};

const legacy = (table: Readonly<Record<string, string>>, key: string) =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** A menu or button, by its menu code. */
export const menuSeedId = (code: string): string => legacy(LEGACY_MENU_IDS, code) ?? derivedSeedId('menu', code);

/** An API scope, by its scope code (`post:read`). */
export const apiScopeSeedId = (code: string): string =>
  legacy(LEGACY_API_SCOPE_IDS, code) ?? derivedSeedId('api-scope', code);

/** A system dictionary's parent row, by the dictionary code. */
export const dictSeedId = (code: string): string => legacy(LEGACY_DICT_IDS, code) ?? derivedSeedId('dict', code);

/** A system dictionary's entry, by the dictionary code and the entry's key. */
export const dictEntrySeedId = (code: string, key: string): string =>
  legacy(LEGACY_DICT_IDS, `${code}:${key}`) ?? derivedSeedId('dict', code, key);

/** A post of the platform tenant, by its code. */
export const postSeedId = (code: string): string => legacy(LEGACY_POST_IDS, code) ?? derivedSeedId('post', code);

/** A parameter, by its key. */
export const paramSeedId = (key: string): string => legacy(LEGACY_PARAM_IDS, key) ?? derivedSeedId('param', key);
