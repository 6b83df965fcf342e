import { defineResource } from '../../engine/define';
import { createTimeField, LOG_OPERATIONS, logIndexes, requestLogFields, logSeries } from './log-fields';

/** `type` of an API log row: answered (status below 400) or refused / failed. */
export const ApiLogType = { ok: '1', failed: '2' } as const;

/**
 * Every API request (BladeX `blade_log_api`): who called which route with which parameters
 * (secrets masked), the HTTP status and the time taken. Written in batches by the server.
 */
export const apiLogResource = defineResource({
  code: 'log_api',
  title: { zh: '接口日志', en: 'API log' },
  table: 'blade_log_api',
  api: '/blade-log/api',
  menu: { group: 'monitor', sort: 1, icon: 'api', path: '/monitor/log/api', nameEn: 'API logs' },
  owner: 'tenant',
  platformSeesAllTenants: true,
  audit: false,
  operations: LOG_OPERATIONS,
  fields: {
    type: {
      kind: 'string',
      label: { zh: '日志类型', en: 'Type' },
      max: 16,
      list: false,
      options: {
        items: [
          { value: ApiLogType.ok, label: { zh: '正常', en: 'OK' } },
          { value: ApiLogType.failed, label: { zh: '异常', en: 'Failed' } },
        ],
      },
    },
    title: { kind: 'string', label: { zh: '日志标题', en: 'Title' }, max: 255, list: false },
    ...requestLogFields,
    status: {
      kind: 'int',
      label: { zh: '状态码', en: 'Status' },
      search: true,
      width: 90,
      range: [0, 999],
    },
    time: {
      kind: 'int',
      label: { zh: '耗时(毫秒)', en: 'Time (ms)' },
      sort: true,
      width: 110,
      range: [0, 2147483647],
    },
    createTime: createTimeField(),
  },
  indexes: logIndexes('blade_log_api'),
  defaultSort: [{ field: 'createTime', desc: true }],
  series: logSeries('day'),
});
