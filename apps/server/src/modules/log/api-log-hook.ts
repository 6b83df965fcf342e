import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiLogType, DEFAULT_TENANT_ID } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { nextId } from '../../platform/db/ids';
import { paramsText, truncate } from './masking';
import type { LogWriters } from '../../platform/audit/log-writers';
import { headerText, pathOf, type ApiLogRecord } from './log-service';

/** Requests that are not worth a row: the load balancer's health probe and the API docs. */
const UNLOGGED = /^\/api\/(health$|docs(\/|$))/;
const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** The API-log row of an answered request; undefined for requests that are not logged. */
export function apiLogRecord(request: FastifyRequest, reply: FastifyReply, logs: LogWriters): ApiLogRecord | undefined {
  const path = pathOf(request.url);
  if (!isApiPath(path) || UNLOGGED.test(path)) return undefined;
  const auth = request.authContext;
  const status = reply.statusCode;
  // Read once: Fastify builds a new `routeOptions` object on every access.
  const route = request.routeOptions;
  const summary = (route.schema as { summary?: unknown } | undefined)?.summary;
  const server = logs.server;
  return {
    id: nextId(),
    // A caller without a (valid) token is filed under the platform: a tenant id it merely claims
    // must not let it write into that tenant's log.
    tenant_id: auth?.tenantId ?? DEFAULT_TENANT_ID,
    type: status < 400 ? ApiLogType.ok : ApiLogType.failed,
    title: typeof summary === 'string' ? summary.slice(0, 255) : '',
    service_id: server.serviceId,
    server_host: server.serverHost,
    server_ip: server.serverIp,
    env: server.env,
    method: request.method.slice(0, 16),
    request_uri: truncate(path, 1990),
    user_agent: headerText(request, 'user-agent', 1000),
    remote_ip: request.ip.slice(0, 255),
    method_class: (route.url ?? '').slice(0, 255),
    method_name: '',
    params: paramsText({
      query: request.query,
      body: request.body,
      contentType: request.headers['content-type'],
      contentLength: request.headers['content-length'],
    }),
    create_by: auth?.account ?? '',
    create_user: auth?.userId ?? null,
    status,
    time: Math.min(Math.round(reply.elapsedTime), 2147483647),
    create_time: logs.now(),
  };
}

/**
 * Records every API request once its reply is sent (`onResponse`: after the client has its
 * answer, so the log costs the request nothing it waits for). Off with `API_LOG=off`.
 */
export function registerApiLog(app: FastifyInstance, ctx: AppContext): void {
  if (!ctx.logs.apiLogEnabled) return;
  app.addHook('onResponse', (request, reply, done) => {
    try {
      const record = apiLogRecord(request, reply, ctx.logs);
      if (record) ctx.logs.recordApi(record);
    } catch (error) {
      request.log.warn({ err: error }, 'api log: request not recorded');
    }
    done();
  });
}
