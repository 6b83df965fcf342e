import fs from 'node:fs';
import path from 'node:path';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  apiLogResource,
  dictBizResource,
  dictResource,
  failedJobsScreen,
  errorLogResource,
  loginLogResource,
  bilingual,
  operationLogResource,
  ResultCode,
  usualLogResource,
  type BilingualText,
  type RegistryEntry,
} from '@mes/contracts';
import type { AppContext } from './app-context';
import { requestLanguage } from './platform/http/request-language';
import { registerRegistryRoutes, type RouteBinding } from './engine/registry';
import { registerAuthRoutes } from './modules/auth/auth-routes';
import { registerHealthRoutes } from './modules/health/health-routes';
import { registerApiLog } from './modules/log/api-log-hook';
import { registerLogRoutes } from './modules/log/log-routes';
import { registerFailedJobsRoutes } from './modules/jobs/failed-jobs-routes';
import { serverErrorMessage } from './modules/log/log-service';
import { registerDictRoutes } from './modules/system/dict-routes';
import { registerMenuRoutes } from './modules/system/menu-routes';
import { registerTopMenuRoutes } from './modules/system/top-menu-routes';
import { businessRouteBindings } from './modules/business';
import { deskRouteBindings } from './modules/desk';
import { deviceRouteBindings } from './modules/device';
import { maintenanceRouteBindings } from './modules/maintenance';
import { flowRouteBindings } from './modules/flow';
import { registerLiveRoutes } from './modules/live/live-routes';
import { warningRouteBindings } from './modules/warning';
import { reportRouteBindings } from './modules/report';
import { registerWelcomeRoutes } from './modules/welcome/welcome-routes';
import { registerDemoRoutes } from './modules/demo/demo-routes';
import { resourceRouteBindings } from './modules/providers';
import { systemRouteBindings } from './modules/system';
import { registerProfileRoutes } from './modules/user/profile-routes';
import { registerUserRoutes } from './modules/user/user-routes';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { DOCS_PREFIX, isApiPath, isDocsPath, looseApiPath, registerRouteGuard } from './platform/auth/route-guard';
import { fail, serializeJson } from './platform/http/envelope';
import { registerInputGuard } from './platform/http/input-guard';
import { HttpError } from './platform/http/errors';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_STATUS,
  DATABASE_UNAVAILABLE_TEXT,
} from './platform/http/database-unavailable';
import { throttledWarning } from './platform/db/throttled-warning';
import { isDatabaseUnavailable } from './platform/db/unavailable';
import type { FairShareLimits } from './platform/config';
import { FairShares } from './platform/http/fair-shares';
import { observeRequest } from './platform/metrics/metrics';
import { registerMetricsRoute } from './modules/health/metrics-route';

/** Who may call a route, as its `config` declares. */
export interface RouteAccess {
  public?: boolean;
  apiScope?: string;
  anyUser?: boolean;
}

/** Every /api route with its access rule (the authorisation tests walk this list). */
export interface ApiRouteInfo {
  method: string;
  url: string;
  access: RouteAccess;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: ApiRouteInfo[];
    /** The limits per user and per tenant, and the slots held (platform/http/fair-shares.ts). */
    fairShares: FairShares;
  }
}

export interface BuildAppOptions {
  /** Built web app to serve at `/` (omitted in API-only tests). */
  webDist?: string;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /**
   * `TRUST_PROXY`: the proxies whose `X-Forwarded-For` is believed (addresses, CIDRs or
   * `loopback`); without it the client address is the socket's peer.
   */
  trustProxy?: string[];
  /** `API_DOCS=on`: the OpenAPI description is open to anyone; otherwise only to signed-in callers. */
  apiDocs?: boolean;
  /** The definitions to serve; default the application's registry (a test adds its own). */
  registry?: readonly RegistryEntry[];
  /** `METRICS_TOKEN`: `/metrics` answers only this bearer token; without it `/metrics` is 404. */
  metricsToken?: string | undefined;
  /** Limits per user and per tenant (`LIVE_STREAMS_PER_USER` ...); omitted ones take the defaults. */
  fairShares?: Partial<FairShareLimits>;
}

