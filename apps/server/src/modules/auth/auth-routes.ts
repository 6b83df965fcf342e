import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthMessages, DEFAULT_TENANT_ID, GRANT_TYPES, type GrantType, type OAuthUserInfo } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { notFound } from '../../platform/http/errors';
import { registerVisitRoutes } from '../holiday/visit-routes';
import { findUserView } from '../user/user-view';
import { consumeCaptcha, createCaptcha } from './captcha';
import { authenticateClient } from './client-auth';
import { withSignInLog } from '../log/login-log';
import { OAuthError } from './oauth-error';
import { registerQrRoutes } from './qr/qr-routes';
import { signInWithQr } from './qr-sign-in';
import { signInWithPassword, signInWithRefreshToken } from './sign-in';
import { signInWithSms } from './sms-sign-in';
import { linkSocialAccount, signInWithSocial } from './social-sign-in';
import { registerSocialRoutes } from './social/social-routes';

/** Token parameters may come in the query string or a form body; the body wins. */
function tokenParams(request: FastifyRequest): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of [request.query, request.body]) {
    if (source && typeof source === 'object') {
      for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
        if (typeof v === 'string') merged[k] = v;
      }
    }
  }
  return merged;
}

const header = (request: FastifyRequest, name: string): string => {
  const v = request.headers[name];
  return typeof v === 'string' ? v.trim() : '';
};

/**
 * Token-endpoint style replies: the raw success JSON, or `{error_code, error_description}`. Every
 * attempt (refreshes aside) is recorded in the login log with its grant, account and outcome.
 */
async function signInReply(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  params: Record<string, string>,
  work: () => Promise<unknown>,
) {
  try {
    return await withSignInLog(ctx, request, params, work);
  } catch (e) {
    if (e instanceof OAuthError) return reply.code(e.status).send(e.toBody());
    throw e;
  }
}

const tenantOf = (request: FastifyRequest, params: Record<string, string>) =>
  params.tenantId || header(request, 'tenant-id') || DEFAULT_TENANT_ID;

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/blade-auth/oauth/token', { config: { public: true } }, async (request, reply) => {
    const params = tokenParams(request);
    return signInReply(ctx, request, reply, params, async () => {
      const grant = params.grant_type as GrantType;
      if (!GRANT_TYPES.includes(grant)) throw new OAuthError(400, AuthMessages.unsupportedGrant);
      const client = await authenticateClient(ctx.db, request.headers.authorization, grant);
      const tenantId = tenantOf(request, params);
      switch (grant) {
        case 'captcha':
          if (!(await consumeCaptcha(ctx.store, header(request, 'captcha-key'), header(request, 'captcha-code')))) {
            throw new OAuthError(400, AuthMessages.badCaptcha);
          }
          return await signInWithPassword(ctx, client, tenantId, params.username ?? '', params.password ?? '');
        case 'password':
          return await signInWithPassword(ctx, client, tenantId, params.username ?? '', params.password ?? '');
        case 'refresh_token':
          return await signInWithRefreshToken(ctx, client, params.refresh_token ?? '', params.tenantId);
        case 'sms':
          return await signInWithSms(ctx, client, tenantId, params);
        case 'qr':
          return await signInWithQr(ctx, client, tenantId, params);
        case 'social':
          return await signInWithSocial(ctx, client, tenantId, params);
      }
    });
  });

  // The spec's QR sign-in call: the qr grant at its own path (grant_type=qr, tenantId, code, state).
  app.post('/api/blade-auth/oauth/qrlogin', { config: { public: true } }, async (request, reply) => {
    const params = tokenParams(request);
    return signInReply(ctx, request, reply, { ...params, grant_type: 'qr' }, async () => {
      if ((params.grant_type || 'qr') !== 'qr') throw new OAuthError(400, AuthMessages.unsupportedGrant);
      const client = await authenticateClient(ctx.db, request.headers.authorization, 'qr');
      return signInWithQr(ctx, client, tenantOf(request, params), params);
    });
  });

  // A first-time social user links an existing account (oauthId, account, md5 password).
  app.post('/api/blade-auth/oauth/social/link', { config: { public: true } }, async (request, reply) => {
    const params = tokenParams(request);
    return signInReply(ctx, request, reply, { ...params, grant_type: 'social' }, async () => {
      const client = await authenticateClient(ctx.db, request.headers.authorization, 'social');
      return linkSocialAccount(ctx, client, tenantOf(request, params), params);
    });
  });

  registerQrRoutes(app, ctx);
  registerSocialRoutes(app, ctx);
  registerVisitRoutes(app, ctx);

  app.get('/api/blade-auth/oauth/captcha', { config: { public: true } }, async () => createCaptcha(ctx.store));

  app.get('/api/blade-auth/oauth/user-info', { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const u = await findUserView(ctx.db, auth.tenantId, auth.userId);
    if (!u) throw notFound();
    const info: OAuthUserInfo = {
      tenantId: u.tenantId,
      userId: u.id,
      account: u.account,
      userName: u.name,
      realName: u.realName,
      nickName: u.name,
      avatar: u.avatar,
      deptId: u.deptId,
      postId: u.postId,
      roleId: u.roleId,
      roleName: u.roleAlias,
      roles: u.roleAlias ? u.roleAlias.split(',') : [],
    };
    return ok(info);
  });

  const logout = async (request: FastifyRequest) => {
    await ctx.tokens.revoke(requireAuth(request).claims);
    return ok(null);
  };
  app.get('/api/blade-auth/oauth/logout', { config: { anyUser: true } }, logout);
  app.post('/api/blade-auth/oauth/logout', { config: { anyUser: true } }, logout);

  app.get('/api/blade-auth/oauth/clear-cache', { config: { anyUser: true } }, async () => {
    await ctx.caches.clearAll();
    return ok(null);
  });
}
