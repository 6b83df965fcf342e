import { defineResource } from '../../engine/define';
import { reportTemplateResource } from './report-template';
import { ReportFileStatus } from './report-spec';

export const REPORT_FORMAT_ITEMS = [
  { value: 'xlsx', label: { zh: 'Excel', en: 'Excel' } },
  { value: 'pdf', label: { zh: 'PDF', en: 'PDF' } },
] as const;

/**
 * A generated report file (BladeX `ReportFileEntity`, `/blade-report/report/rest`: list and
 * remove, plus generate and download): made by the `report.generate` job from a template and
 * its parameters, stored through the tenant's object storage; removing the row removes the file.
 */
export const reportFileResource = defineResource({
  code: 'report_file',
  title: { zh: '报表文件', en: 'Report files' },
  table: 'mes_report_file',
  api: '/blade-report/report/rest',
  owner: 'tenant',
  operations: ['list', 'detail', 'remove'],
  menu: {
    group: 'report',
    sort: 30,
    icon: 'file-text',
    nameEn: 'Report files',
    buttons: [
      { action: 'generate', name: { zh: '生成报表', en: 'Generate' } },
      { action: 'download', name: { zh: '下载', en: 'Download' } },
    ],
    scopes: [{ action: 'generate', name: '生成报表', path: '/api/blade-report/report/rest/generate' }],
  },
  fields: {
    name: { kind: 'string', label: { zh: '文件名', en: 'File name' }, max: 128, search: true, width: 260 },
    templateId: {
      kind: 'reference',
      label: { zh: '报表模板', en: 'Template' },
      reference: { to: () => reportTemplateResource, label: 'name', onRemove: 'clear' },
      form: 'readonly',
      search: true,
      width: 180,
    },
    format: {
      kind: 'string',
      label: { zh: '格式', en: 'Format' },
      max: 8,
      options: { items: REPORT_FORMAT_ITEMS },
      search: true,
      width: 80,
    },
    params: {
      kind: 'json',
      label: { zh: '参数', en: 'Parameters' },
      schema: { type: 'object' },
      nullable: true,
      width: 220,
    },
    // Not `status`: that is the audit columns' enable flag.
    state: {
      kind: 'int',
      label: { zh: '状态', en: 'Status' },
      range: [0, 3],
      default: ReportFileStatus.queued,
      options: {
        items: [
          { value: ReportFileStatus.queued, label: { zh: '排队中', en: 'Queued' } },
          { value: ReportFileStatus.running, label: { zh: '生成中', en: 'Running' } },
          { value: ReportFileStatus.done, label: { zh: '已完成', en: 'Done' } },
          { value: ReportFileStatus.failed, label: { zh: '失败', en: 'Failed' } },
        ],
      },
      search: true,
      width: 100,
    },
    progress: { kind: 'int', label: { zh: '进度', en: 'Progress' }, range: [0, 100], default: 0, width: 120 },
    rowCount: { kind: 'int', label: { zh: '行数', en: 'Rows' }, nullable: true, width: 80 },
    size: { kind: 'int', label: { zh: '大小(字节)', en: 'Size (bytes)' }, nullable: true, width: 110 },
    error: { kind: 'text', label: { zh: '错误', en: 'Error' }, list: false },
    ossCode: { kind: 'string', label: { zh: '存储', en: 'Storage' }, max: 32, list: false },
    objectKey: { kind: 'string', label: { zh: '对象', en: 'Object' }, max: 128, list: false },
    scheduleId: { kind: 'id', label: { zh: '定时任务', en: 'Schedule' }, nullable: true, list: false },
    createUserName: { kind: 'string', label: { zh: '生成人', en: 'By' }, max: 64, width: 100 },
    finishTime: { kind: 'datetime', label: { zh: '完成时间', en: 'Finished' }, nullable: true, width: 170 },
  },
  indexes: [{ fields: ['tenantId', 'createTime'] }, { fields: ['state', 'createTime'] }],
  defaultSort: [{ field: 'createTime', desc: true }],
});
