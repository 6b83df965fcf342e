import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CLIENT_EXCEPTION_NAME,
  ERROR_LOG_UPLOAD_PATH,
  errorLogResource,
  formatDateTime,
  type BilingualText,
} from '@mes/contracts';
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

const FIELD_NAMES: Record<string, BilingualText> = {
  type: { zh: '类型', en: 'type' },
  message: { zh: '内容', en: 'message' },
  stack: { zh: '堆栈', en: 'stack' },
  info: { zh: '信息', en: 'info' },
  url: { zh: '地址', en: 'address' },
  time: { zh: '时间', en: 'time' },
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

/** One sentence naming the entry and field at fault, for the envelope's `msg`. */
function describeIssue(issue: z.core.$ZodIssue, body: unknown): BilingualText {
  const [index, field] = issue.path;
  if (index === undefined) {
    if (issue.code === 'too_big')
      return {
        zh: `本地日志一次最多上传${MAX_UPLOAD_ENTRIES}条`,
        en: `At most ${MAX_UPLOAD_ENTRIES} local log entries per upload`,
      };
    return { zh: '本地日志必须是数组', en: 'The local log must be an array' };
  }
  const n = Number(index) + 1;
  const entry = { zh: `第${n}条日志`, en: `Log entry ${n}` };
  if (field === undefined) return { zh: `${entry.zh}必须是对象`, en: `${entry.en} must be an object` };
  const key = String(field);
  const name = FIELD_NAMES[key] ?? { zh: key, en: key };
  if (issue.code === 'too_big') {
    const max = String(issue.maximum);
    return {
      zh: `${entry.zh}的${name.zh}(${key})过长,最多${max}个字符`,
      en: `${entry.en}: the ${name.en} (${key}) is too long, at most ${max} characters`,
    };
  }
  const given = (Array.isArray(body) ? (body[Number(index)] as Record<string, unknown>) : {})[key];
  if (given === undefined)
    return { zh: `${entry.zh}缺少${name.zh}(${key})`, en: `${entry.en} has no ${name.en} (${key})` };
  return { zh: `${entry.zh}的${name.zh}(${key})格式不正确`, en: `${entry.en}: the ${name.en} (${key}) is malformed` };
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
  app.post(`/api${ERROR_LOG_UPLOAD_PATH}`, { config: { anyUser: true } }, async (request) => {
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
