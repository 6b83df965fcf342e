import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bilingual, datasourceResource, inputWhy, invalidParamText } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { isPlatformCaller, requireAuth } from '../../platform/auth/request-auth';
import { secretBoxFor } from '../../platform/crypto/secret-box';
import { datasource, tenant } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import { requestLanguage } from '../../platform/http/request-language';
import { idValue, paramOf, textParam } from '../../platform/http/request-params';
import { outboundPolicy } from '../../platform/net/outbound-policy';
import {
  checkDestination,
  DatasourceMessages,
  destinationOf,
  testConnection,
  type ConnectionTarget,
} from './datasource-connect';
import { allowedPorts, sameDestination } from './datasource-rules';

const base = `/api${datasourceResource.api}`;

/** Datasources: password encrypted at rest, connection test. */
export function registerDatasourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const box = () => secretBoxFor(ctx.dataDir);

  const rules = async () => ({ policy: await outboundPolicy(ctx.db), ports: await allowedPorts(ctx.db) });

  registerResource(app, ctx, {
    def: datasourceResource,
    table: datasource,
    hooks: {
      /**
       * A datasource saved with a forbidden address or port is refused with the test's message;
       * a new host, port or user must come with the password typed again, so the stored one
       * never goes to a server it was not entered for.
       */
      async beforeChange({ tx, values, existing }) {
        const pick = (name: string) => String((values[name] !== undefined ? values[name] : existing?.[name]) ?? '');
        const target = { url: pick('url'), username: pick('username'), password: '' };
        const retyped = typeof values.password === 'string' && values.password !== '';
        const [stored] = existing
          ? await tx
              .select({ password: datasource.password })
              .from(datasource)
              .where(eq(datasource.id, String(existing.id)))
          : [];
        if (existing && !retyped && stored?.password) {
          const before = destinationOf({
            url: String(existing.url),
            username: String(existing.username),
            password: '',
          });
          const after = destinationOf(target);
          if ('error' in after) throw badRequest(after.error);
          if ('error' in before || !sameDestination(before, after))
            throw badRequest(DatasourceMessages.passwordForNewTarget);
        }
        const checked = await checkDestination(target, await rules());
        // A name that does not resolve from here may still be right: only a known refusal stops the save.
        if ('error' in checked && checked.error !== DatasourceMessages.cannotConnect) throw badRequest(checked.error);
      },
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
   * with `id`, an empty password means the saved one, but only for the saved host, port and
   * user), or both. Replies with success or one "cannot connect" message.
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
    if (target.url.length > 500) throw badRequest(invalidParamText('url', inputWhy('tooLong', 500)));
    if (id) {
      const [saved] = await ctx.db
        .select({ url: datasource.url, username: datasource.username, password: datasource.password })
        .from(datasource)
        .where(and(eq(datasource.id, id), eq(datasource.isDeleted, 0)));
      if (!saved) throw notFound(bilingual('rowNotFound'));
      target.url ||= saved.url;
      target.username ||= saved.username;
      if (!target.password) {
        const before = destinationOf({ url: saved.url, username: saved.username, password: '' });
        const after = destinationOf(target);
        if ('error' in after) throw badRequest(after.error);
        if ('error' in before || !sameDestination(before, after))
          throw badRequest(DatasourceMessages.passwordForNewTarget);
        try {
          target.password = box().open(saved.password);
        } catch {
          throw badRequest(DatasourceMessages.undecryptable);
        }
      }
    }
    if (!target.url) throw badRequest(bilingual('missingParam', 'url'));
    const checked = await checkDestination(target, await rules());
    if ('error' in checked) throw badRequest(checked.error);
    const failure = await testConnection(checked, request.log);
    if (failure) throw badRequest(failure);
    return ok(true, DatasourceMessages.connected[requestLanguage(request)]);
  });
}
