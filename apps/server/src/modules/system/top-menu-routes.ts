import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { topMenu } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';

/** Routes of GET /api/blade-system/menu/top-menu (the caller's top menus). */
export function registerTopMenuRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-system/menu/top-menu', { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const rows = await ctx.db
      .select({ id: topMenu.id, code: topMenu.code, name: topMenu.name, source: topMenu.source, sort: topMenu.sort })
      .from(topMenu)
      .where(and(eq(topMenu.tenantId, auth.tenantId), eq(topMenu.isDeleted, 0)))
      // The id breaks ties so equal sorts come back in a stable order.
      .orderBy(asc(topMenu.sort), asc(topMenu.id));
    return ok(rows);
  });
}
