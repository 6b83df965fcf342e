import type { FieldDef, SeriesDef, SeriesPartition } from '../../engine/define';

/**
 * Fields the BladeX logs (usual, api, error) share (CONTRACT.md). Logs are append-only records
 * written by the server, so no field is editable: `form` stays default only because the
 * resources have no submit operation.
 */
export const requestLogFields = {
  // The family's log screens search by service and server (and by URI, below).
  serviceId: { kind: 'string', label: { zh: '服务ID', en: 'Service' }, max: 64, list: false, search: true },
  serverHost: { kind: 'string', label: { zh: '服务器名', en: 'Server host' }, max: 255, list: false, search: true },
  serverIp: { kind: 'string', label: { zh: '服务器IP', en: 'Server IP' }, max: 255, list: false },
  env: { kind: 'string', label: { zh: '系统环境', en: 'Environment' }, max: 32, list: false },
  method: {
    kind: 'string',
    label: { zh: '请求方法', en: 'Method' },
    max: 16,
    search: true,
    width: 90,
    options: {
      items: [
        { value: 'GET', label: { zh: 'GET', en: 'GET' } },
        { value: 'POST', label: { zh: 'POST', en: 'POST' } },
        { value: 'PUT', label: { zh: 'PUT', en: 'PUT' } },
        { value: 'DELETE', label: { zh: 'DELETE', en: 'DELETE' } },
      ],
    },
  },
  requestUri: {
    kind: 'string',
    label: { zh: '请求接口', en: 'URI' },
    max: 2000,
    search: true,
    width: 320,
  },
  userAgent: { kind: 'string', label: { zh: '用户代理', en: 'User agent' }, max: 1000, list: false },
  remoteIp: { kind: 'string', label: { zh: '操作IP', en: 'Client IP' }, max: 255, search: true, width: 130 },
  methodClass: { kind: 'string', label: { zh: '方法类', en: 'Handler' }, max: 255, list: false },
  methodName: { kind: 'string', label: { zh: '方法名', en: 'Handler method' }, max: 255, list: false },
  params: { kind: 'text', label: { zh: '请求参数', en: 'Parameters' }, list: false },
  createBy: {
    kind: 'string',
    label: { zh: '操作人', en: 'User' },
    max: 64,
    search: true,
    sort: true,
    width: 110,
  },
  createUser: { kind: 'id', label: { zh: '操作人ID', en: 'User id' }, list: false },
} as const satisfies Record<string, FieldDef>;

/**
 * When the row was written. Declared as a field because log tables have no audit columns;
 * the list's created-time range (`createTime_dategt` / `_datelt`) and sort come with it.
 */
export const createTimeField = () =>
  ({
    kind: 'datetime',
    label: { zh: '时间', en: 'Time' },
    sort: true,
    list: true,
    width: 170,
  }) as const satisfies FieldDef;

/** `(tenant_id, create_time)` for a tenant's newest rows, `create_time` for the platform's and retention. */
export const logIndexes = (table: string) =>
  [
    { name: `${table}_tenant_time_idx`, fields: ['tenantId', 'createTime'] },
    { name: `${table}_time_idx`, fields: ['createTime'] },
  ] as const;

/** Logs are read-only: a page of rows and one row. */
export const LOG_OPERATIONS = ['list', 'detail'] as const;

/** Parameter holding how many days every log keeps its rows. */
export const LOG_RETENTION_PARAM = 'log.retentionDays';
export const DEFAULT_LOG_RETENTION_DAYS = 90;

/**
 * Logs are append-only series by `createTime` (docs/series.md), kept `log.retentionDays`. The API
 * log gets a partition a day (a row per request); the quieter logs one a week.
 */
export const logSeries = (partition: SeriesPartition): SeriesDef => ({
  time: 'createTime',
  partition,
  retention: { param: LOG_RETENTION_PARAM, days: DEFAULT_LOG_RETENTION_DAYS },
});
