import type { FastifyInstance } from 'fastify';
import { LIVE_STREAM_PATH } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { ALL_TOPICS, tenantOfTopic } from '../../platform/cache/change-feed';
import { bearerToken, requireAuth, toAuthContext, type AuthContext } from '../../platform/auth/request-auth';
import { HttpError, unauthorized } from '../../platform/http/errors';
import { GRANTS_TOPIC } from '../../platform/permissions/grants';
import { watchLiveStreams } from '../../platform/metrics/metrics';
import { liveAccess } from './live-access';
import { DEFAULT_LIVE_LIMITS, LiveStream, type LiveStreamLimits } from './live-stream';

const LiveMessages = {
  unavailable: '实时推送暂不可用，请稍后重试 (live updates are unavailable, try again later)',
  notAcceptable: '实时推送只以 text/event-stream 应答，请求须带 Accept: text/event-stream',
};

/**
 * A stream never ends by itself, so it is only opened for a caller that asks for one (the web
 * client, EventSource, `curl -H 'Accept: text/event-stream'`); any other call gets a 406 at once.
 */
const wantsStream = (accept: string | undefined) => (accept ?? '').toLowerCase().includes('text/event-stream');

/** Writes of these resources (`rows:<code>:<tenant>`) may change what a tenant's streams may carry. */
const WATCHED = new Set(['user', 'role', 'dept', 'tenant']);

/**
 * The tenant whose streams a change notice concerns: '*' for every tenant, undefined for none.
 * Grants are not per tenant in the feed; tenants are written by the platform.
 */
function tenantOfChange(topic: string): string | undefined {
  if (topic === ALL_TOPICS || topic === GRANTS_TOPIC) return '*';
  const cleared = tenantOfTopic(topic);
  if (cleared !== undefined) return cleared;
  const [kind, code, tenant] = topic.split(':');
  if (kind !== 'rows' || code === undefined || !WATCHED.has(code)) return undefined;
  return code === 'tenant' ? '*' : tenant;
}

const sameRights = (a: AuthContext, b: AuthContext) =>
  a.deptId === b.deptId && [...a.roleIds].sort().join(',') === [...b.roleIds].sort().join(',');

/**
 * `GET /api/blade-desk/live`: the caller's stream of live events (docs/live.md). The session is the
 * `Blade-Auth` header's, checked by the route guard like every route; the stream then keeps
 * checking it and ends when it no longer stands (logout, password, account, roles, tenant).
 */
export function registerLiveRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  limits: LiveStreamLimits = DEFAULT_LIVE_LIMITS,
): void {
  const streams = new Set<LiveStream>();
  const unwatch = watchLiveStreams(streams);
  const each = (call: (s: LiveStream) => void, tenantId = '*') => {
    for (const s of [...streams]) if (tenantId === '*' || s.session.tenantId === tenantId) call(s);
  };

  const unsubscribe = ctx.live.subscribe({
    event: (event) => each((s) => s.offer(event), event.tenantId),
    revoked: (sid) =>
      each((s) => {
        if (s.session.sid === sid) s.end('session');
      }),
    lost: () => each((s) => s.end('lost')),
  });
  ctx.changes.subscribe((topic) => {
    const tenantId = tenantOfChange(topic);
    if (tenantId !== undefined) each((s) => s.recheck(), tenantId);
  });
  // Open streams would hold the server's close forever: they end first, and browsers reconnect
  // to another process (or to this one once it is back).
  app.addHook('preClose', async () => {
    unsubscribe();
    unwatch();
    each((s) => s.end('shutdown'));
  });

  app.get(`/api${LIVE_STREAM_PATH}`, { config: { anyUser: true } }, async (request, reply) => {
    const auth = requireAuth(request);
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    if (!wantsStream(request.headers.accept)) throw new HttpError(406, LiveMessages.notAcceptable);
    if (!ctx.live.isLive()) throw new HttpError(503, LiveMessages.unavailable);
    const access = await liveAccess(ctx, auth);
    // The user's share of streams: a 429 before the stream opens, the slot given back when it ends.
    // Counted across the cluster (platform/http/fair-shares.ts), so the slot is taken in the database.
    const release = await app.fairShares.take('live', auth.userId);

    const session = {
      sid: auth.claims.sid,
      tenantId: auth.tenantId,
      async stands() {
        const now = await ctx.tokens.authenticate(token);
        return now !== undefined && sameRights(auth, toAuthContext(now.claims, now.rights));
      },
      decide: () => liveAccess(ctx, auth),
    };

    reply.hijack();
    const raw = reply.raw;
    raw.once('close', () => void release());
    // The browser may have gone while the slot was being taken: its 'close' came before the listener.
    if (request.raw.socket.destroyed) void release();
    raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Nginx and similar proxies would otherwise hold the events back in their buffers.
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
    });
    raw.write(`retry: ${limits.retryMs}\n: connected\n\n`);
    const stream = new LiveStream(raw, session, access, limits, (s) => {
      streams.delete(s);
      void release();
    });
    if (!stream.isEnded) streams.add(stream);
  });
}
