import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AuthPaths,
  authText,
  DEFAULT_TENANT_ID,
  FAMILY_CLIENT_LOGOUT_PATH,
  FAMILY_GRANT_TYPES,
  FAMILY_LOGOUT_PATH,
  FAMILY_TOKEN_PATH,
  Messages,
  GRANT_TYPES,
  type FamilyAuthInfo,
  type FamilyGrantType,
  type FamilyLogoutInfo,
  type GrantType,
  type OAuthUserInfo,
  type SignInOptions,
  type TokenError,
  type TokenResponse,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { isPlatformCaller, requireAuth } from '../../platform/auth/request-auth';
import { ALL_TOPICS, tenantTopic } from '../../platform/cache/change-feed';
import { isDatabaseUnavailable } from '../../platform/db/unavailable';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_STATUS,
  DATABASE_UNAVAILABLE_TEXT,
} from '../../platform/http/database-unavailable';
import { fail, ok } from '../../platform/http/envelope';
import { notFound } from '../../platform/http/errors';
import { requestLanguage, type ReplyLanguage } from '../../platform/http/request-language';
import { registerVisitRoutes } from '../holiday/visit-routes';
import { findUserView } from '../user/user-view';
import { consumeCaptcha, createCaptcha } from './captcha';
import { wirePasswordToMd5 } from '../../platform/auth/wire-password';
import { authenticateClient, type ClientRow } from './client-auth';
import { withSignInLog, type SignInParams } from '../log/login-log';
import { OAuthError } from './oauth-error';
import { registerQrRoutes } from './qr/qr-routes';
import { signInWithQr } from './qr-sign-in';
import { signInWithPassword, signInWithRefreshToken } from './sign-in';
import { limitPasswordAttempt, readCaptchaMode } from './sign-in-limits';
import { signInWithSms } from './sms-sign-in';
import { linkSocialAccount, signInWithSocial } from './social-sign-in';
import { registerSocialRoutes } from './social/social-routes';

/** The API scope of the clear-cache route (seeded on the role screen). */
export const CLEAR_CACHE_SCOPE = 'role:cache';

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
 * How a token route answers: `answer` shapes the token a grant issued, `refused` a refusal (in
 * the caller's language), `unavailable` the database outage's code and text.
 */
interface TokenReplyStyle<T> {
  answer(token: T): unknown;
  refused(error: OAuthError, lang: ReplyLanguage): unknown;
  unavailable(code: number, text: string): unknown;
}

/** `/oauth/token` and its siblings: the raw success JSON, or `{error_code, error_description}`. */
const OAUTH_STYLE: TokenReplyStyle<unknown> = {
  answer: (token) => token,
  // The error's own body: a refusal may say more (the social grant's ticket to link an account).
  refused: (error, lang) => error.toBody(lang),
  unavailable: (code, text): TokenError => ({ error_code: code, error_description: text }),
};

/** SpringBlade 3.7.1's `/token`: its `AuthInfo` in the envelope, a refusal as `{code, success: false, msg}`. */
const FAMILY_STYLE: TokenReplyStyle<TokenResponse> = {
  answer: (token) => ok(familyAuthInfo(token)),
  refused: (error, lang) => fail(error.code, error.text[lang]),
  unavailable: (code, text) => fail(code, text),
};

/** SpringBlade's `AuthInfo` of a token pair this server issued. */
function familyAuthInfo(token: TokenResponse): FamilyAuthInfo {
  return {
    accessToken: token.access_token,
    tokenType: token.token_type,
    refreshToken: token.refresh_token,
    userId: token.user_id,
    tenantId: token.tenant_id,
    oauthId: token.oauth_id,
    account: token.account,
    // The family's AuthInfo names the person by their real name.
    userName: token.real_name || token.user_name,
    avatar: token.avatar,
    authority: token.role_name,
    expiresIn: token.expires_in,
    license: token.license,
  };
}

/**
 * Runs one grant of a token route and answers in the route's style. Every attempt (refreshes
 * aside) is recorded in the login log with its grant, account and outcome.
 */
async function signInReply<T>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  params: SignInParams,
  work: () => Promise<T>,
  style: TokenReplyStyle<T>,
) {
  const lang = requestLanguage(request);
  try {
    return style.answer(await withSignInLog(ctx, request, params, work));
  } catch (e) {
    // In the endpoint's own shape, as a refusal is: the sign-in screen shows it as it is.
    if (isDatabaseUnavailable(e)) {
      return reply
        .code(DATABASE_UNAVAILABLE_STATUS)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send(style.unavailable(DATABASE_UNAVAILABLE_STATUS, DATABASE_UNAVAILABLE_TEXT[lang]));
    }
    if (!(e instanceof OAuthError)) throw e;
    if (e.retryAfterSeconds !== undefined) void reply.header('retry-after', String(e.retryAfterSeconds));
    return reply.code(e.status).send(style.refused(e, lang));
  }
}

