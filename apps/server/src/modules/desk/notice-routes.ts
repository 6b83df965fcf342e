import { and, count, desc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  bilingual,
  NOTICE_INBOX_PATH,
  NOTICE_READ_PATH,
  NoticeAudience,
  type NoticeInboxEntry,
  type NoticeInboxReply,
  noticeResource,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs, type RemoveArgs, type ResourceService } from '../../engine/resource-routes';
import { requireAuth, splitIds, type AuthContext } from '../../platform/auth/request-auth';
import { dept, notice, noticeRead, role, user } from '../../platform/db/schema';
import { ok, pageOf } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { idValue } from '../../platform/http/request-params';
import { notifyLive } from '../../platform/live/notify-live';
import { rowsOfSameTenant, tenantScope, type Queryable } from '../../platform/tenancy/tenant-scope';
import { DeskMessages } from './messages';
import { noticeAudienceDepts } from './notice-audience';
import { sanitizeNoticeHtml } from './notice-html';
import { liveClient, noticeEvent, noticeReleaseJob, registerNoticeRelease, type NoticeFacts } from './notice-release';

const MAX_PAGE_SIZE = 100;

/**
 * Before a notice is stored: its content through the allow-list, and its audience checked —
 * every role or department it names must be a live one of the writer's tenant.
 */
async function beforeChange({ tx, auth, values, existing }: ChangeArgs): Promise<void> {
  if (typeof values.content === 'string') values.content = sanitizeNoticeHtml(values.content);
  const type = Number(values.audienceType ?? existing?.audienceType ?? NoticeAudience.everyone);
  if (type === NoticeAudience.everyone) {
    // The ids field is hidden then, so the engine would keep stale ids: they mean nothing now.
    values.audienceIds = '';
    return;
  }
  const ids = [...new Set(splitIds(String(values.audienceIds ?? existing?.audienceIds ?? '')))];
  const table = type === NoticeAudience.roles ? role : type === NoticeAudience.users ? user : dept;
  const found = ids.length
    ? await tenantScope(tx, auth.tenantId).select(table, { id: table.id }).where(inArray(table.id, ids))
    : [];
  if (found.length !== ids.length || !ids.length)
    throw badRequest(
      type === NoticeAudience.roles
        ? DeskMessages.unknownRoles
        : type === NoticeAudience.users
          ? DeskMessages.unknownUsers
          : DeskMessages.unknownDepts,
    );
}

function factsOf(tenantId: string, id: string, values: ChangeArgs['values'], existing: ChangeArgs['existing']) {
  const pick = (name: string) => values[name] ?? existing?.[name];
  return {
    tenantId,
    id,
    title: String(pick('title') ?? ''),
    audienceType: Number(pick('audienceType') ?? NoticeAudience.everyone),
    audienceIds: String(pick('audienceIds') ?? ''),
  } satisfies NoticeFacts;
}

/**
 * After a notice is written: released now (its time has come) → a live event in this
 * transaction; released later → a durable job that starts at the release time.
 */
async function afterChange(args: ChangeArgs & { id: string }): Promise<void> {
  const { tx, auth, id, values, existing, enqueue } = args;
  const at = (values.releaseTime ?? existing?.releaseTime) as Date;
  const now = Date.now();
  const facts = factsOf(auth.tenantId, id, values, existing);
  const wasOut = existing !== undefined && (existing.releaseTime as Date).getTime() <= now;
  if (at.getTime() <= now) {
    await notifyLive(liveClient(tx), [noticeEvent(facts, wasOut ? 'changed' : 'released')]);
    return;
  }
  await enqueue(
    noticeReleaseJob,
    { tenantId: auth.tenantId, noticeId: id, releaseTime: at.toISOString() },
    { startAfter: at },
  );
  // A released notice moved back into the future leaves the inboxes until then.
  if (wasOut) await notifyLive(liveClient(tx), [noticeEvent(facts, 'changed')]);
}

async function afterRemove({ tx, auth, rows }: RemoveArgs): Promise<void> {
  const now = Date.now();
  const out = rows.filter((r) => (r.releaseTime as Date).getTime() <= now);
  if (!out.length) return;
  await notifyLive(
    liveClient(tx),
    out.map((r) => noticeEvent(factsOf(auth.tenantId, String(r.id), {}, r), 'removed')),
  );
}

/**
 * Which notices reach the caller: everyone's, those naming one of their roles, those naming
 * one of their departments or a department above it (a notice to a region reaches its clinics),
 * and those naming them (a process's notice to its starter or an assignee).
 */
