import {
  apiScopeCodes,
  displayNameOf,
  formatDateTime,
  parseDateTime,
  REPORT_MAX_ROWS,
  REPORT_PERIODS,
  ledgerRange,
  type BilingualText,
  type FieldDef,
  type LocalText,
  type ReportColumn,
  type ReportData,
  type ReportFigure,
  type ReportMeasure,
  type ReportSection,
  type ReportPeriod,
  type ReportRunParams,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { resourceServiceOf, type Row } from '../../engine/resource-routes';
import { PERIOD_KEY, type SummaryMeasure } from '../../engine/summary/summary';
import { summarize } from '../../engine/summary/summarize';
import { isAdministrator, type AuthContext } from '../../platform/auth/request-auth';
import { coversRoute } from '../../platform/permissions/grants';
import { badRequest, forbidden } from '../../platform/http/errors';
import { zoneDay } from '../welcome/welcome-days';

/** What a report reads, as a template row holds it. */
export interface ReportTemplateRow {
  id?: string;
  name: string;
  source: string;
  dateField?: string | null;
  period?: string | null;
  groupBy?: string[] | null;
  measures?: ReportMeasure[] | null;
  columns?: string[] | null;
  filters?: Record<string, unknown> | null;
  layout?: Record<string, unknown> | null;
}

/** The report module's messages, in both languages (a stored file error keeps both: {@link bothOf}). */
export const ReportMessages = {
  noSource: (code: string) => ({ zh: `数据来源 ${code} 不存在`, en: `no report source ${code}` }),
  noColumn: (code: string, name: string) => ({
    zh: `数据来源 ${code} 没有明细列 ${name}`,
    en: `the report source ${code} has no column ${name}`,
  }),
  badDate: (name: string) => ({ zh: `${name} 应为 yyyy-MM-dd`, en: `${name} must be yyyy-MM-dd` }),
  badRange: { zh: '开始日期不能晚于结束日期', en: 'from is after to' },
  badPeriod: { zh: '时间分组应为 day、week 或 month', en: 'period must be day, week or month' },
  periodWithoutDate: { zh: '按时间分组需要日期字段', en: 'a period needs a date field' },
  badFilter: (name: string) => ({ zh: `筛选条件 ${name} 应为文本`, en: `filter ${name} must be text` }),
  tooMany: (n: number) => ({ zh: `报表超过 ${n} 行,请缩小范围`, en: `over ${n} rows: narrow the range` }),
  noTemplate: { zh: '报表模板不存在', en: 'no such template' },
  badFormat: { zh: '格式应为 xlsx 或 pdf', en: 'format must be xlsx or pdf' },
  builtInRemove: { zh: '内置报表不能删除', en: 'built-in reports cannot be removed' },
  notGenerated: { zh: '报表文件尚未生成', en: 'the report file is not generated yet' },
  fileGone: { zh: '报表文件已被删除', en: 'the report file is gone' },
  templateGone: { zh: '报表模板不存在(已被删除)', en: 'the template was removed' },
  requesterGone: { zh: '生成人账号不存在', en: 'the account that asked for it is gone' },
  ownerGone: { zh: '计划的创建人账号不存在', en: 'the account that made the schedule is gone' },
  unprintable: (why: string) => ({
    zh: `版式无法生成 PDF:${why}`,
    en: `The layout cannot be printed: ${why}`,
  }),
  failed: (why: string) => ({ zh: `生成失败:${why}`, en: `Generation failed: ${why}` }),
} satisfies Record<string, BilingualText | ((...args: never[]) => BilingualText)>;

/** Both languages in one text, for what is stored rather than answered (a file's error). */
export const bothOf = (text: BilingualText) => (text.zh === text.en ? text.zh : `${text.zh} (${text.en})`);

const MEASURE_NAMES: Record<ReportMeasure['fn'], LocalText> = {
  count: { zh: '数量', en: 'Count' },
  sum: { zh: '合计', en: 'Sum' },
  avg: { zh: '平均', en: 'Average' },
  min: { zh: '最小', en: 'Min' },
  max: { zh: '最大', en: 'Max' },
  countTrue: { zh: '是', en: 'Yes' },
};
const PERIOD_LABEL: Record<ReportPeriod, LocalText> = {
  day: { zh: '日期', en: 'Day' },
  week: { zh: '周(起始日)', en: 'Week of' },
  month: { zh: '月份', en: 'Month' },
};

const dayOf = (text: unknown, name: string): Date | undefined => {
  if (text === undefined || text === null || text === '') return undefined;
  const date = typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseDateTime(text) : undefined;
  if (!date) throw badRequest(ReportMessages.badDate(name));
  return date;
};

/** The day after, at midnight (the range's end is inclusive by day). */
const nextDay = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1);

