import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { datasourceResource, Messages } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../crud/resource-routes';
import { isPlatformCaller, requireAuth } from '../../platform/auth/request-auth';
import { secretBoxFor } from '../../platform/crypto/secret-box';
import { datasource, tenant } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import { idValue, paramOf, textParam } from '../../platform/http/request-params';
import { DatasourceMessages, testConnection, type ConnectionTarget } from './datasource-connect';

const base = `/api${datasourceResource.api}`;

/** Datasources: password encrypted at rest, connection test. */
export function registerDatasourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const box = () => secretBoxFor(ctx.dataDir);

  registerResource(app, ctx, {
    def: datasourceResource,
    table: datasource,
    hooks: {
      async beforeRemove({ tx, rows }) {
        const [bound] = await tx
          .select({ id: tenant.id })
          .from(tenant)
          .where(
            and(
              inArray(
                tenant.datasourceId,
                rows.map((r) => String(r.id)),
              ),
              eq(tenant.isDeleted, 0),
            ),
          )
          .limit(1);
        if (bound) throw badRequest(DatasourceMessages.inUse);
      },
    },
  });

  /**
   * Tests a saved datasource (`id`), the form being edited (`url`, `username`, `password`;
   * with `id`, an empty password means the saved one), or both. Replies with success or the
   * driver's one-line message.
   */
  app.post(`${base}/test`, { config: { apiScope: 'datasource:test' } }, async (request) => {
    const auth = requireAuth(request);
    if (!isPlatformCaller(auth)) throw forbidden();
    const id = idValue(paramOf(request, 'id'), 'id', '');
    const target: ConnectionTarget = {
      url: textParam(request, 'url')?.trim() ?? '',
      username: textParam(request, 'username')?.trim() ?? '',
      password: textParam(request, 'password') ?? '',
    };
    if (id) {
      const [saved] = await ctx.db
        .select({ url: datasource.url, username: datasource.username, password: datasource.password })
        .from(datasource)
        .where(and(eq(datasource.id, id), eq(datasource.isDeleted, 0)));
      if (!saved) throw notFound(Messages.rowNotFound);
      target.url ||= saved.url;
      target.username ||= saved.username;
      if (!target.password) {
        try {
          target.password = box().open(saved.password);
        } catch {
          throw badRequest(DatasourceMessages.undecryptable);
        }
      }
    }
    if (!target.url) throw badRequest(Messages.missingParam('url'));
    if (target.url.length > 500) throw badRequest(Messages.invalidParam('url', '最长 500 个字符'));
    const failure = await testConnection(target);
    if (failure) throw badRequest(failure);
    return ok(true, DatasourceMessages.connected);
  });
}