async function audienceCondition(db: Queryable, auth: AuthContext): Promise<SQL> {
  const depts = await noticeAudienceDepts(db, auth);
  // Both sides as text arrays; the caller's ids travel as one parameter.
  const names = (ids: Iterable<string>): SQL => {
    const list = [...ids].join(',');
    return list ? sql`string_to_array(${notice.audienceIds}, ',') && string_to_array(${list}, ',')` : sql`false`;
  };
  return or(
    eq(notice.audienceType, NoticeAudience.everyone),
    and(eq(notice.audienceType, NoticeAudience.roles), names(auth.roleIds)),
    and(eq(notice.audienceType, NoticeAudience.depts), names(depts)),
    and(eq(notice.audienceType, NoticeAudience.users), names([auth.userId])),
  ) as SQL;
}

/** The notices released to the caller: the engine's scope (tenant, live rows), released, audience. */
async function inboxWhere(service: ResourceService, ctx: AppContext, auth: AuthContext): Promise<SQL> {
  return and(
    await service.readScope(auth),
    lte(notice.releaseTime, new Date()),
    await audienceCondition(ctx.db, auth),
  ) as SQL;
}

/** The caller's read mark of the notice row being read (same tenant, same user). */
const readMarkOf = (auth: AuthContext) =>
  rowsOfSameTenant(noticeRead, notice, eq(noticeRead.noticeId, notice.id), eq(noticeRead.userId, auth.userId));

function pageNumber(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const text = String(raw);
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) throw badRequest(DeskMessages.badPage(name));
  return Math.min(Number(text), max);
}

/** One notice the caller may read, or the engine's "数据不存在或无权访问". */
async function readable(service: ResourceService, ctx: AppContext, auth: AuthContext, id: string) {
  const [row] = await ctx.db
    .select(service.columns)
    .from(notice)
    .where(and(await inboxWhere(service, ctx, auth), eq(notice.id, id)))
    .limit(1);
  if (!row) throw notFound(bilingual('rowNotFound'));
  return row;
}

async function markRead(ctx: AppContext, auth: AuthContext, noticeId: string): Promise<void> {
  await tenantScope(ctx.db, auth.tenantId)
    .insert(noticeRead)
    .values({ noticeId, userId: auth.userId })
    .onConflictDoNothing();
}

/**
 * Notices (`/api/blade-desk/notice`): the generic screen's routes with sanitised content and a
 * checked audience, plus the reader's side — `inbox`, `view` (reads and marks) and `read`.
 */
export function registerNoticeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = registerResource(app, ctx, {
    def: noticeResource,
    table: notice,
    hooks: { beforeChange, afterChange, afterRemove },
  });
  registerNoticeRelease(ctx);

  app.get(`/api${NOTICE_INBOX_PATH}`, { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const query = request.query as Record<string, unknown>;
    const current = pageNumber(query.current, 'current', 1, 100_000);
    const size = pageNumber(query.size, 'size', 10, MAX_PAGE_SIZE);
    const where = await inboxWhere(service, ctx, auth);
    const readMark = readMarkOf(auth);
    const [rows, [totals]] = await Promise.all([
      ctx.db
        .select({
          id: notice.id,
          title: notice.title,
          category: notice.category,
          releaseTime: notice.releaseTime,
          read: sql<boolean>`${noticeRead.userId} is not null`,
        })
        .from(notice)
        .leftJoin(noticeRead, readMark)
        .where(where)
        .orderBy(desc(notice.releaseTime), desc(notice.id))
        .limit(size)
        .offset((current - 1) * size),
      ctx.db
        .select({
          total: count(),
          unread: sql<number>`count(*) filter (where ${isNull(noticeRead.userId)})`.mapWith(Number),
        })
        .from(notice)
        .leftJoin(noticeRead, readMark)
        .where(where),
    ]);
    const records = (await service.decorate(rows, auth)) as unknown as NoticeInboxEntry[];
    const reply: NoticeInboxReply = {
      ...pageOf(records, totals?.total ?? 0, current, size),
      unread: totals?.unread ?? 0,
    };
    return ok(reply);
  });

  app.get(`/api${noticeResource.api}/view`, { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const id = idValue((request.query as Record<string, unknown>).id, 'id');
    const row = await readable(service, ctx, auth, id);
    await markRead(ctx, auth, id);
    const [shown] = await service.decorate([row], auth);
    return ok({ ...shown, read: true });
  });

  app.post(`/api${NOTICE_READ_PATH}`, { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const query = request.query as Record<string, unknown>;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const id = idValue(query.id ?? body.id, 'id');
    await readable(service, ctx, auth, id);
    await markRead(ctx, auth, id);
    return ok(true);
  });
}
