import type { FastifyInstance } from 'fastify';
import { AuthPaths, DEFAULT_TENANT_ID, SOCIAL_RENDER_BASE } from '@mes/contracts';
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

const TENANT_ID = /^[0-9A-Za-z]{1,12}$/;
/** Sign-in attempts one client address may start per minute. */
const RENDER_PER_MINUTE = 30;

/**
 * The public half of third-party sign-in (docs/sign-in.md): the sign-in page lists the tenant's
 * providers and asks for the authorize URL of one; the provider sends the browser back to
 * `/oauth/callback`, whose page posts `grant_type=social` to the token endpoint.
 */
export function registerSocialRoutes(app: FastifyInstance, ctx: AppContext): void {
  // No enumeration: a tenant that does not exist (or may not sign in) answers exactly as a
  // tenant without providers does, after the same queries.
  app.get(`/api${AuthPaths.socialSources}`, { config: { public: true } }, async (request) => {
    const raw = paramOf(request, 'tenantId');
    const requested = typeof raw === 'string' && raw.trim() ? raw.trim() : DEFAULT_TENANT_ID;
    // A malformed id names no tenant by its form alone, which tells nothing about any tenant.
    if (!TENANT_ID.test(requested)) return ok([]);
    const [live, sources] = await Promise.all([
      liveTenant(ctx, requested).then(
        () => true,
        () => false,
      ),
      enabledSources(ctx, requested),
    ]);
    return ok(live ? sources : []);
  });

  app.get<{ Params: { source: string } }>(
    `/api${SOCIAL_RENDER_BASE}/:source`,
    { config: { public: true } },
    async (request) => {
      await limitAttempts(ctx, 'social-render', request.ip, RENDER_PER_MINUTE, 60_000);
      const tenantId = await liveTenant(ctx, paramOf(request, 'tenantId'));
      let found: Awaited<ReturnType<typeof findSource>>;
      try {
        found = await findSource(ctx, tenantId, request.params.source);
      } catch (e) {
        if (e instanceof ProviderError) throw badRequest(e.text);
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
