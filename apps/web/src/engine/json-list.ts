import type { JsonSchema, LocalText } from '@mes/contracts';

/** A property of a row of a list edited as rows: text or a number. */
export interface ListColumn {
  key: string;
  title: LocalText;
  numeric: boolean;
  max?: number;
}

/**
 * The columns when a `json` field's schema is a list of flat objects (every property text or a
 * number): such a value is edited as rows of inputs (an enumeration's `{value, zh, en}`), not as
 * JSON text. Undefined for any other schema.
 */
export function listColumnsOf(schema: JsonSchema | undefined): ListColumn[] | undefined {
  if (schema?.type !== 'array' || schema.items?.type !== 'object') return undefined;
  const properties = Object.entries(schema.items.properties ?? {});
  if (!properties.length) return undefined;
  const columns: ListColumn[] = [];
  for (const [key, property] of properties) {
    if (property.type === 'string')
      columns.push({ key, title: property.title ?? { zh: key, en: key }, numeric: false, max: property.maxLength });
    else if (property.type === 'number' || property.type === 'integer')
      columns.push({ key, title: property.title ?? { zh: key, en: key }, numeric: true });
    else return undefined;
  }
  return columns;
}

/** The rows of the form's value (JSON text, as the form holds a `json` field, or the list itself). */
export function listRowsOf(value: unknown): Record<string, unknown>[] | undefined {
  let parsed = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return [];
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  if (parsed === null || parsed === undefined) return [];
  if (!Array.isArray(parsed)) return undefined;
  return parsed.map((row) => (row && typeof row === 'object' && !Array.isArray(row) ? { ...row } : {}));
}

/**
 * The form's value for edited rows: JSON text, as the text area would hold it, so the same
 * `checkField` reports a repeated value or a blank name; rows left wholly empty are dropped.
 */
export function listValueOf(rows: readonly Record<string, unknown>[], columns: readonly ListColumn[]): string {
  const kept = rows
    .map((row) => {
      const out: Record<string, unknown> = {};
      for (const c of columns) {
        const cell = row[c.key];
        if (cell === undefined || cell === null || cell === '') continue;
        out[c.key] = c.numeric ? Number(cell) : String(cell);
      }
      return out;
    })
    .filter((row) => Object.keys(row).length > 0);
  return JSON.stringify(kept);
}
