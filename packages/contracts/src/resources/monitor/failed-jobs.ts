import { defineScreen } from '../../resource/menu-placement';

/**
 * The durable jobs that failed after their last retry (docs/jobs.md), for the platform's
 * administrators: a read-only monitor with no table of its own (pg-boss keeps the jobs).
 */
export const failedJobsScreen = defineScreen({
  code: 'jobs',
  title: { zh: '失败任务', en: 'Failed jobs' },
  menu: {
    group: 'monitor',
    sort: 5,
    icon: 'schedule',
    path: '/monitor/jobs',
    platformOnly: true,
    scopes: [{ action: 'read', name: '失败任务查询', path: '/api/blade-system/jobs/failed' }],
  },
});

/** `GET /api` + this: the failed jobs, latest first, as a page (`name` filters by job name). */
export const FAILED_JOBS_ROUTE = '/blade-system/jobs/failed';

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
