import type { FastifyInstance } from 'fastify';
import {
  apiLogResource,
  apiScopeCodes,
  errorLogResource,
  loginLogResource,
  operationLogResource,
  usualLogResource,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ResourceHooks, type Row } from '../../engine/resource-routes';
import { isPlatformCaller, requireAuth } from '../../platform/auth/request-auth';
import { apiLog, errorLog, loginLog, operationLog, usualLog } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { registerErrorLogRoutes } from './error-log-routes';
import { TENANT_FILTERS, tenantErrorView } from './error-log-view';
import { registerLoginCountRoute } from './login-log';

/** The family's log screens open a row by `strId`, the id as a string (theirs are numbers). */
const withStrId = (rows: Row[]): Row[] => rows.map((r) => ({ ...r, strId: String(r.id) }));

const logHooks: ResourceHooks = { decorate: async (rows) => withStrId(rows) };

/** The error log keeps its internals for the platform; see error-log-view.ts. */
const errorLogHooks: ResourceHooks = {
  decorate: async (rows, auth) => {
    const shown = withStrId(rows);
    return isPlatformCaller(auth) ? shown : shown.map(tenantErrorView);
  },
};

/** `remoteIp_like` → `remoteIp`: the field a list parameter filters on. */
const fieldOfParam = (name: string) => name.replace(/_[a-z]+$/i, '');
/** A declared field the tenant's view hides; undeclared names still get the list's 400. */
const hiddenFilter = (field: string) => field in errorLogResource.fields && !TENANT_FILTERS.has(field);

/**
 * The read-only log screens' routes: `list` and `detail` of the API, usual, error, login and
 * operation logs (declared filters and sorts only; tenant administrators read their tenant's
 * rows, the platform reads every tenant's), the error upload of the console's local log, and
 * the welcome page's sign-in counts.
 */
export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: apiLogResource, table: apiLog, hooks: logHooks });
  registerResource(app, ctx, { def: usualLogResource, table: usualLog, hooks: logHooks });
  registerResource(app, ctx, { def: loginLogResource, table: loginLog, hooks: logHooks });
  registerResource(app, ctx, { def: operationLogResource, table: operationLog, hooks: logHooks });
  const errors = registerResource(app, ctx, {
    def: errorLogResource,
    table: errorLog,
    hooks: errorLogHooks,
    omit: ['list'],
  });
  // A tenant caller's filters on hidden fields are ignored (as the family ignores filters a
  // caller may not use): matching on them would reveal hidden values by trial and error.
  app.get(
    `/api${errorLogResource.api}/list`,
    { config: { apiScope: apiScopeCodes(errorLogResource.code).read } },
    async (request) => {
      const auth = requireAuth(request);
      const query = request.query as Record<string, unknown>;
      const allowed = isPlatformCaller(auth)
        ? query
        : Object.fromEntries(Object.entries(query).filter(([name]) => !hiddenFilter(fieldOfParam(name))));
      return ok(await errors.page(allowed, auth));
    },
  );
  registerErrorLogRoutes(app, ctx);
  registerLoginCountRoute(app, ctx);
}
