import dayjs, { type Dayjs } from 'dayjs';
import {
  childCollectionsOf,
  controlOf,
  isEmptyValue,
  isFieldVisible,
  isSubmittable,
  type FieldDef,
  type FieldMap,
  type ResourceDef,
} from '@mes/contracts';
import type { FormMode } from './resource-page-types';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** A `date` field's day, as the wire and the picker write it. */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** `'1,2'` → `['1', '2']`; blanks and empty parts are dropped. */
export function idsToArray(raw: unknown): string[] {
  if (Array.isArray(raw)) return raw.map(String).filter((s) => s.trim() !== '');
  if (raw === undefined || raw === null) return [];
  return String(raw)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `['1', '2']` → `'1,2'`. */
export const arrayToIds = (values: readonly unknown[] | undefined | null): string =>
  (values ?? [])
    .map((v) => String(v).trim())
    .filter(Boolean)
    .join(',');

const isMulti = (field: FieldDef) => ['multi-select', 'multi-tree-select'].includes(controlOf(field));
const isChoice = (field: FieldDef) => ['select', 'radio', 'tree-select'].includes(controlOf(field));

/**
 * A stored value as its form control holds it: ids lists as arrays, dates as dayjs, choices as
 * strings (option values are strings), the root parent `0` of a tree picker as nothing chosen,
 * a switch as a boolean, a JSON value as its indented text, an exact decimal as its text.
 */
export function toControlValue(field: FieldDef, raw: unknown): unknown {
  const control = controlOf(field);
  if (isMulti(field)) return idsToArray(raw);
  if (control === 'switch') return raw === true || raw === 'true';
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (control === 'datetime' || control === 'date') {
    // dayjs reads `yyyy-MM-dd` as local midnight: the same calendar day in every zone.
    const d = dayjs(String(raw));
    return d.isValid() ? d : undefined;
  }
  if (control === 'json') return typeof raw === 'string' ? raw : JSON.stringify(raw, null, 2);
  if (field.kind === 'decimal' && control === 'number') return String(raw);
  if (control === 'password') return undefined;
  if (control === 'tree-select' && field.kind === 'id' && String(raw) === '0') return undefined;
  if (isChoice(field)) return String(raw);
  if (control === 'number') {
    const n = Number(raw);
    return Number.isFinite(n) ? n : undefined;
  }
  return raw;
}

/** A control's value in the form the server takes (and `checkField` checks). */
export function toWireValue(field: FieldDef, value: unknown): unknown {
  if (isMulti(field)) return arrayToIds(Array.isArray(value) ? value : idsToArray(value));
  if (controlOf(field) === 'switch') return value === true || value === 'true';
  if (value === undefined || value === null) return '';
  if (dayjs.isDayjs(value)) return (value as Dayjs).format(controlOf(field) === 'date' ? DAY_FORMAT : DATE_TIME_FORMAT);
  if (controlOf(field) === 'json') return jsonOfText(value);
  if ((field.kind === 'int' || field.kind === 'decimal') && isChoice(field) && !isEmptyValue(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  return value;
}

/**
 * A JSON editor's text as its value; text that is not JSON goes as it is, so that the shared
 * check names the problem (and a field whose schema is a string takes the text itself).
 */
function jsonOfText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return '';
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The form's values as the server would receive them: what `requiredWhen` and `visibleWhen` read. */
export function wireRow(fields: FieldMap, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, toWireValue(field, values[name])]));
}

/** Fields whose `requiredWhen` or `visibleWhen` reads one of the changed fields. */
export function dependentsOf(fields: FieldMap, changed: readonly string[]): string[] {
  return Object.entries(fields)
    .filter(([, f]) => [f.requiredWhen, f.visibleWhen].some((c) => c !== undefined && changed.includes(c.field)))
    .map(([name]) => name);
}

/**
 * The derived fields (`derive`) that read one of the changed fields, computed from the form's
 * wire row by the same function the server runs, as control values: the form shows an article's
 * expiry as soon as its material and pack date are chosen. The server computes them again.
 */
export function derivedFormValues(
  fields: FieldMap,
  changed: readonly string[],
  row: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields))
    if (field.derive?.from.some((f) => changed.includes(f))) out[name] = toControlValue(field, field.derive.value(row));
  return out;
}

