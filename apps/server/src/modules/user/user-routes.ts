import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { notFound } from '../../platform/http/errors';
import { findUserView } from './user-view';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-user/info', { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const view = await findUserView(ctx.db, auth.tenantId, auth.userId);
    if (!view) throw notFound();
    return ok(view);
  });
}
