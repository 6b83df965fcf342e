import { isLocalText, nameWithValue, plainValueText, type LocalText } from '@mes/contracts';

/** Longest text a table cell shows; the view dialog shows every value. */
const CELL_MAX = 160;

/**
 * A report's values as a cell reads them: `key: value` pairs in the order received, a value its
 * product's enumeration names as `key: 加药 (1)` (the reply's `valueLabels`), shortened to fit.
 */
export function valuesText(dataValues: unknown, valueLabels: unknown, lang: keyof LocalText): string {
  if (!dataValues || typeof dataValues !== 'object' || Array.isArray(dataValues)) return '';
  const labels = valueLabels && typeof valueLabels === 'object' ? (valueLabels as Record<string, unknown>) : {};
  const text = Object.entries(dataValues as Record<string, unknown>)
    .map(([key, value]) => {
      const label = labels[key];
      return `${key}: ${isLocalText(label) ? nameWithValue(label[lang], value) : plainValueText(value)}`;
    })
    .join(', ');
  return text.length > CELL_MAX ? `${text.slice(0, CELL_MAX - 1)}…` : text;
}
