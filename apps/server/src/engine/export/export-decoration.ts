import type { Row } from '../resource-hooks';

/**
 * A module's `decorate` for rows the export thread reads (issue 31 point 3): the thread sends the
 * fields the hook reads (`ResourceHooks.decorateReads`), the main thread runs the hook itself on
 * rows of those fields alone, and answers what it added or changed; the thread merges that into
 * its rows. The hook stays the one code that decorates, for lists and exports alike, and the main
 * thread copies a few fields a row instead of parsing and copying the whole row.
 */

/** A page's rows, as the fields listed in `keys`: plain data, it crosses between the threads. */
export interface DecorationInput {
  keys: string[];
  values: unknown[][];
  /** The rows' other fields, which the hook must not read. */
  others: string[];
}

/** What the hook added to or changed in each row of the page, `values[r][k]` for `keys[k]`. */
export interface DecorationPatch {
  keys: string[];
  values: unknown[][];
}

/** The export thread's half: the fields the hook reads, of each row of a page. */
export function decorationInput(rows: readonly Row[], keys: readonly string[]): DecorationInput {
  const values: unknown[][] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Row;
    values[r] = keys.map((key) => row[key]);
  }
  const declared = new Set(keys);
  const others = rows.length ? Object.keys(rows[0] as Row).filter((key) => !declared.has(key)) : [];
  return { keys: [...keys], values, others };
}

/**
 * The prototype of a page's rows, whose every other field refuses to be read: a hook reading a
 * field its `decorateReads` leaves out would decorate the export differently from the list, so it
 * fails the export instead of writing cells that differ. Accessors of the prototype, not a Proxy:
 * a spread of the row (`{ ...row }`) copies its own fields alone, at a plain object's speed (a
 * Proxy's was most of the decoration's cost here). A hook may still set such a field.
 */
function guardOf(others: readonly string[]): object {
  const guard: PropertyDescriptorMap = {};
  for (const key of others)
    guard[key] = {
      get() {
        throw new Error(`decorate read '${key}', which its decorateReads does not list`);
      },
      set(this: Row, value: unknown) {
        Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
      },
    };
  return Object.create(null, guard) as object;
}

const same = (a: unknown, b: unknown) =>
  a === b || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime());

/** The main thread's half: the hook run on the page's declared fields, answered as its changes. */
export async function decoratedPatch(
  decorate: (rows: Row[]) => Promise<Row[]>,
  input: DecorationInput,
): Promise<DecorationPatch> {
  const guard = guardOf(input.others);
  const given = input.values.map((values) => {
    const row = Object.create(guard) as Row;
    for (let k = 0; k < input.keys.length; k++) row[input.keys[k] as string] = values[k];
    return row;
  });
  // The hook may decorate in place: each row's given values are kept aside to compare with.
  const before = given.map((row) => ({ ...row }) as Row);
  const out = await decorate(given);
  if (out.length !== given.length) throw new Error('decorate answered a different number of rows');
  const keys = new Set<string>();
  out.forEach((row, r) => {
    const was = before[r] as Row;
    for (const key of Object.keys(row)) if (!(key in was) || !same(row[key], was[key])) keys.add(key);
  });
  const patchKeys = [...keys];
  return { keys: patchKeys, values: out.map((row) => patchKeys.map((key) => row[key])) };
}

/** The export thread's half again: the hook's fields merged into the page's rows. */
export function mergeDecoration(rows: Row[], patch: DecorationPatch): void {
  if (patch.values.length !== rows.length) throw new Error('decoration answered a different number of rows');
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Row;
    const values = patch.values[r] as unknown[];
    for (let k = 0; k < patch.keys.length; k++) row[patch.keys[k] as string] = values[k];
  }
}
