import type { FastifyInstance } from 'fastify';
import { deptResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { dept } from '../../platform/db/schema';

/** Departments, bases, clinic nodes and line assignment (docs/organisation.md). */
export function registerDeptRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, { def: deptResource, table: dept });
}
