import { defineResource } from '../../engine/define';
import { createTimeField, LOG_OPERATIONS, logIndexes, logSeries } from './log-fields';

export const OPERATION_KINDS = ['add', 'update', 'remove', 'enable'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/** One changed field of an operation; secrets appear as `******`, masked credentials in part. */
export interface FieldChange {
  field: string;
  label: string;
  before: string | null;
  after: string | null;
}

/**
 * Every submit, remove and enable through the resource engine, written in the same
 * transaction as the change: who, when, which resource and rows, and the fields changed.
 * `changes` holds a JSON array of {@link FieldChange}.
 */
export const operationLogResource = defineResource({
  code: 'operlog',
  title: { zh: '操作日志', en: 'Operation log' },
  table: 'blade_log_operation',
  api: '/report/operlog',
  menu: { group: 'report', sort: 1, icon: 'audit', nameEn: 'Operation logs' },
  owner: 'tenant',
  platformSeesAllTenants: true,
  audit: false,
  operations: LOG_OPERATIONS,
  fields: {
    title: { kind: 'string', label: { zh: '业务', en: 'Screen' }, max: 64, width: 130 },
    resourceCode: {
      kind: 'string',
      label: { zh: '资源编号', en: 'Resource' },
      max: 64,
      search: true,
      sort: true,
      width: 120,
    },
    operation: {
      kind: 'string',
      label: { zh: '操作类型', en: 'Operation' },
      max: 16,
      search: true,
      width: 100,
      options: {
        items: [
          { value: 'add', label: { zh: '新增', en: 'Add' } },
          { value: 'update', label: { zh: '修改', en: 'Update' } },
          { value: 'remove', label: { zh: '删除', en: 'Remove' } },
          { value: 'enable', label: { zh: '启用', en: 'Enable' } },
        ],
      },
    },
    ids: { kind: 'text', label: { zh: '数据编号', en: 'Row ids' }, list: true, width: 200 },
    changes: { kind: 'text', label: { zh: '变更内容', en: 'Changes' }, list: false },
    createBy: {
      kind: 'string',
      label: { zh: '操作人', en: 'User' },
      max: 64,
      search: true,
      sort: true,
      width: 110,
    },
    createUser: { kind: 'id', label: { zh: '操作人ID', en: 'User id' }, list: false },
    createTime: createTimeField(),
  },
  indexes: logIndexes('blade_log_operation'),
  defaultSort: [{ field: 'createTime', desc: true }],
  series: logSeries('week'),
});
