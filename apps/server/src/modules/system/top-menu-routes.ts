import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MenuPaths } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { topMenu } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

/** Routes of GET /api/blade-system/menu/top-menu (the caller's top menus). */
export function registerTopMenuRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`/api${MenuPaths.topMenu}`, { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const rows = await tenantScope(ctx.db, auth.tenantId)
      .select(topMenu, {
        id: topMenu.id,
        code: topMenu.code,
        name: topMenu.name,
        source: topMenu.source,
        path: topMenu.path,
        sort: topMenu.sort,
      })
      .where()
      // The id breaks ties so equal sorts come back in a stable order.
      .orderBy(asc(topMenu.sort), asc(topMenu.id));
    return ok(rows);
  });
}
