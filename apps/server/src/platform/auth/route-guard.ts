import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import { coversRoute } from '../permissions/grants';
import { forbidden, unauthorized } from '../http/errors';
import { bearerToken, isAdministrator, toAuthContext } from './request-auth';

/** OpenAPI description and its viewer; they list routes, never data. */
export const DOCS_PREFIX = '/api/docs';

export const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');
export const isDocsPath = (path: string) => path === DOCS_PREFIX || path.startsWith(`${DOCS_PREFIX}/`);

/**
 * The path a request names, as loosely as any router or proxy might read it: absolute-form
 * targets lose their origin, percent-escapes are undone, dot segments resolved, repeated
 * slashes, backslashes and `;` parameters folded, and case ignored. Only used to choose between
 * 401 and 404 for requests that matched no route; a matched route's own pattern decides all else.
 */
export function looseApiPath(rawUrl: string): string {
  let target = rawUrl.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  target = target.split('?')[0] ?? '';
  for (let i = 0; i < 3; i++) {
    try {
      const decoded = decodeURIComponent(target);
      if (decoded === target) break;
      target = decoded;
    } catch {
      break;
    }
  }
  target = target
    .replace(/\\/g, '/')
    .replace(/;[^/]*/g, '')
    .replace(/\/{2,}/g, '/');
  const segments: string[] = [];
  for (const segment of target.split('/')) {
    if (segment === '.' || segment === '') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/**
 * Who may call what is read from the route that matched (`request.routeOptions`), never from the
 * request's text: the router decodes `%61pi`, accepts absolute-form targets and more, so a
 * check on `request.url` would see another path than the one that runs.
 *
 * - a matched `/api` route: its `public`, `anyUser` or `apiScope` rule, with the route's own
 *   pattern for the path grants; the platform administrator passes every scope;
 * - a matched route outside `/api`: open, unless it declares `anyUser` (then a session);
 * - the OpenAPI description: open with `API_DOCS=on`, else for signed-in callers;
 * - no route matched: a request that reads as an `/api` path needs a session (so that which
 *   routes exist is not told to anonymous callers), then gets the 404 or 405.
 */
export function registerRouteGuard(app: FastifyInstance, ctx: AppContext, options: { apiDocs: boolean }): void {
  const signedIn = async (request: FastifyRequest) => {
    // A live session only: revoked, or its account or tenant changed, is refused (session-state.ts).
    const token = bearerToken(request);
    const session = token ? await ctx.tokens.authenticate(token) : undefined;
    if (!session) throw unauthorized();
    const auth = toAuthContext(session.claims, session.rights);
    request.authContext = auth;
    return auth;
  };

  app.addHook('onRequest', async (request) => {
    // Read once: Fastify builds a new `routeOptions` object on every access.
    const { url: pattern, config } = request.routeOptions;
    if (pattern === undefined) {
      if (isApiPath(looseApiPath(request.url))) await signedIn(request);
      return;
    }
    if (isDocsPath(pattern)) {
      if (!options.apiDocs) await signedIn(request);
      return;
    }
    if (!isApiPath(pattern)) {
      // Outside `/api` only a route that asks for a session gets a check (the family client's
      // sign-out path); the web app's files and pages stay open.
      if (config.anyUser) await signedIn(request);
      return;
    }
    if (config.public) return;
    const auth = await signedIn(request);
    if (!config.apiScope || isAdministrator(auth)) return;
    const grants = await ctx.grants.apiGrants(auth.roleIds);
    if (!coversRoute(grants, config.apiScope, pattern)) throw forbidden();
  });
}