/** Modules' routes for the definitions with behaviour of their own; every other one is generic. */
const ROUTE_BINDINGS: readonly RouteBinding[] = [
  ...systemRouteBindings,
  ...resourceRouteBindings,
  ...businessRouteBindings,
  ...deviceRouteBindings,
  ...maintenanceRouteBindings,
  ...warningRouteBindings,
  ...reportRouteBindings,
  ...deskRouteBindings,
  ...flowRouteBindings,
  { defs: [dictResource, dictBizResource], register: registerDictRoutes },
  {
    defs: [apiLogResource, usualLogResource, errorLogResource, loginLogResource, operationLogResource],
    register: registerLogRoutes,
  },
  { defs: [failedJobsScreen], register: registerFailedJobsRoutes },
];

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** Messages for the client errors Fastify itself raises (bad JSON, wrong content type, ...). */
const CLIENT_ERROR_MESSAGES: Record<number, BilingualText> = {
  400: bilingual('badRequest'),
  404: bilingual('notFound'),
  405: bilingual('methodNotAllowed'),
  413: bilingual('payloadTooLarge'),
  415: bilingual('unsupportedMediaType'),
  429: bilingual('tooManyRequests'),
};

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const loggerOption =
    options.logger && typeof (options.logger as FastifyBaseLogger).child === 'function'
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : { logger: (options.logger as FastifyServerOptions['logger']) ?? false };
  const app = Fastify({
    ...loggerOption,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: options.trustProxy?.length ? options.trustProxy.join(',') : false,
  });
  app.decorateRequest('authContext', undefined);
  app.decorate(
    'fairShares',
    new FairShares(
      {
        pool: ctx.database.pool,
        instanceId: ctx.cluster.instanceId,
        warn: (message, error) => ctx.logs.warn(message, error),
      },
      options.fairShares,
    ),
  );
  // After the live streams' preClose: what this process still holds is given back at once.
  app.addHook('onClose', () => app.fairShares.stop());
  // Rate and latency by route pattern (request.routeOptions.url), once per answered request.
  app.addHook('onResponse', async (request, reply) => {
    observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.setReplySerializer(serializeJson);
  ctx.logs.useLogger(app.log);
  registerApiLog(app, ctx);
  await app.register(formbody);
  registerInputGuard(app);

  // A route that forgets to say who may call it would be open to every signed-in user: refuse
  // to start instead.
  const apiRoutes: ApiRouteInfo[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    if (!isApiPath(url) || isDocsPath(url)) return;
    const config = route.config as RouteAccess | undefined;
    if (!config?.public && !config?.apiScope && !config?.anyUser) {
      throw new Error(`route ${String(route.method)} ${url} declares neither apiScope, anyUser nor public`);
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') apiRoutes.push({ method, url, access: config });
    }
  });

  registerRouteGuard(app, ctx, { apiDocs: options.apiDocs ?? false });

  // One line per 10 s at most: during an outage every request fails the same way.
  const databaseOutage = throttledWarning((message, error) => app.log.warn({ err: error }, message));
  // Before the documentation plugins: an encapsulated plugin keeps the handler it was registered under.
  app.setErrorHandler((error, request, reply) => {
    const lang = requestLanguage(request);
    if (error instanceof HttpError) return reply.code(error.code).send(fail(error.code, error.textIn(lang)));
    if (isDatabaseUnavailable(error)) {
      databaseOutage(`database unavailable: ${request.method} ${request.routeOptions.url ?? ''} answered 503`, error);
      return reply
        .code(DATABASE_UNAVAILABLE_STATUS)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send(fail(DATABASE_UNAVAILABLE_STATUS, DATABASE_UNAVAILABLE_TEXT[lang]));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      const known = (CLIENT_ERROR_MESSAGES[status] ?? bilingual('badRequest'))[lang];
      const msg = (error as { validation?: unknown }).validation
        ? `${bilingual('badRequest')[lang]}: ${(error as Error).message}`
        : known;
      return reply.code(status).send(fail(status, msg));
    }
    // Details go to the error log, never to the client: it gets the row's id to quote.
    const errorId = ctx.logs.serverError(error, request, reply.elapsedTime);
    request.log.error({ err: error, url: request.url, errorId }, 'unhandled error');
    return reply
      .code(ResultCode.INTERNAL_ERROR)
      .send(fail(ResultCode.INTERNAL_ERROR, serverErrorMessage(errorId, lang)));
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'MES Console API', version: '1.0.0', description: 'BladeX-style contract; see docs/api.md' },
      components: {
        securitySchemes: {
          bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth', description: 'bearer <access_token>' },
        },
      },
      security: [{ bladeAuth: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
  });

  const indexHtml = options.webDist ? path.join(options.webDist, 'index.html') : undefined;
  const hasWeb = indexHtml !== undefined && fs.existsSync(indexHtml);
  if (hasWeb && options.webDist) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      wildcard: false,
      // The build writes .br and .gz beside each asset; the client's Accept-Encoding picks one.
      preCompressed: true,
      setHeaders(reply, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathOnly = request.url.split('?')[0] ?? '';
    if (isApiPath(looseApiPath(request.url))) {
      const otherMethod = METHODS.some((m) => m !== request.method && app.hasRoute({ method: m, url: pathOnly }));
      const code = otherMethod ? ResultCode.METHOD_NOT_ALLOWED : ResultCode.NOT_FOUND;
      const text = bilingual(otherMethod ? 'methodNotAllowed' : 'notFound');
      return reply.code(code).send(fail(code, text[requestLanguage(request)]));
    }
    // Client-side routes of the single-page app all load index.html.
    if (hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(fail(404, bilingual('notFound')[requestLanguage(request)]));
  });

  registerHealthRoutes(app, ctx);
  registerMetricsRoute(app, options.metricsToken);
  registerAuthRoutes(app, ctx);
  registerMenuRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerTopMenuRoutes(app, ctx);
  registerProfileRoutes(app, ctx);
  registerLiveRoutes(app, ctx);
  registerWelcomeRoutes(app, ctx);
  registerDemoRoutes(app, ctx);
  // Every definition of the registry: its module's routes, or the generic ones.
  registerRegistryRoutes(app, ctx, { entries: options.registry, bindings: ROUTE_BINDINGS });
  return app;
}
