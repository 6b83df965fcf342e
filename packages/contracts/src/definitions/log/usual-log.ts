import { defineResource } from '../../engine/define';
import { createTimeField, LOG_OPERATIONS, logIndexes, requestLogFields, logSeries } from './log-fields';

export const USUAL_LOG_LEVELS = ['info', 'warn', 'error'] as const;
export type UsualLogLevel = (typeof USUAL_LOG_LEVELS)[number];

/**
 * Business events (BladeX `blade_log_usual`): tenant created, password reset, role granted, ...
 * `logId` names the event (`tenant.create`), `logData` says what happened.
 */
export const usualLogResource = defineResource({
  code: 'log_usual',
  title: { zh: '通用日志', en: 'Event log' },
  table: 'blade_log_usual',
  api: '/blade-log/usual',
  menu: { group: 'monitor', sort: 2, icon: 'file-text', path: '/monitor/log/usual', nameEn: 'General logs' },
  owner: 'tenant',
  platformSeesAllTenants: true,
  audit: false,
  operations: LOG_OPERATIONS,
  fields: {
    logLevel: {
      kind: 'string',
      label: { zh: '日志级别', en: 'Level' },
      max: 16,
      search: true,
      width: 90,
      options: {
        items: [
          { value: 'info', label: { zh: '信息', en: 'Info' } },
          { value: 'warn', label: { zh: '警告', en: 'Warning' } },
          { value: 'error', label: { zh: '错误', en: 'Error' } },
        ],
      },
    },
    logId: { kind: 'string', label: { zh: '事件', en: 'Event' }, max: 64, search: true, width: 160 },
    logData: { kind: 'text', label: { zh: '日志内容', en: 'Content' }, list: true, width: 320 },
    ...requestLogFields,
    time: { kind: 'string', label: { zh: '耗时', en: 'Time' }, max: 64, list: false },
    createTime: createTimeField(),
  },
  indexes: logIndexes('blade_log_usual'),
  defaultSort: [{ field: 'createTime', desc: true }],
  series: logSeries('week'),
});
