import { defineResource } from '../../engine/define';
import { createTimeField, LOG_OPERATIONS, logIndexes, requestLogFields, logSeries } from './log-fields';

/** `exceptionName` of the errors the console uploads from its local error log. */
export const CLIENT_EXCEPTION_NAME = 'ClientError';

/**
 * Errors (BladeX `blade_log_error`): the server's unhandled errors (with the failing request)
 * and the errors the console uploads from its local error log (`exceptionName` ClientError,
 * `serviceId` mes-web). The column sizes are those of the table's first migration.
 */
export const errorLogResource = defineResource({
  code: 'log_error',
  title: { zh: '错误日志', en: 'Error log' },
  table: 'blade_log_error',
  api: '/blade-log/error',
  menu: { group: 'monitor', sort: 3, icon: 'bug', path: '/monitor/log/error', nameEn: 'Error logs' },
  owner: 'tenant',
  platformSeesAllTenants: true,
  audit: false,
  operations: LOG_OPERATIONS,
  fields: {
    ...requestLogFields,
    /** Where the error happened (for client errors: the capture's `info`). */
    methodName: { ...requestLogFields.methodName, max: 2000 },
    /** Duration for server errors; the client's own timestamp for client errors. */
    time: { kind: 'string', label: { zh: '耗时', en: 'Time' }, max: 64, list: false },
    exceptionName: {
      kind: 'string',
      label: { zh: '异常名', en: 'Exception' },
      max: 255,
      search: true,
      width: 150,
    },
    message: { kind: 'text', label: { zh: '异常信息', en: 'Message' }, list: true, width: 320 },
    stackTrace: { kind: 'text', label: { zh: '堆栈', en: 'Stack trace' }, list: false },
    fileName: { kind: 'string', label: { zh: '文件名', en: 'File' }, max: 1000, list: false },
    lineNumber: { kind: 'int', label: { zh: '行号', en: 'Line' }, nullable: true, list: false },
    createTime: createTimeField(),
  },
  indexes: [
    { name: 'blade_log_error_tenant_time_idx', fields: ['tenantId', 'createTime'] },
    logIndexes('blade_log_error')[1],
  ],
  defaultSort: [{ field: 'createTime', desc: true }],
  series: logSeries('week'),
});
