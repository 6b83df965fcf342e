import type { FastifyInstance } from 'fastify';
import { deptResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { dept } from '../../platform/db/schema';
import { registerDeptBrowseRoutes } from './dept-browse';
import { registerDeptLogisticsRoutes } from './dept-logistics';
import { deptHooks } from './dept-rules';

/** Departments, bases, clinic nodes and line assignment (docs/organisation.md). */
export function registerDeptRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = registerResource(app, ctx, {
    def: deptResource,
    table: dept,
    hooks: deptHooks(ctx),
    // Answered in dept-browse.ts: the tree takes `tenantId` for the administrator.
    omit: ['tree'],
  });
  registerDeptBrowseRoutes(app, ctx, service);
  registerDeptLogisticsRoutes(app, ctx, service);
}
