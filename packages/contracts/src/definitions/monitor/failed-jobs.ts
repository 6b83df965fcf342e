import { defineAggregate } from '../../engine/aggregate';

/** `GET /api` + this: the failed jobs, latest first, as a page (`name` filters by job name). */
export const FAILED_JOBS_ROUTE = '/blade-system/jobs/failed';

/**
 * The durable jobs that failed after their last retry (docs/jobs.md), for the platform's
 * administrators: a read-only aggregate over pg-boss's own tables (the jobs module supplies the
 * query), with no table of its own. Its list keeps the route it had as a hand-written screen.
 */
export const failedJobsScreen = defineAggregate({
  code: 'jobs',
  title: { zh: '失败任务', en: 'Failed jobs' },
  api: '/blade-system/jobs',
  owner: 'platform',
  source: { query: true, key: 'text' },
  operations: ['list', 'export'],
  menu: {
    group: 'monitor',
    sort: 5,
    icon: 'schedule',
    path: '/monitor/jobs',
    platformOnly: true,
  },
  fields: {
    name: { kind: 'string', label: { zh: '任务名称', en: 'Job' }, max: 100, search: true, width: 180 },
    error: { kind: 'text', label: { zh: '错误', en: 'Error' }, list: true },
    payload: { kind: 'json', label: { zh: '参数', en: 'Payload' }, wide: true },
    retryCount: { kind: 'int', label: { zh: '重试次数', en: 'Retries' }, width: 90 },
    retryLimit: { kind: 'int', label: { zh: '重试上限', en: 'Retry limit' }, width: 90 },
    createTime: { kind: 'datetime', label: { zh: '创建时间', en: 'Created' }, sort: true, width: 170 },
    startTime: { kind: 'datetime', label: { zh: '开始时间', en: 'Started' }, list: false },
    failTime: { kind: 'datetime', label: { zh: '失败时间', en: 'Failed at' }, sort: true, width: 170 },
  },
  defaultSort: [{ field: 'failTime', desc: true }],
});

/** One failed job as the route sends it (times as `yyyy-MM-dd HH:mm:ss`). */
export interface FailedJobRow {
  id: string;
  name: string;
  payload: unknown;
  /** The last run's error message. */
  error: string;
  retryCount: number;
  retryLimit: number;
  createTime: string;
  startTime: string | null;
  failTime: string | null;
}
