import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiScopeCodes, bilingual, userResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { requireAuth } from '../../platform/auth/request-auth';
import { user } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { badRequest } from '../../platform/http/errors';
import { UserAdminService, userHooks } from './user-admin-service';

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** BladeX clients send these parameters in the query string or as a form body; either works. */
function paramsOf(request: FastifyRequest): (name: string) => unknown {
  const query = asRecord(request.query);
  const body = asRecord(request.body);
  return (name) => query[name] ?? body[name];
}

/**
 * User administration (spec section 7): the generic page / detail / submit / remove of the user
 * resource with the hooks of user-admin-service, plus update, platform-detail, grant,
 * reset-password, update-platform and unlock.
 */
export function registerUserAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const users = registerResource(app, ctx, { def: userResource, table: user, hooks: userHooks(ctx) });
  const admin = new UserAdminService(ctx, users);
  const base = '/api/blade-user';
  const scopes = apiScopeCodes('user');

  // BladeX's name for the user page (`blade-user/list`); both answer the same page.
  app.get(`${base}/list`, { config: { apiScope: scopes.read } }, async (request) =>
    ok(await users.page(asRecord(request.query), requireAuth(request))),
  );

  app.get(`${base}/platform-detail`, { config: { apiScope: scopes.read } }, async (request) =>
    ok(await admin.platformDetail(asRecord(request.query).id, requireAuth(request))),
  );

  // BladeX's edit call: the submit lifecycle, for an existing user only.
  app.post(`${base}/update`, { config: { apiScope: scopes.write } }, async (request) => {
    const body = asRecord(request.body);
    if (body.id === undefined || body.id === null || body.id === '' || body.id === '0')
      throw badRequest(bilingual('missingParam', 'id'));
    const result = await users.submit(body, requireAuth(request));
    return ok(result.id, bilingual('updated')[requestLanguage(request)]);
  });

  app.post(`${base}/grant`, { config: { apiScope: 'user:grant' } }, async (request) => {
    const param = paramsOf(request);
    await admin.grant(param('userIds'), param('roleIds'), requireAuth(request));
    return ok(true);
  });

  app.post(`${base}/reset-password`, { config: { apiScope: 'user:reset' } }, async (request) => {
    await admin.resetPassword(paramsOf(request)('userIds'), requireAuth(request));
    return ok(true);
  });

  app.post(`${base}/update-platform`, { config: { apiScope: 'user:platform' } }, async (request) => {
    const param = paramsOf(request);
    await admin.updatePlatform(
      { userId: param('userId'), userType: param('userType'), userExt: param('userExt') },
      requireAuth(request),
    );
    return ok(true);
  });

  app.post(`${base}/unlock`, { config: { apiScope: 'user:unlock' } }, async (request) => {
    const param = paramsOf(request);
    await admin.unlock({ userIds: param('userIds'), accounts: param('accounts') }, requireAuth(request));
    return ok(true);
  });
}
