import { displayNameOf, type FieldDef, type LocalText } from '@mes/contracts';
import type { Option } from './options';

type Lang = keyof LocalText;

const YES_NO: Record<Lang, readonly [string, string]> = { zh: ['是', '否'], en: ['Yes', 'No'] };

/** The yes / no choices of a boolean filter; values as the list query takes them. */
export const yesNoOptions = (lang: Lang): Option[] => [
  { label: YES_NO[lang][0], value: 'true' },
  { label: YES_NO[lang][1], value: 'false' },
];

/** Longest JSON text a table cell shows; the view dialog shows all of it. */
const JSON_CELL_MAX = 80;

/**
 * A list cell of a field whose kind decides how it reads, or undefined for the raw value:
 * a referenced row by the name the server sent beside the id (`<field>Name`), a boolean as
 * 是 / 否, a JSON value as its (shortened) text. Decimals and days already read as text.
 */
export function kindCell(field: FieldDef, name: string, row: Record<string, unknown>, lang: Lang): string | undefined {
  const value = row[name];
  switch (field.kind) {
    case 'reference': {
      const label = row[displayNameOf(name)];
      if (typeof label === 'string' && label !== '') return label;
      return value === null || value === undefined ? '' : String(value);
    }
    case 'boolean':
      return typeof value === 'boolean' ? YES_NO[lang][value ? 0 : 1] : '';
    case 'json': {
      if (value === null || value === undefined) return '';
      const text = JSON.stringify(value);
      return text.length > JSON_CELL_MAX ? `${text.slice(0, JSON_CELL_MAX - 1)}…` : text;
    }
    default:
      return undefined;
  }
}

/** Whether a field's cells read through {@link kindCell}. */
export const hasKindCell = (field: FieldDef) =>
  field.kind === 'reference' || field.kind === 'boolean' || field.kind === 'json';