/** Initial values of the add form: each field's default, then what the caller pre-fills. */
export function addFormValues(fields: FieldMap, initial: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const raw = Object.prototype.hasOwnProperty.call(initial, name) ? initial[name] : field.default;
    out[name] = toControlValue(field, raw);
  }
  return out;
}

/** A loaded row as the edit / view form holds it. */
export function rowFormValues(fields: FieldMap, row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, toControlValue(field, row[name])]));
}

/**
 * The submit body: the fields the form may change (in their wire form), plus pre-filled values
 * the definition does not hold (a screen's extra keys). A secret left empty on edit is left out,
 * so the stored one stays. A field its `visibleWhen` hides is left out (the server ignores it).
 */
export function submitBody(
  fields: FieldMap,
  values: Record<string, unknown>,
  adding: boolean,
  initial: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(initial)) if (!(name in fields)) out[name] = value;
  const row = wireRow(fields, values);
  for (const [name, field] of Object.entries(fields)) {
    if (!isSubmittable(field, adding) || !isFieldVisible(field, row)) continue;
    const wire = toWireValue(field, values[name]);
    if (field.kind === 'secret' && !adding && isEmptyValue(wire)) continue;
    out[name] = wire;
  }
  return out;
}

/**
 * How a field appears in the dialog: editable, shown disabled, or not at all (also while its
 * `visibleWhen` does not hold for the form's `row`, in wire form; and a read-only field without
 * a default when adding).
 */
export function fieldPresence(
  field: FieldDef,
  mode: FormMode,
  row: Record<string, unknown>,
): 'edit' | 'disabled' | 'hidden' {
  if (field.form === false || field.savedBy !== undefined || !isFieldVisible(field, row)) return 'hidden';
  const secret = field.kind === 'secret' || controlOf(field) === 'password';
  if (mode === 'view') return secret ? 'hidden' : 'disabled';
  if (field.form === 'create' && mode !== 'add') return secret ? 'hidden' : 'disabled';
  // A new row has nothing to show in a field only the server fills (operator, hashes, review),
  // unless the definition names the value it will get or the form computes it as the user types.
  if (field.form === 'readonly')
    return mode === 'add' && field.default === undefined && !field.derive ? 'hidden' : 'disabled';
  return 'edit';
}

/** One row of a child sub-table as the form holds it: a local key, its stored id, control values. */
export interface ChildFormRow {
  key: string;
  id?: string;
  [field: string]: unknown;
}

let childKeys = 0;
/** Keys of rows while the dialog is open; stored ids are not enough (new rows have none). */
export const newChildKey = () => `new-${++childKeys}`;

/** A new child row: the child definition's defaults. */
export function newChildRow(child: FieldMap): ChildFormRow {
  return { key: newChildKey(), ...addFormValues(child) };
}

/**
 * The child collections of a loaded row (detail) or of a new one, as the form holds them: an
 * array of rows per collection name, in the order the server sent them.
 */
export function childFormValues(def: ResourceDef, row: Record<string, unknown>): Record<string, ChildFormRow[]> {
  const out: Record<string, ChildFormRow[]> = {};
  for (const { name, child } of childCollectionsOf(def)) {
    const rows = Array.isArray(row[name]) ? (row[name] as Record<string, unknown>[]) : [];
    out[name] = rows.map((r) => ({
      key: r.id === undefined || r.id === null ? newChildKey() : `id-${String(r.id)}`,
      ...(r.id === undefined || r.id === null ? {} : { id: String(r.id) }),
      ...rowFormValues(child.fields, r),
    }));
  }
  return out;
}

/** Child rows as the submit carries them: the stored id (when there is one) and the editable fields in wire form. */
export function childWireRows(child: FieldMap, rows: readonly ChildFormRow[] | undefined): Record<string, unknown>[] {
  return (rows ?? []).map((r) => {
    const out: Record<string, unknown> = r.id ? { id: r.id } : {};
    const values = wireRow(child, r);
    for (const [name, field] of Object.entries(child))
      if (isSubmittable(field, true) && isFieldVisible(field, values)) out[name] = toWireValue(field, r[name]);
    return out;
  });
}

/** The submit body's child collections: every collection, as the whole ordered list of its rows. */
export function childSubmitBody(def: ResourceDef, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    childCollectionsOf(def).map(({ name, child }) => [
      name,
      childWireRows(child.fields, values[name] as ChildFormRow[] | undefined),
    ]),
  );
}
