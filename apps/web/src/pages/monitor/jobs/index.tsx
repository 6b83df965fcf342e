import { FAILED_JOBS_ROUTE, failedJobsScreen } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { Row } from '../../../engine/resource-page-types';

/** Retries made out of those allowed, in one column. */
const RENDER = {
  retryCount: (_: unknown, row: Row) => `${String(row.retryCount)} / ${String(row.retryLimit)}`,
};
const OVERRIDES = { retryLimit: { list: false } };

/**
 * 失败任务: the durable jobs that ran out of retries (docs/jobs.md), newest first, read-only.
 * The generic screen of the aggregate (search by job name, export, 查看 with the payload and the
 * error); only the list keeps the route it had before the aggregate existed.
 */
export default function FailedJobsScreen() {
  return (
    <ResourcePage resource={failedJobsScreen} listUrl={FAILED_JOBS_ROUTE} render={RENDER} fieldOverrides={OVERRIDES} />
  );
}
