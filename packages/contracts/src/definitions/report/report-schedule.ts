import { defineResource } from '../../engine/define';
import { REPORT_FORMAT_ITEMS } from './report-file';
import { reportTemplateResource } from './report-template';

export const ReportFrequency = { daily: 'daily', weekly: 'weekly', monthly: 'monthly' } as const;
/** A schedule's `status`: whether it runs. */
export const ReportScheduleStatus = { on: 1, off: 0 } as const;

export type ReportFrequency = (typeof ReportFrequency)[keyof typeof ReportFrequency];

/**
 * A report made on a schedule (docs/reports.md): daily, weekly or monthly at a time of day, of
 * the period just ended (yesterday, the last 7 days, last month), with the template's filters and
 * its own. Runs are claimed by moving `nextRunTime` in one statement, so however many server
 * processes check, a run happens once; the last run's outcome and error stay on the row.
 */
export const reportScheduleResource = defineResource({
  code: 'report_schedule',
  title: { zh: '定时报表', en: 'Report schedules' },
  table: 'mes_report_schedule',
  api: '/blade-report/schedule',
  owner: 'tenant',
  menu: { group: 'report', sort: 32, icon: 'field-time', nameEn: 'Report schedules' },
  fields: {
    name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 64, required: true, search: true, width: 180 },
    templateId: {
      kind: 'reference',
      label: { zh: '报表模板', en: 'Template' },
      reference: { to: () => reportTemplateResource, label: 'name' },
      required: true,
      width: 180,
    },
    format: {
      kind: 'string',
      label: { zh: '格式', en: 'Format' },
      max: 8,
      required: true,
      default: 'xlsx',
      options: { items: REPORT_FORMAT_ITEMS },
      width: 80,
    },
    frequency: {
      kind: 'string',
      label: { zh: '频率', en: 'Frequency' },
      max: 8,
      required: true,
      default: ReportFrequency.daily,
      options: {
        items: [
          { value: ReportFrequency.daily, label: { zh: '每天', en: 'Daily' } },
          { value: ReportFrequency.weekly, label: { zh: '每周', en: 'Weekly' } },
          { value: ReportFrequency.monthly, label: { zh: '每月', en: 'Monthly' } },
        ],
      },
      width: 90,
    },
    runAt: {
      kind: 'string',
      label: { zh: '运行时间', en: 'Runs at' },
      max: 5,
      required: true,
      default: '06:00',
      pattern: { regex: '^([01]\\d|2[0-3]):[0-5]\\d$', message: { zh: '请输入 HH:mm', en: 'Enter HH:mm' } },
      width: 90,
    },
    weekday: {
      kind: 'int',
      label: { zh: '星期', en: 'Weekday' },
      range: [1, 7],
      default: 1,
      visibleWhen: { field: 'frequency', in: [ReportFrequency.weekly] },
      width: 70,
    },
    monthDay: {
      kind: 'int',
      label: { zh: '日期', en: 'Day of month' },
      range: [1, 28],
      default: 1,
      visibleWhen: { field: 'frequency', in: [ReportFrequency.monthly] },
      width: 70,
    },
    filters: {
      kind: 'json',
      label: { zh: '筛选', en: 'Filters' },
      schema: { type: 'object' },
      nullable: true,
      list: false,
    },
    cron: { kind: 'string', label: { zh: 'Cron', en: 'Cron' }, max: 32, form: 'readonly', width: 110 },
    status: {
      kind: 'int',
      label: { zh: '状态', en: 'Status' },
      range: [0, 1],
      default: ReportScheduleStatus.on,
      options: {
        items: [
          { value: ReportScheduleStatus.on, label: { zh: '启用', en: 'On' } },
          { value: ReportScheduleStatus.off, label: { zh: '停用', en: 'Off' } },
        ],
      },
      width: 80,
    },
    nextRunTime: {
      kind: 'datetime',
      label: { zh: '下次运行', en: 'Next run' },
      nullable: true,
      form: 'readonly',
      width: 170,
    },
    lastRunTime: {
      kind: 'datetime',
      label: { zh: '上次运行', en: 'Last run' },
      nullable: true,
      form: 'readonly',
      width: 170,
    },
    lastStatus: {
      kind: 'string',
      label: { zh: '上次结果', en: 'Last result' },
      max: 16,
      form: 'readonly',
      options: {
        items: [
          { value: 'done', label: { zh: '成功', en: 'Done' } },
          { value: 'failed', label: { zh: '失败', en: 'Failed' } },
          { value: 'running', label: { zh: '运行中', en: 'Running' } },
        ],
      },
      width: 90,
    },
    lastError: { kind: 'text', label: { zh: '上次错误', en: 'Last error' }, form: 'readonly', wide: true, width: 220 },
  },
  indexes: [{ fields: ['status', 'nextRunTime'] }],
  defaultSort: [{ field: 'name' }],
});
