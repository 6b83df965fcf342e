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
  type ReportMeasure,
  type ReportPeriod,
  type ReportRunParams,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import type { ResourceService } from '../../engine/kernel/resource-service';
import { resourceServiceOf, type Row } from '../../engine/resource-routes';
import { PERIOD_KEY, type SummaryMeasure } from '../../engine/summary/summary';
import { detailQuery, summarize, type DetailQuery } from '../../engine/summary/summarize';
import { isAdministrator, type AuthContext } from '../../platform/auth/request-auth';
import { coversRoute } from '../../platform/permissions/grants';
import { badRequest, forbidden } from '../../platform/http/errors';
import { zoneDay } from '../welcome/welcome-days';
import { cellFieldOf, MEASURE_NAMES, shapeReport, type CellSpec, type ReportShape } from './report-shape';

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

const typeOf = (field: FieldDef | undefined): ReportColumn['type'] =>
  field?.kind === 'int'
    ? 'int'
    : field?.kind === 'decimal'
      ? 'number'
      : field?.kind === 'datetime' || field?.kind === 'date'
        ? 'date'
        : 'text';

/**
 * What a report reads and how it shows it: the shape (report-shape.ts), and the rows, read already
 * (a summary: few rows, grouped by the database) or the query that reads them (a list or register:
 * up to {@link REPORT_MAX_ROWS} rows, which the render thread may read itself).
 */
export type ReportPlan = { shape: ReportShape } & (
  { rows: Row[] } | { detail: { service: ResourceService; query: DetailQuery['query'] } }
);

/**
 * A report's plan (docs/reports.md): the template's source read through the engine as the caller
 * (their tenant and data scope, the source's list filters), within the day range of its date
 * field, grouped and measured as the template says, with the run's overrides. Everything the
 * caller may be refused is checked here, before any row is read.
 */
export async function planReport(
  ctx: AppContext,
  auth: AuthContext,
  template: ReportTemplateRow,
  params: ReportRunParams = {},
  limit = REPORT_MAX_ROWS,
  options: { truncate?: boolean } = {},
): Promise<ReportPlan> {
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

  const fieldOf = (name: string) => def.fields[name];
  const labelOf = (name: string): LocalText =>
    fieldOf(name)?.label ?? (name === 'createTime' ? { zh: '创建时间', en: 'Created' } : { zh: name, en: name });
  // A reference or dictionary field shows its label; the value itself when it has none.
  const namedCell = (name: string): CellSpec => ({
    key: name,
    named: displayNameOf(name),
    field: cellFieldOf(fieldOf(name)),
  });
  const columns: ReportColumn[] = [];
  const cells: CellSpec[] = [];
  if (grouped) {
    if (period) {
      columns.push({ key: PERIOD_KEY, label: PERIOD_LABEL[period], type: 'date' });
      cells.push({ key: PERIOD_KEY });
    }
    for (const name of groupBy) {
      columns.push({ key: name, label: labelOf(name), type: 'text' });
      cells.push(namedCell(name));
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
      cells.push({ key: m.key });
    });
  } else {
    const listed = Object.entries(def.fields)
      .filter(([, f]) => f.list !== false && f.kind !== 'secret' && f.kind !== 'json')
      .map(([name]) => name);
    for (const name of template.columns?.length ? template.columns : listed) {
      const field = fieldOf(name);
      if (!field && name !== 'createTime') throw badRequest(ReportMessages.noColumn(def.code, name));
      columns.push({ key: name, label: labelOf(name), type: typeOf(field) });
      cells.push(namedCell(name));
    }
  }
  const subtitle = [
    from || to
      ? `${from ? formatDateTime(from).slice(0, 10) : '…'} ~ ${to ? formatDateTime(to).slice(0, 10) : '…'}`
      : '全部日期',
    ...Object.entries(filters).map(([k, v]) => `${labelOf(k).zh}: ${String(v)}`),
  ].join('   ');
  const shape: ReportShape = {
    title: template.name,
    subtitle,
    columns,
    cells,
    sections: register
      ? { period, dateField, groupBy: groupBy.map(namedCell), measures: template.measures ?? [] }
      : undefined,
    limit,
    truncate: Boolean(options.truncate),
  };
  const spec = {
    range: dateField && (from || to) ? { field: dateField, from, to: to && nextDay(to) } : undefined,
    period: grouped && period && dateField ? { field: dateField, unit: period } : undefined,
    groupBy: grouped ? groupBy : [],
    measures: summaryMeasures,
    limit: limit + 1,
  };
  if (!grouped) return { shape, detail: { service, query: (await detailQuery(service, filters, auth, spec)).query } };
  const { rows, totals } = await summarize(service, filters, auth, spec);
  shape.totals = totals
    ? Object.fromEntries(summaryMeasures.map((m) => [m.key, totals[m.key] === null ? null : Number(totals[m.key])]))
    : undefined;
  return { shape, rows };
}

/** The plan's rows, read on this thread as the resource's list decorates them. */
export async function planRows(plan: ReportPlan, auth: AuthContext): Promise<Row[]> {
  if ('rows' in plan) return plan.rows;
  return plan.detail.service.decorate(await plan.detail.query, auth);
}

/** A report's data, read and shaped on this thread (previews, trial layouts, checks of a template). */
export async function reportData(...args: Parameters<typeof planReport>): Promise<ReportData> {
  const plan = await planReport(...args);
  const shaped = shapeReport(plan.shape, await planRows(plan, args[1]));
  if ('tooMany' in shaped) throw badRequest(ReportMessages.tooMany(shaped.tooMany));
  return shaped.data;
}

/** The first and last day of the current month in the product's time zone. */
function currentMonth(now: number): { from: string; to: string } {
  const range = ledgerRange({}, zoneDay(now));
  return 'param' in range ? { from: zoneDay(now), to: zoneDay(now) } : { from: range.startDate, to: range.endDate };
}