/**
 * The captcha of the `Captcha-Key` / `Captcha-Code` headers, used up whether it matches or not.
 * `optional`: no headers at all means no captcha (false) rather than a wrong one.
 */
async function solvedCaptcha(ctx: AppContext, request: FastifyRequest, optional: boolean): Promise<boolean> {
  const key = header(request, 'captcha-key');
  const code = header(request, 'captcha-code');
  if (optional && !key && !code) return false;
  if (!(await consumeCaptcha(ctx.store, key, code))) throw new OAuthError(400, authText('badCaptcha'));
  return true;
}

const tenantOf = (request: FastifyRequest, params: Record<string, string>) =>
  params.tenantId || header(request, 'tenant-id') || DEFAULT_TENANT_ID;

/**
 * The password and captcha grants, whichever route names their parameters: one captcha check and
 * one set of sign-in limits for every way in. The captcha grant carries a solved captcha in the
 * `Captcha-Key` / `Captcha-Code` headers; the password grant never does: past a limit, or in
 * captcha mode, it is refused with code 428 and the client retries with the captcha grant.
 */
async function passwordGrant(
  ctx: AppContext,
  request: FastifyRequest,
  client: ClientRow,
  grant: 'password' | 'captcha',
  attempt: { tenantId: string; account: string; md5: string },
): Promise<TokenResponse> {
  const captchaSolved = grant === 'captcha' && (await solvedCaptcha(ctx, request, false));
  const { tenantId, account, md5 } = attempt;
  return limitPasswordAttempt(ctx, { tenantId, account, ip: request.ip, captchaSolved }, () =>
    signInWithPassword(ctx, client, tenantId, account, md5),
  );
}

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(`/api${AuthPaths.token}`, { config: { public: true } }, async (request, reply) => {
    const params = tokenParams(request);
    return signInReply(
      ctx,
      request,
      reply,
      params,
      async () => {
        const grant = params.grant_type as GrantType;
        if (!GRANT_TYPES.includes(grant)) throw new OAuthError(400, authText('unsupportedGrant'));
        const client = await authenticateClient(ctx.db, request.headers.authorization, grant);
        const tenantId = tenantOf(request, params);
        switch (grant) {
          case 'captcha':
          case 'password':
            return await passwordGrant(ctx, request, client, grant, {
              tenantId,
              account: params.username ?? '',
              md5: params.password ?? '',
            });
          case 'refresh_token':
            return await signInWithRefreshToken(ctx, client, params.refresh_token ?? '', params.tenantId);
          case 'sms':
            return await signInWithSms(ctx, client, tenantId, params);
          case 'qr':
            return await signInWithQr(ctx, client, tenantId, params);
          case 'social':
            return await signInWithSocial(ctx, client, tenantId, params);
        }
      },
      OAUTH_STYLE,
    );
  });

  /*
   * SpringBlade 3.7.1's token route, which its console Saber 3.7.1 signs in and refreshes with
   * (`grantType`, `tenantId`, `account`, `password`, `refreshToken`; `type` and `scope` are not
   * read). The same client check, grants, captcha, limits, revocation and session-end checks as
   * `/oauth/token`; only the names of the parameters and the reply's shape differ.
   */
  app.post(FAMILY_TOKEN_PATH, { config: { public: true } }, async (request, reply) => {
    const params = tokenParams(request);
    const grant = (params.grantType || 'password') as FamilyGrantType;
    const logged: SignInParams = { grant_type: grant, tenantId: params.tenantId, account: params.account };
    return signInReply(
      ctx,
      request,
      reply,
      logged,
      async () => {
        if (!FAMILY_GRANT_TYPES.includes(grant)) throw new OAuthError(400, authText('unsupportedGrant'));
        const client = await authenticateClient(ctx.db, request.headers.authorization, grant);
        if (grant === 'refresh_token') {
          try {
            return await signInWithRefreshToken(ctx, client, params.refreshToken ?? '', params.tenantId);
          } catch (e) {
            // The family's client refreshes every second until it succeeds, showing each refusal,
            // and signs out only on code 401: a session that cannot go on answers 401.
            if (e instanceof OAuthError) throw new OAuthError(401, e.text);
            throw e;
          }
        }
        // The family's console sends the password as typed; ours sends its md5 (wire-password.ts).
        const password = params.password ? wirePasswordToMd5(params.password) : '';
        return passwordGrant(ctx, request, client, grant, {
          tenantId: tenantOf(request, params),
          account: params.account ?? '',
          md5: password,
        });
      },
      FAMILY_STYLE,
    );
  });

  // The spec's QR sign-in call: the qr grant at its own path (grant_type=qr, tenantId, code, state).
  app.post(`/api${AuthPaths.qrLogin}`, { config: { public: true } }, async (request, reply) => {
    const params = tokenParams(request);
    return signInReply(
      ctx,
      request,
      reply,
      { ...params, grant_type: 'qr' },
      async () => {
        if ((params.grant_type || 'qr') !== 'qr') throw new OAuthError(400, authText('unsupportedGrant'));
        const client = await authenticateClient(ctx.db, request.headers.authorization, 'qr');
        return signInWithQr(ctx, client, tenantOf(request, params), params);
      },
      OAUTH_STYLE,
    );
  });

  // A first-time social user links an existing account (oauthId, account, md5 password).
  app.post(`/api${AuthPaths.socialLink}`, { config: { public: true } }, async (request, reply) => {
    const params = tokenParams(request);
    return signInReply(
      ctx,
      request,
      reply,
      { ...params, grant_type: 'social' },
      async () => {
        const client = await authenticateClient(ctx.db, request.headers.authorization, 'social');
        const tenantId = tenantOf(request, params);
        // Proves an account with its password: the same limits and captcha mode as the password
        // grants, with an optional captcha in the same headers.
        const captchaSolved = await solvedCaptcha(ctx, request, true);
        const account = params.account ?? params.username ?? '';
        return limitPasswordAttempt(ctx, { tenantId, account, ip: request.ip, captchaSolved }, () =>
          linkSocialAccount(ctx, client, tenantId, params),
        );
      },
      OAUTH_STYLE,
    );
  });

  registerQrRoutes(app, ctx);
  registerSocialRoutes(app, ctx);
  registerVisitRoutes(app, ctx);

  app.get(`/api${AuthPaths.captcha}`, { config: { public: true } }, async () => createCaptcha(ctx.store));
  // The family's captcha route (Saber 3.7.1 asks it before its captcha grant): the same, in the envelope.
  app.get('/api/blade-auth/captcha', { config: { public: true } }, async () => ok(await createCaptcha(ctx.store)));

  // What the sign-in page must ask for before the first attempt (param account.captchaMode).
  app.get(`/api${AuthPaths.signInOptions}`, { config: { public: true } }, async () => {
    const options: SignInOptions = { captchaMode: await readCaptchaMode(ctx.db) };
    return ok(options);
  });

  app.get(`/api${AuthPaths.userInfo}`, { config: { anyUser: true } }, async (request) => {
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
  app.get(`/api${AuthPaths.logout}`, { config: { anyUser: true } }, logout);
  app.post(`/api${AuthPaths.logout}`, { config: { anyUser: true } }, logout);

  // The family's sign-out (contracts: FAMILY_LOGOUT_PATH): the same revocation, answered as
  // SpringBlade answers it. Saber 3.7.1 posts the path without `/api`, so a proxy that passes it on
  // unchanged reaches this server too; the route guard asks for a session there as under `/api`.
  const familyLogout = async (request: FastifyRequest) => {
    await ctx.tokens.revoke(requireAuth(request).claims);
    const data: FamilyLogoutInfo = { code: '200', msg: Messages.success };
    return ok(data);
  };
  app.post(FAMILY_LOGOUT_PATH, { config: { anyUser: true } }, familyLogout);
  app.post(FAMILY_CLIENT_LOGOUT_PATH, { config: { anyUser: true } }, familyLogout);

  // Administrators only (API scope role:cache); a tenant's administrator empties only the
  // entries of their own tenant, on every process.
  app.get(`/api${AuthPaths.clearCache}`, { config: { apiScope: CLEAR_CACHE_SCOPE } }, async (request) => {
    const auth = requireAuth(request);
    if (isPlatformCaller(auth)) {
      await ctx.caches.clearAll();
      await ctx.changes.publish(ALL_TOPICS);
    } else {
      await ctx.changes.publish(tenantTopic(auth.tenantId));
    }
    return ok(null);
  });
}
