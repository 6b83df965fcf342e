import { defineResource } from '../../engine/define';
import { REPORT_LAYOUT_PATH, REPORT_MEASURE_FNS, REPORT_PERIODS } from './report-spec';

const periodItems = [
  { value: '', label: { zh: '不分期', en: 'None' } },
  { value: 'day', label: { zh: '按日', en: 'By day' } },
  { value: 'week', label: { zh: '按周', en: 'By week' } },
  { value: 'month', label: { zh: '按月', en: 'By month' } },
] as const;

/**
 * A report template of a tenant (docs/reports.md): which registry resource it reads, how it
 * groups and measures, and the printable layout designed with pdfme's Designer (`layout`, a pdfme
 * template; empty = the plain table layout). Built-in templates (`builtIn`) are seeded for every
 * tenant; a tenant may edit their layout and add its own templates.
 */
export const reportTemplateResource = defineResource({
  code: 'report_template',
  title: { zh: '报表模板', en: 'Report templates' },
  table: 'mes_report_template',
  api: '/blade-report/template',
  owner: 'tenant',
  menu: {
    group: 'report',
    sort: 31,
    icon: 'layout',
    nameEn: 'Report templates',
    buttons: [{ action: 'design', name: { zh: '设计', en: 'Design' } }],
  },
  dialogWidth: 900,
  fields: {
    name: {
      kind: 'string',
      label: { zh: '报表名称', en: 'Name' },
      max: 64,
      required: true,
      search: true,
      sort: true,
      width: 200,
    },
    code: { kind: 'string', label: { zh: '编码', en: 'Code' }, max: 64, form: 'readonly', width: 160 },
    source: {
      kind: 'string',
      label: { zh: '数据来源', en: 'Source' },
      max: 64,
      required: true,
      search: true,
      width: 160,
      pattern: {
        regex: '^[a-z][a-z0-9_]{0,63}$',
        message: { zh: '数据来源应为资源编码', en: 'The source is a resource code' },
      },
    },
    dateField: { kind: 'string', label: { zh: '日期字段', en: 'Date field' }, max: 64, width: 120 },
    period: {
      kind: 'string',
      label: { zh: '时间分组', en: 'Period' },
      max: 8,
      options: { items: periodItems },
      width: 100,
      pattern: { regex: `^(|${REPORT_PERIODS.join('|')})$`, message: { zh: '时间分组不正确', en: 'Bad period' } },
    },
    groupBy: {
      kind: 'json',
      label: { zh: '分组字段', en: 'Group by' },
      schema: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 4 },
      nullable: true,
      list: false,
    },
    measures: {
      kind: 'json',
      label: { zh: '统计项', en: 'Measures' },
      schema: {
        type: 'array',
        maxItems: 12,
        items: {
          type: 'object',
          required: ['fn'],
          additionalProperties: false,
          properties: {
            fn: { type: 'string', enum: REPORT_MEASURE_FNS },
            field: { type: 'string', maxLength: 64 },
            label: {
              type: 'object',
              required: ['zh', 'en'],
              properties: { zh: { type: 'string', maxLength: 64 }, en: { type: 'string', maxLength: 64 } },
            },
          },
        },
      },
      nullable: true,
      list: false,
    },
    columns: {
      kind: 'json',
      label: { zh: '明细列', en: 'Detail columns' },
      schema: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 40 },
      nullable: true,
      list: false,
    },
    filters: {
      kind: 'json',
      label: { zh: '固定筛选', en: 'Fixed filters' },
      schema: { type: 'object' },
      nullable: true,
      list: false,
    },
    layout: {
      kind: 'json',
      label: { zh: '版式', en: 'Layout' },
      schema: { type: 'object' },
      max: 2_000_000,
      nullable: true,
      // The designer saves it (checked as a printable pdfme template there); the dialog cannot.
      savedBy: REPORT_LAYOUT_PATH,
    },
    builtIn: {
      kind: 'boolean',
      label: { zh: '内置', en: 'Built-in' },
      default: false,
      form: 'readonly',
      width: 80,
    },
    remark: { kind: 'string', label: { zh: '说明', en: 'Remark' }, max: 255, wide: true, list: false },
  },
  indexes: [{ fields: ['tenantId', 'code'] }],
  defaultSort: [{ field: 'name' }],
});
