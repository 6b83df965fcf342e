import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { apiScopeCodes, lineResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs } from '../../engine/resource-routes';
import { requireAuth } from '../../platform/auth/request-auth';
import { dept, line } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { DeptCategory } from '../system/dept-rules';
import { LineMessages } from '../system/dept-logistics';

export const LineRuleMessages = {
  notBase: {
    zh: '消毒基地只能选择机构类型为消毒基地(4)的机构',
    en: 'The disinfection base must be a department of category disinfection base (4)',
  },
} as const;

/**
 * A line's base must be a base and its stops clinic nodes, as `dept/setLines` requires: the
 * engine has checked that they are live departments of the tenant; the category is this area's rule.
 */
async function beforeChange({ tx, auth, values, body }: ChangeArgs): Promise<void> {
  const base = typeof values.base === 'string' ? values.base : undefined;
  const stops = Array.isArray(body.stops) ? (body.stops as Record<string, unknown>[]) : [];
  const nodeIds = [...new Set(stops.map((s) => String(s.deptId)))];
  const ids = [...(base ? [base] : []), ...nodeIds];
  if (!ids.length) return;
  const found = await tenantScope(tx, auth.tenantId)
    .select(dept, { id: dept.id, deptCategory: dept.deptCategory })
    .where(inArray(dept.id, ids));
  const category = new Map(found.map((d) => [String(d.id), d.deptCategory]));
  if (base && category.has(base) && category.get(base) !== DeptCategory.BASE)
    throw badRequest(LineRuleMessages.notBase);
  if (nodeIds.some((id) => category.has(id) && category.get(id) !== DeptCategory.NODE))
    throw badRequest(LineMessages.notNode);
}

/** Lines (spec: `/api/blade-business/line` page, all, detail, submit, remove) with their stops. */
export function registerLineRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = registerResource(app, ctx, { def: lineResource, table: line, hooks: { beforeChange } });
  // Every line of the tenant, for pickers (the family's `all`).
  app.get(
    `/api${lineResource.api}/all`,
    { config: { apiScope: apiScopeCodes(lineResource.code).read } },
    async (request) => ok(await service.all({}, requireAuth(request))),
  );
}
