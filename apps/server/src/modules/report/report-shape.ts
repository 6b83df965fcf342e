import {
  formatDateTime,
  type FieldDef,
  type LocalText,
  type ReportColumn,
  type ReportData,
  type ReportFigure,
  type ReportMeasure,
  type ReportPeriod,
  type ReportSection,
} from '@mes/contracts';
import type { Row } from '../../engine/resource-hooks';

/**
 * A report's rows made into its data (columns, cells, sections, figures), given the plan the main
 * thread made of the template (report-data.ts): plain data on both sides, so the render thread
 * that reads a long report's rows itself shapes them too (docs/reports.md "Where the work runs").
 */

/** What a cell needs of its field: its kind (a day prints without its time) and its enumeration's names. */
export interface CellField {
  kind: FieldDef['kind'];
  items?: { value: string; label: string }[];
}

export function cellFieldOf(field: FieldDef | undefined): CellField | undefined {
  if (!field) return undefined;
  const options = field.options;
  const items = options && 'items' in options ? options.items : undefined;
  return {
    kind: field.kind,
    ...(items ? { items: items.map((i) => ({ value: String(i.value), label: i.label.zh })) } : {}),
  };
}

/** How a column reads a row: the label the engine named (`named`), when there is one, else the value. */
export interface CellSpec {
  key: string;
  named?: string;
  field?: CellField;
}

/** What the template and the run decided, for rows still to be read. */
export interface ReportShape {
  title: string;
  subtitle: string;
  columns: ReportColumn[];
  cells: CellSpec[];
  /** A register: its rows in sections by period and group fields. */
  sections?: {
    period: ReportPeriod | undefined;
    dateField: string | undefined;
    groupBy: CellSpec[];
    measures: ReportMeasure[];
  };
  /** A summary's measures over every matching row (read with the groups). */
  totals?: Record<string, number | null>;
  /** At most this many rows; the query reads one more, which makes the report too long. */
  limit: number;
  /** Too long: keep the first `limit` rows (a preview) instead of refusing the report. */
  truncate: boolean;
}

