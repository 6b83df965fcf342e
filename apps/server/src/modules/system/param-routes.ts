import type { FastifyInstance } from 'fastify';
import { paramResource, REGISTRY, retentionParamProblem, type ResourceDef } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { param } from '../../platform/db/schema';
import { registerResource, type ChangeArgs } from '../../engine/resource-routes';
import { badRequest } from '../../platform/http/errors';

const RECORD_DEFINITIONS = REGISTRY.filter((e): e is ResourceDef => 'records' in e && e.records !== undefined);

/**
 * A record retention parameter below its standard's minimum (6 months, 1 year, 3 years) is
 * refused: the parameter may lengthen a retention, never shorten it below the rule.
 */
function beforeChange({ values, existing }: ChangeArgs): void {
  const key = String(values.paramKey ?? existing?.paramKey ?? '');
  const value = String(values.paramValue ?? existing?.paramValue ?? '');
  const problem = retentionParamProblem(RECORD_DEFINITIONS, key, value);
  if (problem) throw badRequest(problem);
}

/** Parameters: the generic routes, with the retention minimums checked. */
export function registerParamRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: paramResource, table: param, hooks: { beforeChange } });
}
