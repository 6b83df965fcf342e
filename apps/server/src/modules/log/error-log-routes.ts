import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLIENT_EXCEPTION_NAME, errorLogResource, formatDateTime } from '@mes/contracts';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { nextId } from '../../platform/db/ids';
import { errorLog } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';

/** At most this many entries per upload; the console sends its log in batches of this size. */
export const MAX_UPLOAD_ENTRIES = 100;

/** Longest accepted text per field (the console truncates to the same limits when it records). */
export const ENTRY_LIMITS = { type: 32, message: 2000, stack: 8000, info: 2000, url: 2000, time: 64 } as const;

export { CLIENT_EXCEPTION_NAME };
export const WEB_SERVICE_ID = 'mes-web';

const FIELD_NAMES: Record<string, string> = {
  type: '类型',
  message: '内容',
  stack: '堆栈',
  info: '信息',
  url: '地址',
  time: '时间',
};

const text = (max: number) => z.string().max(max);

const entrySchema = z.object({
  type: text(ENTRY_LIMITS.type),
  message: text(ENTRY_LIMITS.message),
  stack: text(ENTRY_LIMITS.stack).optional(),
  info: text(ENTRY_LIMITS.info).optional(),
  url: text(ENTRY_LIMITS.url).optional(),
  time: z.union([z.number().finite().nonnegative(), text(ENTRY_LIMITS.time)]).optional(),
});

const uploadSchema = z.array(entrySchema).max(MAX_UPLOAD_ENTRIES);

type UploadEntry = z.infer<typeof entrySchema>;

/** One Chinese sentence naming the entry and field at fault, for the envelope's `msg`. */
function describeIssue(issue: z.core.$ZodIssue, body: unknown): string {
  const [index, field] = issue.path;
  if (index === undefined) {
    if (issue.code === 'too_big') return `本地日志一次最多上传${MAX_UPLOAD_ENTRIES}条`;
    return '本地日志必须是数组';
  }
  const entry = `第${Number(index) + 1}条日志`;
  if (field === undefined) return `${entry}必须是对象`;
  const name = FIELD_NAMES[String(field)] ?? String(field);
  if (issue.code === 'too_big') return `${entry}的${name}(${String(field)})过长,最多${String(issue.maximum)}个字符`;
  const given = (Array.isArray(body) ? (body[Number(index)] as Record<string, unknown>) : {})[String(field)];
  if (given === undefined) return `${entry}缺少${name}(${String(field)})`;
  return `${entry}的${name}(${String(field)})格式不正确`;
}

/** Client timestamps arrive as epoch milliseconds; stored in the contract's date format. */
function clientTime(time: UploadEntry['time']): string {
  if (typeof time === 'number') {
    const date = new Date(time);
    return Number.isNaN(date.getTime()) ? '' : formatDateTime(date);
  }
  return time ?? '';
}

const header = (request: FastifyRequest, name: string, max: number): string => {
  const value = request.headers[name];
  return (typeof value === 'string' ? value : '').slice(0, max);
};

/** Routes of the error log: storing uploaded local error logs. */
export function registerErrorLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/blade-log/error/upload', { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const parsed = uploadSchema.safeParse(request.body);
    if (!parsed.success) throw badRequest(describeIssue(parsed.error.issues[0] as z.core.$ZodIssue, request.body));
    if (parsed.data.length === 0) return ok(null);
    const userAgent = header(request, 'user-agent', 1000);
    const remoteIp = request.ip.slice(0, 255);
    const now = new Date(ctx.clock.now());
    await ctx.db.insert(errorLog).values(
      parsed.data.map((entry) => ({
        id: nextId(),
        tenantId: auth.tenantId,
        serviceId: WEB_SERVICE_ID,
        requestUri: entry.url ?? '',
        userAgent,
        remoteIp,
        methodName: entry.info ?? '',
        time: clientTime(entry.time),
        createBy: auth.account,
        createUser: auth.userId,
        createTime: now,
        stackTrace: entry.stack ?? '',
        exceptionName: CLIENT_EXCEPTION_NAME,
        message: entry.message,
      })),
    );
    await ctx.totals.changed(errorLogResource.code, '*');
    return ok(null);
  });
}
