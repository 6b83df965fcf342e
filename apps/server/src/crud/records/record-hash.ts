import { createHash } from 'node:crypto';
import { UNHASHED_RECORD_FIELDS, type ResourceDef } from '@mes/contracts';

export type RecordRow = Record<string, unknown>;

/** The hash before a chain's first row. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The names a record's hash covers, sorted: its id and tenant, and every field but the states it
 * moves through later (review, supersession) and the hashes themselves.
 */
export function hashedFields(def: ResourceDef): string[] {
  const skip = new Set(UNHASHED_RECORD_FIELDS);
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
