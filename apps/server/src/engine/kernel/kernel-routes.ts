import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bilingual } from '@mes/contracts';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import { requestLanguage } from '../../platform/http/request-language';
import { queryOf, type ResourceRoutes } from './plugin';
import type { ResourceService } from './resource-service';

const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest(bilingual('badRequest'));
  return body as Record<string, unknown>;
};

/**
 * The kernel's routes: `list` (or `page`, and the definition's alias), `detail`, `submit` and
 * `remove`, each where the definition's operations have it and no plug-in claims it.
 */
export function registerKernelRoutes(
  app: FastifyInstance,
  routes: ResourceRoutes,
  service: ResourceService,
  claimed: ReadonlySet<string>,
): void {
  const { ops, base, read, write, docs } = routes;
  const def = routes.binding.def;
  if (ops.has('list') || ops.has('page')) {
    const listRoute = def.listRoute ?? 'list';
    const names = new Set([listRoute, def.listAlias ?? listRoute]);
    for (const name of names)
      if (!claimed.has(name))
        app.get(`${base}/${name}`, { config: read, schema: docs.list }, async (request) =>
          ok(await service.page(queryOf(request), requireAuth(request))),
        );
  }
  if (ops.has('detail')) {
    app.get(`${base}/detail`, { config: read, schema: docs.detail }, async (request) =>
      ok(await service.detail(queryOf(request).id, requireAuth(request))),
    );
  }
  if (ops.has('submit')) {
    app.post(`${base}/submit`, { config: write, schema: docs.submit }, async (request) => {
      const result = await service.submit(bodyOf(request), requireAuth(request));
      return ok(result.id, bilingual(result.adding ? 'added' : 'updated')[requestLanguage(request)]);
    });
  }
  if (ops.has('remove')) {
    app.post(`${base}/remove`, { config: write, schema: docs.remove }, async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      await service.remove(queryOf(request).ids ?? body.ids, requireAuth(request));
      return ok(true, bilingual('removed')[requestLanguage(request)]);
    });
  }
}
