import { createHash } from 'node:crypto';
import { RECORD_HASH_VERSION, RECORD_STATE_FIELDS, UNHASHED_RECORD_FIELDS, type ResourceDef } from '@mes/contracts';

export type RecordRow = Record<string, unknown>;

/** The hash before a chain's first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** The hash scheme of a stored row: 1 for rows written before `hashVersion` existed. */
export const hashVersionOf = (row: RecordRow): number => (Number(row.hashVersion) >= 2 ? Number(row.hashVersion) : 1);

/**
 * The names a record's content hash covers under a hash version, sorted: its id and tenant, and
 * every field but the hashes and the later states. Version 1 (rows written before version 2)
 * also leaves out `hashVersion`, which did not exist; version 2 covers it, so a row cannot be
 * made to pass as version 1.
 */
export function hashedFields(def: ResourceDef, version: number = RECORD_HASH_VERSION): string[] {
  const skip = new Set(UNHASHED_RECORD_FIELDS);
  if (version < 2) skip.add('hashVersion');
  const names = Object.entries(def.fields)
    .filter(([name, field]) => !skip.has(name) && field.kind !== 'secret')
    .map(([name]) => name);
  return ['id', 'tenantId', ...names].sort();
}

/**
 * One text per value whatever the driver hands back: instants as ISO text, objects with sorted
 * keys (jsonb does not keep key order), numbers and decimals as their text. The hash is always
 * computed from the row as read back from the database, so writer and verifier see the same values.
 */
function canonical(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as RecordRow)[k])]),
    );
  return value;
}

/** SHA-256 (hex) of the row's hashed fields, in name order, followed by the previous row's hash. */
export function recordHash(fields: readonly string[], row: RecordRow, prevHash: string): string {
  const content = JSON.stringify(fields.map((name) => [name, canonical(row[name])]));
  return createHash('sha256').update(content).update('\n').update(prevHash).digest('hex');
}

/**
 * SHA-256 (hex) of the row's review and supersession state, bound to its content hash: a change
 * of review fields or of `superseded` made behind the engine's back no longer matches.
 */
export function stateHash(row: RecordRow): string {
  const content = JSON.stringify(RECORD_STATE_FIELDS.map((name) => [name, canonical(row[name])]));
  return createHash('sha256').update('state\n').update(content).update('\n').update(String(row.rowHash)).digest('hex');
}
