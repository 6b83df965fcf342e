import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { apiScopeResource, dataScopeResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ResourceHooks } from '../../engine/resource-routes';
import { apiScope, dataScope, menu } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';

/**
 * Data scopes and API scopes. The BladeX screens list the scopes of one menu with the declared
 * `menuId` filter (`list?menuId=`); the role dialog reads them through
 * `menu/grant-data-scope-tree` and `menu/grant-api-scope-tree` (menu-admin-grant-trees.ts).
 * Any change drops every process's cached grants.
 */
export function registerScopeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const hooks: ResourceHooks = {
    // A scope hangs under a live menu, or it would never show in the grant dialog.
    async beforeChange({ tx, values }) {
      if (values.menuId === undefined) return;
      const [found] = await tx
        .select({ id: menu.id })
        .from(menu)
        .where(and(eq(menu.id, String(values.menuId)), eq(menu.isDeleted, 0)));
      if (!found) throw badRequest({ zh: '所属菜单不存在', en: 'The menu does not exist' });
    },
    afterChange: ({ afterCommit }) => afterCommit(() => ctx.grants.changed()),
    afterRemove: ({ afterCommit }) => afterCommit(() => ctx.grants.changed()),
  };
  registerResource(app, ctx, { def: dataScopeResource, table: dataScope, hooks });
  registerResource(app, ctx, { def: apiScopeResource, table: apiScope, hooks });
}