export const MEASURE_NAMES: Record<ReportMeasure['fn'], LocalText> = {
  count: { zh: '数量', en: 'Count' },
  sum: { zh: '合计', en: 'Sum' },
  avg: { zh: '平均', en: 'Average' },
  min: { zh: '最小', en: 'Min' },
  max: { zh: '最大', en: 'Max' },
  countTrue: { zh: '是', en: 'Yes' },
};
const cellOf = (value: unknown, field: CellField | undefined): string | number | null => {
  if (value === null || value === undefined) return null;
  // An enumeration reads by its name (the list's label), never its code (`2` was 灭菌).
  const item = field?.items?.find((i) => i.value === String(value));
  if (item) return item.label;
  if (value instanceof Date) return field?.kind === 'date' ? formatDateTime(value).slice(0, 10) : formatDateTime(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

const readCell = (row: Row, spec: CellSpec): unknown => {
  const named = spec.named === undefined ? undefined : row[spec.named];
  return named !== undefined && named !== '' ? named : row[spec.key];
};

/**
 * The report's data from its rows (at most `limit + 1`, as the query reads them), or how many rows
 * it may have when there are more and the plan does not allow cutting them.
 */
export function shapeReport(shape: ReportShape, rows: Row[]): { data: ReportData } | { tooMany: number } {
  if (rows.length > shape.limit) {
    if (!shape.truncate) return { tooMany: shape.limit };
    rows.length = shape.limit;
  }
  const sectioned = shape.sections ? sectionsOf(rows, shape.sections) : undefined;
  const out = (sectioned?.rows ?? rows).map((row) =>
    Object.fromEntries(shape.cells.map((c) => [c.key, cellOf(readCell(row, c), c.field)])),
  );
  return {
    data: {
      title: shape.title,
      subtitle: shape.subtitle,
      columns: shape.columns,
      rows: out,
      totals: shape.totals,
      ...(sectioned ? { sections: sectioned.sections, summary: sectioned.summary } : {}),
    },
  };
}

/** A field's value as a reader sees it: the label the engine named, or the value. */
function displayOf(row: Row, spec: CellSpec): string {
  const named = spec.named === undefined ? undefined : row[spec.named];
  if (named !== undefined && named !== null && named !== '') return String(named);
  const cell = cellOf(row[spec.key], spec.field);
  return cell === null ? '' : String(cell);
}

/** The time bucket of an instant as printed: the day, the week's Monday, or the month. */
function bucketOf(value: unknown, period: ReportPeriod): string {
  if (!(value instanceof Date)) return '';
  if (period === 'month') return formatDateTime(value).slice(0, 7);
  if (period === 'day') return formatDateTime(value).slice(0, 10);
  const monday = new Date(value.getFullYear(), value.getMonth(), value.getDate() - ((value.getDay() + 6) % 7));
  return formatDateTime(monday).slice(0, 10);
}

/** A measure over a section's rows; its field may be one a module's decorate adds (`loadPacks`). */
function measureOf(rows: Row[], m: ReportMeasure): number | null {
  if (m.fn === 'count') return rows.length;
  const values = rows.map((r) => r[m.field ?? '']);
  if (m.fn === 'countTrue') return values.filter((v) => v === true).length;
  const numbers = values
    .map((v) => (v === null || v === undefined || v === '' ? NaN : Number(v)))
    .filter(Number.isFinite);
  if (m.fn === 'sum') return numbers.reduce((a, b) => a + b, 0);
  if (!numbers.length) return null;
  if (m.fn === 'min') return Math.min(...numbers);
  if (m.fn === 'max') return Math.max(...numbers);
  return Math.round((numbers.reduce((a, b) => a + b, 0) / numbers.length) * 100) / 100;
}

const figureLabel = (m: ReportMeasure): LocalText => m.label ?? MEASURE_NAMES[m.fn];

/**
 * A register's rows in sections: by the time bucket of the date field, then by the group fields'
 * labels, each in date order; each section with its measures, and the measures over all rows.
 */
function sectionsOf(
  rows: Row[],
  spec: NonNullable<ReportShape['sections']>,
): { rows: Row[]; sections: ReportSection[]; summary: ReportFigure[] } {
  const measures: ReportMeasure[] = spec.measures.length ? spec.measures : [{ fn: 'count' }];
  const keyed = rows.map((row) => {
    const parts = [
      ...(spec.period && spec.dateField ? [bucketOf(row[spec.dateField], spec.period)] : []),
      ...spec.groupBy.map((g) => displayOf(row, g) || '—'),
    ];
    const at = spec.dateField ? row[spec.dateField] : undefined;
    return { row, parts, at: at instanceof Date ? at.getTime() : 0 };
  });
  const compare = (a: string[], b: string[]) => {
    for (let i = 0; i < a.length; i++) {
      const c = (a[i] ?? '').localeCompare(b[i] ?? '', 'zh');
      if (c) return c;
    }
    return 0;
  };
  keyed.sort((a, b) => compare(a.parts, b.parts) || a.at - b.at);
  const sections: ReportSection[] = [];
  let start = 0;
  for (let i = 1; i <= keyed.length; i++) {
    if (i < keyed.length && !compare(keyed[i]!.parts, keyed[start]!.parts)) continue;
    const members = keyed.slice(start, i).map((k) => k.row);
    sections.push({
      label: keyed[start]!.parts.join(' · '),
      size: members.length,
      subtotals: measures.map((m) => ({ label: figureLabel(m), value: measureOf(members, m) })),
    });
    start = i;
  }
  const ordered = keyed.map((k) => k.row);
  return {
    rows: ordered,
    sections,
    summary: measures.map((m) => ({ label: figureLabel(m), value: measureOf(ordered, m) })),
  };
}
