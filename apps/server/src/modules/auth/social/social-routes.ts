import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context';
import { ok } from '../../../platform/http/envelope';
import { badRequest } from '../../../platform/http/errors';
import { paramOf } from '../../../platform/http/request-params';
import { limitAttempts } from '../qr/attempt-limit';
import { liveTenant } from '../qr/qr-routes';
import { requestOrigin } from '../qr/request-origin';
import { authorizeUrl, pkcePair, ProviderError } from './providers';
import { createState, STATE_TTL_MS } from './social-session';
import { enabledSources, findSource, SourceMessages } from './social-source-repository';

/** Sign-in attempts one client address may start per minute. */
const RENDER_PER_MINUTE = 30;

/**
 * The public half of third-party sign-in (docs/sign-in.md): the sign-in page lists the tenant's
 * providers and asks for the authorize URL of one; the provider sends the browser back to
 * `/oauth/callback`, whose page posts `grant_type=social` to the token endpoint.
 */
export function registerSocialRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-auth/oauth/social/sources', { config: { public: true } }, async (request) => {
    const tenantId = await liveTenant(ctx, paramOf(request, 'tenantId'));
    return ok(await enabledSources(ctx, tenantId));
  });

  app.get<{ Params: { source: string } }>(
    '/api/blade-auth/oauth/render/:source',
    { config: { public: true } },
    async (request) => {
      await limitAttempts(ctx, 'social-render', request.ip, RENDER_PER_MINUTE, 60_000);
      const tenantId = await liveTenant(ctx, paramOf(request, 'tenantId'));
      let found: Awaited<ReturnType<typeof findSource>>;
      try {
        found = await findSource(ctx, tenantId, request.params.source);
      } catch (e) {
        if (e instanceof ProviderError) throw badRequest(e.message);
        throw e;
      }
      if (!found) throw badRequest(SourceMessages.unknown);
      const redirectUri = found.redirectUri || `${requestOrigin(request, paramOf(request, 'origin'))}/oauth/callback`;
      const pkce = found.config.category === 'oidc' ? pkcePair() : undefined;
      const state = await createState(ctx, {
        tenantId,
        source: found.source,
        redirectUri,
        codeVerifier: pkce?.verifier,
      });
      const url = authorizeUrl(found.config, { state, redirectUri, codeChallenge: pkce?.challenge });
      return ok({ url, state, source: found.source, expiresIn: STATE_TTL_MS / 1000 });
    },
  );
}
