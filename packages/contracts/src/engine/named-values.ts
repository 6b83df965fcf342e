import type { LocalText } from './define';

/**
 * Where a reply names a field's value: `<field>Label`, `{zh, en}`, added by a module's decorate
 * hook (a warning's enumerated `triggerValue` → `triggerValueLabel`). The engine's table cells
 * and xlsx read it; the value itself stays in `<field>`.
 */
export const valueLabelKeyOf = (field: string) => `${field}Label`;

export const isLocalText = (value: unknown): value is LocalText =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).zh === 'string' &&
  typeof (value as Record<string, unknown>).en === 'string';

const DECIMAL_TEXT = /^[-+]?\d+\.\d+$/;

/** A value as a person reads it: decimal text without its padding zeros (`"3.000000"` → `3`). */
export function plainValueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' && DECIMAL_TEXT.test(value.trim())) return String(Number(value));
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
}

/** A name with its value after it, as lists and sheets show a named value: `灭菌 (3)`. */
export const nameWithValue = (name: string, value: unknown) => `${name} (${plainValueText(value)})`;

/**
 * The row's named `field` in `lang` with its value (`灭菌 (3)`), or undefined when the reply
 * names no value of that field (or there is no value).
 */
export function namedValueText(row: Readonly<Record<string, unknown>>, field: string, lang: keyof LocalText) {
  const label = row[valueLabelKeyOf(field)];
  const value = row[field];
  if (!isLocalText(label) || value === null || value === undefined || value === '') return undefined;
  return nameWithValue(label[lang], value);
}
