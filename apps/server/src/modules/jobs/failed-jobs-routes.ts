import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { apiScopeCodes, FAILED_JOBS_ROUTE, failedJobsScreen, inputWhy, invalidParamText } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import { isJobName } from '../../platform/jobs/job-definition';
import { errorMessageOf } from '../../platform/jobs/failed-jobs';
import { aggregateQueryTable } from '../../engine/aggregate/aggregate-source';
import { registerResource, type ResourceHooks, type Row } from '../../engine/resource-routes';

/** The screen code of the jobs monitor; its read scope guards the route. */
export const JOBS_SCREEN = failedJobsScreen.code;
export const FAILED_JOBS_SCOPE = apiScopeCodes(JOBS_SCREEN).read;
export const FAILED_JOBS_PATH = `/api${FAILED_JOBS_ROUTE}`;

/**
 * Failed jobs from both of pg-boss's tables: a failed job stays in `job` until maintenance moves
 * it to `archive` (after 12 hours), where it is kept until deleted (7 days). The columns are the
 * definition's (`id`, `name`, `payload`, `error`, `retry_count`, ...); `error` carries the run's
 * whole output, which `decorate` turns into its message.
 */
export function failedJobsQuery(schema: string): SQL {
  const columns = sql.raw(
    `id::text as id, name, data as payload, output::text as error, retry_count, retry_limit,
     created_on as create_time, started_on as start_time, completed_on as fail_time`,
  );
  const from = (table: string) =>
    sql`select ${columns} from ${sql.identifier(schema)}.${sql.identifier(table)} where state = 'failed'`;
  return sql`${from('job')} union all ${from('archive')}`;
}

/** `name`: one kind of job, compared exactly (a job name, never a pattern). */
export function jobNameFilter(query: Record<string, unknown>, column: PgColumn): SQL | undefined {
  const raw = query.name;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw badRequest(invalidParamText('name', inputWhy('oneValue')));
  const name = raw.trim();
  if (name === '') return undefined;
  if (!isJobName(name))
    throw badRequest(
      invalidParamText('name', { zh: '应为任务名称,如 log.prune', en: 'must be a job name such as log.prune' }),
    );
  return eq(column, name);
}

/** The run's output (stored as JSON text by the query) as the error message a reader wants. */
function withErrorMessages(rows: Row[]): Promise<Row[]> {
  return Promise.resolve(
    rows.map((row) => {
      const output = typeof row.error === 'string' ? (JSON.parse(row.error) as unknown) : null;
      return { ...row, error: errorMessageOf(output) };
    }),
  );
}

/**
 * 失败任务: the aggregate of failed jobs, read by the engine (page, filters, sort, export, the
 * platform-only owner check). The list keeps its path, `GET /api/blade-system/jobs/failed`, in
 * the page shape of every list; jobs belong to the whole server, so only callers of the platform
 * tenant whose roles grant `jobs:read` (or the platform administrator) may read them.
 */
export function registerFailedJobsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const table = aggregateQueryTable(failedJobsScreen, failedJobsQuery(ctx.jobs.settings.schema));
  const nameColumn = (getTableColumns(table) as Record<string, PgColumn>).name as PgColumn;
  const hooks: ResourceHooks = {
    listParams: { names: ['name'], where: (query) => jobNameFilter(query, nameColumn) },
    decorate: withErrorMessages,
    decorateReads: ['error'],
  };
  const service = registerResource(app, ctx, { def: failedJobsScreen, table, hooks, omit: ['list'] });
  // No OpenAPI querystring schema: its validation would answer `size=1&size=2` with the schema's
  // message, where this route has always answered with the lists' own (只能有一个值).
  app.get(FAILED_JOBS_PATH, { config: { apiScope: FAILED_JOBS_SCOPE } }, async (request) => {
    const auth = requireAuth(request);
    // pg-boss's tables exist once the queue has started (the context starts it in the background).
    await ctx.jobs.started();
    return ok(await service.page(request.query as Record<string, unknown>, auth));
  });
}
