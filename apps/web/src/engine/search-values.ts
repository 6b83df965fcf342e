import dayjs, { type Dayjs } from 'dayjs';
import { controlOf, type FieldMap, type LocalText } from '@mes/contracts';
import { DATE_TIME_FORMAT, DAY_FORMAT } from './form-values';
import { CREATED_FROM, CREATED_TO, dropEmpty } from './list-params';

/** The search form's name of the created-time range picker. */
export const CREATED_RANGE = 'createTimeRange';

type Range = [Dayjs | null, Dayjs | null] | null | undefined;

/** The search form's values → list filters (empty ones dropped, the range as two names). */
export function searchFilters(fields: FieldMap, values: Record<string, unknown>): Record<string, string> {
  const plain: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) {
    const value = values[name];
    // A day filter goes as its day (`madeOn=2026-11-24`), never as a dayjs's text.
    plain[name] = dayjs.isDayjs(value) ? value.format(DAY_FORMAT) : value;
  }
  const range = values[CREATED_RANGE] as Range;
  plain[CREATED_FROM] = range?.[0]?.format(DATE_TIME_FORMAT);
  plain[CREATED_TO] = range?.[1]?.format(DATE_TIME_FORMAT);
  return dropEmpty(plain);
}

/** List filters → the search form's values (numbers as numbers, the range as dayjs). */
export function searchFormValues(fields: FieldMap, filters: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const raw = filters[name];
    if (raw === undefined) continue;
    const control = controlOf(field);
    if (control === 'date') {
      const d = dayjs(raw);
      if (d.isValid()) out[name] = d;
      continue;
    }
    // Exact decimals stay text (the input keeps them in string mode).
    const numeric = control === 'number' && field.kind !== 'decimal' && Number.isFinite(Number(raw));
    out[name] = numeric ? Number(raw) : raw;
  }
  const day = (raw: string | undefined) => {
    const d = raw ? dayjs(raw) : undefined;
    return d?.isValid() ? d : null;
  };
  const from = day(filters[CREATED_FROM]);
  const to = day(filters[CREATED_TO]);
  if (from || to) out[CREATED_RANGE] = [from, to];
  return out;
}

/**
 * What the created-time picker of a series list (a log) says while empty: the server then reads
 * only the last `hours` (docs/series.md), so older rows are absent until a wider range is chosen.
 */
export function seriesRangePlaceholder(hours: number, lang: keyof LocalText): [string, string] {
  const span =
    hours % 24 === 0 ? { zh: `${hours / 24} 天`, en: `${hours / 24} d` } : { zh: `${hours} 小时`, en: `${hours} h` };
  return lang === 'zh' ? [`默认最近 ${span.zh}`, '至今'] : [`Default: last ${span.en}`, 'now'];
}

/** Quick ranges of a series list's picker: the default span, a week, a month, ending now. */
export function seriesRangePresets(
  hours: number,
  lang: keyof LocalText,
  now: Dayjs = dayjs(),
): { label: string; value: [Dayjs, Dayjs] }[] {
  const spans: [LocalText, Dayjs][] = [
    [{ zh: `最近 ${hours} 小时`, en: `Last ${hours} h` }, now.subtract(hours, 'hour')],
    [{ zh: '最近 7 天', en: 'Last 7 days' }, now.subtract(7, 'day')],
    [{ zh: '最近 30 天', en: 'Last 30 days' }, now.subtract(30, 'day')],
  ];
  return spans.map(([label, from]) => ({ label: label[lang], value: [from, now] }));
}
