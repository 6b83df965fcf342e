import {
  apiScopeCodes,
  displayNameOf,
  formatDateTime,
  parseDateTime,
  REPORT_MAX_ROWS,
  REPORT_PERIODS,
  type BilingualText,
  type FieldDef,
  type LocalText,
  type ReportColumn,
  type ReportData,
  type ReportMeasure,
  type ReportPeriod,
  type ReportRunParams,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { resourceServiceOf, type Row } from '../../crud/resource-routes';
import { PERIOD_KEY, type SummaryMeasure } from '../../crud/summary';
import { isAdministrator, type AuthContext } from '../../platform/auth/request-auth';
import { coversRoute } from '../../platform/permissions/grants';
import { badRequest, forbidden } from '../../platform/http/errors';

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
  const from = dayOf(params.from, 'from');
  const to = dayOf(params.to, 'to');
  if (from && to && from > to) throw badRequest(ReportMessages.badRange);
  const periodText = params.period !== undefined ? params.period : (template.period ?? '');
  if (periodText && !REPORT_PERIODS.includes(periodText as ReportPeriod)) throw badRequest(ReportMessages.badPeriod);
  const period = (periodText || undefined) as ReportPeriod | undefined;
  const dateField = template.dateField || undefined;
  if (period && !dateField) throw badRequest(ReportMessages.periodWithoutDate);
  const groupBy = params.groupBy ?? template.groupBy ?? [];
  const grouped = Boolean(period) || groupBy.length > 0;
  const measures: ReportMeasure[] = grouped ? (template.measures?.length ? template.measures : [{ fn: 'count' }]) : [];
  const summaryMeasures: SummaryMeasure[] = measures.map((m, i) => ({ key: `m${i}`, fn: m.fn, field: m.field }));
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries({ ...(template.filters ?? {}), ...(params.filters ?? {}) })) {
    if (typeof value !== 'string' && typeof value !== 'number') throw badRequest(ReportMessages.badFilter(name));
    if (value !== '') filters[name] = String(value);
  }
  const { rows, totals } = await service.summarize(filters, auth, {
    range: dateField && (from || to) ? { field: dateField, from, to: to && nextDay(to) } : undefined,
    period: period && dateField ? { field: dateField, unit: period } : undefined,
    groupBy,
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
  const out = rows.map((row) => Object.fromEntries(keyOf.map((k) => [k.key, cellOf(k.read(row), k.field)])));
  const totalsOut = totals
    ? Object.fromEntries(summaryMeasures.map((m) => [m.key, totals[m.key] === null ? null : Number(totals[m.key])]))
    : undefined;
  const subtitle = [
    from || to
      ? `${from ? formatDateTime(from).slice(0, 10) : '…'} ~ ${to ? formatDateTime(to).slice(0, 10) : '…'}`
      : '全部日期',
    ...Object.entries(filters).map(([k, v]) => `${labelOf(k).zh}: ${String(v)}`),
  ].join('   ');
  return { title: template.name, subtitle, columns, rows: out, totals: totalsOut };
}
