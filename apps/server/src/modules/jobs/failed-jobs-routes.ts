import type { FastifyInstance } from 'fastify';
import {
  apiScopeCodes,
  DEFAULT_PAGE_SIZE,
  FAILED_JOBS_ROUTE,
  INT4_MAX,
  InputMessages,
  MAX_PAGE_SIZE,
  Messages,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { isPlatformCaller, requireAuth } from '../../platform/auth/request-auth';
import { ok, pageOf } from '../../platform/http/envelope';
import { badRequest, forbidden } from '../../platform/http/errors';
import { isJobName } from '../../platform/jobs/job-definition';
import { listFailedJobs } from '../../platform/jobs/failed-jobs';

/** The screen code of the jobs monitor; its read scope guards the route. */
export const JOBS_SCREEN = 'jobs';
export const FAILED_JOBS_SCOPE = apiScopeCodes(JOBS_SCREEN).read;
export const FAILED_JOBS_PATH = `/api${FAILED_JOBS_ROUTE}`;

export interface FailedJobsParams {
  current: number;
  size: number;
  name: string | undefined;
}

const PARAMS = new Set(['current', 'size', 'name']);

function oneText(name: string, raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw badRequest(Messages.invalidParam(name, InputMessages.oneValue));
  const text = raw.trim();
  return text === '' ? undefined : text;
}

function pageNumber(name: string, raw: unknown, fallback: number): number {
  const text = oneText(name, raw);
  if (text === undefined) return fallback;
  const n = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= INT4_MAX)) throw badRequest(Messages.invalidParam(name, InputMessages.intBetween(1, INT4_MAX)));
  return n;
}

/**
 * `current`, `size` (capped at {@link MAX_PAGE_SIZE}, as every list) and `name`, the kind of job.
 * Any other parameter is refused, as the generic lists refuse undeclared filters.
 */
export function parseFailedJobsParams(query: Record<string, unknown>): FailedJobsParams {
  for (const key of Object.keys(query)) if (!PARAMS.has(key)) throw badRequest(Messages.unknownFilter(key));
  const name = oneText('name', query.name);
  if (name !== undefined && !isJobName(name))
    throw badRequest(Messages.invalidParam('name', '应为任务名称,如 log.prune'));
  return {
    current: pageNumber('current', query.current, 1),
    size: Math.min(pageNumber('size', query.size, DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE),
    name,
  };
}

/**
 * `GET /api/blade-system/jobs/failed`: jobs that ran out of retries, latest first, in the page
 * shape of every list. Jobs belong to the whole server, so only callers of the platform tenant
 * whose roles grant `jobs:read` (or the platform administrator) may read them.
 */
export function registerFailedJobsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(FAILED_JOBS_PATH, { config: { apiScope: FAILED_JOBS_SCOPE } }, async (request) => {
    const auth = requireAuth(request);
    if (!isPlatformCaller(auth)) throw forbidden();
    const params = parseFailedJobsParams(request.query as Record<string, unknown>);
    // pg-boss's tables exist once the queue has started (the context starts it in the background).
    await ctx.jobs.started();
    const { records, total } = await listFailedJobs(ctx.db, ctx.jobs.settings.schema, {
      name: params.name,
      offset: (params.current - 1) * params.size,
      limit: params.size,
    });
    return ok(pageOf(records, total, params.current, params.size));
  });
}