/** The caller must be able to read the source through its own list: a report shows no more. */
async function assertMayRead(ctx: AppContext, auth: AuthContext, code: string, api: string, listRoute: string) {
  if (isAdministrator(auth)) return;
  const grants = await ctx.grants.apiGrants(auth.roleIds);
  if (!coversRoute(grants, apiScopeCodes(code).read, `/api${api}/${listRoute}`)) throw forbidden();
}

const cellOf = (value: unknown, field: FieldDef | undefined): string | number | null => {
  if (value === null || value === undefined) return null;
  // An enumeration reads by its name (the list's label), never its code (`2` was 灭菌).
  const options = field?.options;
  if (options && 'items' in options) {
    const item = options.items.find((i) => String(i.value) === String(value));
    if (item) return item.label.zh;
  }
  if (value instanceof Date) return field?.kind === 'date' ? formatDateTime(value).slice(0, 10) : formatDateTime(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

const typeOf = (field: FieldDef | undefined): ReportColumn['type'] =>
  field?.kind === 'int'
    ? 'int'
    : field?.kind === 'decimal'
      ? 'number'
      : field?.kind === 'datetime' || field?.kind === 'date'
        ? 'date'
        : 'text';

/**
 * A report's data (docs/reports.md): the template's source read through the engine as the
 * caller (their tenant and data scope, the source's list filters), within the day range of its
 * date field, grouped and measured as the template says, with the run's overrides.
 */
export async function reportData(
  ctx: AppContext,
  auth: AuthContext,
  template: ReportTemplateRow,
  params: ReportRunParams = {},
  limit = REPORT_MAX_ROWS,
  options: { truncate?: boolean } = {},
): Promise<ReportData> {
  const service = resourceServiceOf(ctx, template.source);
  if (!service) throw badRequest(ReportMessages.noSource(template.source));
  const def = service.binding.def;
  await assertMayRead(ctx, auth, def.code, def.api, def.listRoute ?? 'list');
  const periodText = params.period !== undefined ? params.period : (template.period ?? '');
  if (periodText && !REPORT_PERIODS.includes(periodText as ReportPeriod)) throw badRequest(ReportMessages.badPeriod);
  const period = (periodText || undefined) as ReportPeriod | undefined;
  const dateField = template.dateField || undefined;
  // A report by period with no range given reads the current month (the product's time zone),
  // not every record ever made: a monthly register of all history ran to 110 pages.
  const month = period && dateField && !params.from && !params.to ? currentMonth(ctx.clock.now()) : undefined;
  const from = dayOf(month?.from ?? params.from, 'from');
  const to = dayOf(month?.to ?? params.to, 'to');
  if (from && to && from > to) throw badRequest(ReportMessages.badRange);
  if (period && !dateField) throw badRequest(ReportMessages.periodWithoutDate);
  const groupBy = params.groupBy ?? template.groupBy ?? [];
  // Detail columns with a period or group fields: a register (its rows in sections), not a summary.
  const register = Boolean(template.columns?.length) && (Boolean(period) || groupBy.length > 0);
  const grouped = !register && (Boolean(period) || groupBy.length > 0);
  const measures: ReportMeasure[] = grouped ? (template.measures?.length ? template.measures : [{ fn: 'count' }]) : [];
  const summaryMeasures: SummaryMeasure[] = measures.map((m, i) => ({ key: `m${i}`, fn: m.fn, field: m.field }));
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries({ ...(template.filters ?? {}), ...(params.filters ?? {}) })) {
    if (typeof value !== 'string' && typeof value !== 'number') throw badRequest(ReportMessages.badFilter(name));
    if (value !== '') filters[name] = String(value);
  }
  const { rows, totals } = await summarize(service, filters, auth, {
    range: dateField && (from || to) ? { field: dateField, from, to: to && nextDay(to) } : undefined,
    period: grouped && period && dateField ? { field: dateField, unit: period } : undefined,
    groupBy: grouped ? groupBy : [],
    measures: summaryMeasures,
    limit: limit + 1,
  });
  if (rows.length > limit) {
    if (!options.truncate) throw badRequest(ReportMessages.tooMany(limit));
    rows.length = limit;
  }

  const fieldOf = (name: string) => def.fields[name];
  const labelOf = (name: string): LocalText =>
    fieldOf(name)?.label ?? (name === 'createTime' ? { zh: '创建时间', en: 'Created' } : { zh: name, en: name });
  const columns: ReportColumn[] = [];
  const keyOf: { key: string; read: (row: Row) => unknown; field?: FieldDef }[] = [];
  if (grouped) {
    if (period) {
      columns.push({ key: PERIOD_KEY, label: PERIOD_LABEL[period], type: 'date' });
      keyOf.push({ key: PERIOD_KEY, read: (r) => r[PERIOD_KEY] });
    }
    for (const name of groupBy) {
      const named = displayNameOf(name);
      columns.push({ key: name, label: labelOf(name), type: 'text' });
      // A reference or dictionary field shows its label; the value itself when it has none.
      keyOf.push({
        key: name,
        read: (r) => (r[named] !== undefined && r[named] !== '' ? r[named] : r[name]),
        field: fieldOf(name),
      });
    }
    summaryMeasures.forEach((m, i) => {
      const declared = measures[i] as ReportMeasure;
      const fieldLabel = m.field ? labelOf(m.field) : undefined;
      const label =
        declared.label ??
        (fieldLabel
          ? { zh: `${fieldLabel.zh}${MEASURE_NAMES[m.fn].zh}`, en: `${MEASURE_NAMES[m.fn].en} of ${fieldLabel.en}` }
          : MEASURE_NAMES[m.fn]);
      columns.push({ key: m.key, label, type: m.fn === 'avg' ? 'number' : 'int' });
      keyOf.push({ key: m.key, read: (r) => r[m.key] });
    });
  } else {
    const listed = Object.entries(def.fields)
      .filter(([, f]) => f.list !== false && f.kind !== 'secret' && f.kind !== 'json')
      .map(([name]) => name);
    for (const name of template.columns?.length ? template.columns : listed) {
      const field = fieldOf(name);
      if (!field && name !== 'createTime') throw badRequest(ReportMessages.noColumn(def.code, name));
      const named = displayNameOf(name);
      columns.push({ key: name, label: labelOf(name), type: typeOf(field) });
      keyOf.push({ key: name, read: (r) => (r[named] !== undefined && r[named] !== '' ? r[named] : r[name]), field });
    }
  }
  const sectioned = register
    ? sectionsOf(rows, {
        period,
        dateField,
        groupBy: groupBy.map((name) => ({ name, read: (r: Row) => displayOf(r, name, fieldOf(name)) })),
        measures: template.measures ?? [],
      })
    : undefined;
  const out = (sectioned?.rows ?? rows).map((row) =>
    Object.fromEntries(keyOf.map((k) => [k.key, cellOf(k.read(row), k.field)])),
  );
  const totalsOut = totals
    ? Object.fromEntries(summaryMeasures.map((m) => [m.key, totals[m.key] === null ? null : Number(totals[m.key])]))
    : undefined;
  const subtitle = [
    from || to
      ? `${from ? formatDateTime(from).slice(0, 10) : '…'} ~ ${to ? formatDateTime(to).slice(0, 10) : '…'}`
      : '全部日期',
    ...Object.entries(filters).map(([k, v]) => `${labelOf(k).zh}: ${String(v)}`),
  ].join('   ');
  return {
    title: template.name,
    subtitle,
    columns,
    rows: out,
    totals: totalsOut,
    ...(sectioned ? { sections: sectioned.sections, summary: sectioned.summary } : {}),
  };
}

/** The first and last day of the current month in the product's time zone. */
function currentMonth(now: number): { from: string; to: string } {
  const range = ledgerRange({}, zoneDay(now));
  return 'param' in range ? { from: zoneDay(now), to: zoneDay(now) } : { from: range.startDate, to: range.endDate };
}

/** A field's value as a reader sees it: the label the engine named, or the value. */
function displayOf(row: Row, name: string, field: FieldDef | undefined): string {
  const named = row[displayNameOf(name)];
  if (named !== undefined && named !== null && named !== '') return String(named);
  const cell = cellOf(row[name], field);
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
  spec: {
    period: ReportPeriod | undefined;
    dateField: string | undefined;
    groupBy: { name: string; read: (row: Row) => string }[];
    measures: ReportMeasure[];
  },
): { rows: Row[]; sections: ReportSection[]; summary: ReportFigure[] } {
  const measures: ReportMeasure[] = spec.measures.length ? spec.measures : [{ fn: 'count' }];
  const keyed = rows.map((row) => {
    const parts = [
      ...(spec.period && spec.dateField ? [bucketOf(row[spec.dateField], spec.period)] : []),
      ...spec.groupBy.map((g) => g.read(row) || '—'),
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
