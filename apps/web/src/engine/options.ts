import {
  rowMeets,
  type DictEntry,
  type FieldCondition,
  type FieldDef,
  type LocalText,
  type OptionSource,
} from '@mes/contracts';

/** One choice of a select, radio or tree picker; values are strings so URL and form agree. */
export interface Option {
  label: string;
  value: string;
  children?: Option[];
  /** The row's value of the source's `match` field, as text. */
  match?: string;
}

type Lang = keyof LocalText;

/**
 * A dictionary's entries as options. `english` (a sealed system dictionary's English labels, by
 * key) replaces the stored label where it has one, for the English interface.
 */
export function optionsFromDict(
  entries: readonly Pick<DictEntry, 'dictKey' | 'dictValue'>[],
  english?: ReadonlyMap<string, string>,
): Option[] {
  return entries.map((e) => {
    const value = String(e.dictKey);
    return { label: english?.get(value) ?? String(e.dictValue), value };
  });
}

export function optionsFromItems(items: Extract<OptionSource, { items: unknown }>['items'], lang: Lang): Option[] {
  return items.map((i) => ({ label: i.label[lang], value: String(i.value) }));
}

const first = (row: Record<string, unknown>, keys: readonly (string | undefined)[]): unknown => {
  for (const key of keys) if (key && row[key] !== undefined && row[key] !== null) return row[key];
  return undefined;
};

/**
 * Options of an endpoint: a picker forest (`{title, value|key|id, children}`), a plain list, or
 * a page (`records`); `label` / `value` name the keys of entity lists. With `where`, only rows
 * it holds for are offered; a tree node it drops gives its place to its children.
 */
export function optionsFromUrl(
  data: unknown,
  label?: string,
  value?: string,
  where?: FieldCondition,
  match?: string,
): Option[] {
  const rows = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { records?: unknown }).records)
      ? (data as { records: unknown[] }).records
      : [];
  const convert = (nodes: unknown[]): Option[] =>
    (nodes as Record<string, unknown>[])
      .filter((r) => r && typeof r === 'object')
      .flatMap((row) => {
        const children = Array.isArray(row.children) ? convert(row.children) : [];
        if (where && !rowMeets(where, row)) return children;
        const option: Option = {
          label: String(first(row, [label, 'title', 'label', 'name']) ?? ''),
          value: String(first(row, [value, 'value', 'key', 'id']) ?? ''),
        };
        if (children.length) option.children = children;
        if (match) option.match = String(row[match] ?? '');
        return [option];
      });
  return convert(rows);
}

/** value → label over a whole forest, for table cells. */
export function labelMap(options: readonly Option[]): Map<string, string> {
  const map = new Map<string, string>();
  const walk = (nodes: readonly Option[]) => {
    for (const n of nodes) {
      map.set(n.value, n.label);
      if (n.children) walk(n.children);
    }
  };
  walk(options);
  return map;
}

/** Labels of a (comma-joined) value; unknown values show as they are. */
export function labelOf(map: ReadonlyMap<string, string> | undefined, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  const text = String(value);
  if (!map) return text;
  if (map.has(text)) return map.get(text) as string;
  return text
    .split(',')
    .map((part) => map.get(part.trim()) ?? part)
    .join(', ');
}

/** The cache key of a remote source; fixed items are not fetched. */
export function sourceKey(source: OptionSource): string | undefined {
  if ('dict' in source) return `dict:${source.dict}`;
  if ('dictBiz' in source) return `dictBiz:${source.dictBiz}`;
  if ('url' in source)
    return `url:${source.url}|${source.label ?? ''}|${source.value ?? ''}${source.where ? `|${JSON.stringify(source.where)}` : ''}${source.match ? `|${source.match}` : ''}`;
  return undefined;
}

/**
 * The options a form offers for a reference that must match a field of the row (`matches`):
 * those whose `match` equals the row's value, none while that field is empty.
 */
export function matchingOptions(field: FieldDef, options: Option[] | undefined, row: Record<string, unknown>) {
  const matches = field.reference?.matches;
  if (!matches || !options) return options;
  const wanted = row[matches.field];
  if (wanted === undefined || wanted === null || wanted === '') return [];
  return options.filter((o) => o.match === String(wanted));
}
