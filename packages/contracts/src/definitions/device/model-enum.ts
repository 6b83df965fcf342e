import type { FieldDef, LocalText } from '../../engine/define';
import type { Lang } from '../../engine/validate';

/** One named value of an enumerated model field: program 1 → 134℃ 标准 / 134 °C standard. */
export interface EnumEntry {
  value: string;
  zh: string;
  en: string;
}

/** What labelling needs of a model field: its key and its enumeration (none for most fields). */
export interface EnumeratedField {
  fieldKey: string;
  enumeration?: readonly EnumEntry[] | null;
}

/** Most entries one field may declare; a fault list is the longest in practice (tens). */
export const MAX_ENUM_ENTRIES = 200;

/**
 * The model field's `enumeration` column: a list of `{value, zh, en}`, values unique (as text),
 * labels non-empty and bounded. Checked by the form and the server alike (`checkField`).
 */
export const enumerationField = {
  kind: 'json',
  label: { zh: '枚举值', en: 'Enumeration' },
  nullable: true,
  max: 32_768,
  width: 220,
  schema: {
    type: 'array',
    maxItems: MAX_ENUM_ENTRIES,
    uniqueBy: 'value',
    items: {
      type: 'object',
      required: ['value', 'zh', 'en'],
      additionalProperties: false,
      properties: {
        value: { type: 'string', minLength: 1, maxLength: 32, title: { zh: '值', en: 'Value' } },
        zh: { type: 'string', minLength: 1, maxLength: 64, title: { zh: '中文名称', en: 'Chinese name' } },
        en: { type: 'string', minLength: 1, maxLength: 64, title: { zh: '英文名称', en: 'English name' } },
      },
    },
  },
} as const satisfies FieldDef;

const NUMERIC = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Whether a stored or received value is the entry's value. Numbers compare as numbers, so the
 * decimal text the IoT list keeps (`"3.000000"`) and a JSON `3` both find the entry `"3"`;
 * anything else compares as trimmed text (a fault code `"E04"`).
 */
function matches(entry: EnumEntry, value: string | number | boolean): boolean {
  const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value).trim();
  const own = entry.value.trim();
  if (own === text) return true;
  return NUMERIC.test(own) && NUMERIC.test(text) && Number(own) === Number(text);
}

/** The entry naming `value` in the model field `fieldKey`, or undefined when none does. */
export function enumEntryOf(
  fields: readonly EnumeratedField[],
  fieldKey: string,
  value: unknown,
): EnumEntry | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const field = fields.find((f) => f.fieldKey === fieldKey);
  return field?.enumeration?.find((entry) => matches(entry, value));
}

/** The value's name in both languages, or undefined when the field names no such value. */
export function enumLabelOf(
  fields: readonly EnumeratedField[],
  fieldKey: string,
  value: unknown,
): LocalText | undefined {
  const entry = enumEntryOf(fields, fieldKey, value);
  return entry ? { zh: entry.zh, en: entry.en } : undefined;
}

/**
 * What a person reads for a model value: its name in `lang` when the field's enumeration names
 * it, else the value itself as text (empty for no value). Server replies, exports and the web
 * pages all label through this one function.
 */
export function modelValueLabel(
  fields: readonly EnumeratedField[],
  fieldKey: string,
  value: unknown,
  lang: Lang,
): string {
  const entry = enumEntryOf(fields, fieldKey, value);
  if (entry) return entry[lang];
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
}

/**
 * The names of those of `values` (field key → value, as acquisition data holds them) that an
 * enumeration names; fields without a name are left out, so the map is empty for most rows.
 */
export function enumLabelsOf(
  fields: readonly EnumeratedField[],
  values: Readonly<Record<string, unknown>> | null | undefined,
): Record<string, LocalText> {
  const labels: Record<string, LocalText> = {};
  if (!values) return labels;
  for (const [key, value] of Object.entries(values)) {
    const label = enumLabelOf(fields, key, value);
    if (label) labels[key] = label;
  }
  return labels;
}
