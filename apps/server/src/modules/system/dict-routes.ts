import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Messages, type DictEntry } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dict } from '../../platform/db/schema';
import { ok, pageOf } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import { parseListQuery, type ListFields } from '../../platform/http/list-query';

const dictColumns = {
  id: dict.id,
  parentId: dict.parentId,
  code: dict.code,
  dictKey: dict.dictKey,
  dictValue: dict.dictValue,
  sort: dict.sort,
  remark: dict.remark,
  isSealed: dict.isSealed,
};

/** What clients may filter and sort the parent dictionary list by; nothing else is accepted. */
const PARENT_LIST_FIELDS: ListFields = {
  code: { type: 'text', filter: true, sort: true, column: dict.code },
  dictValue: { type: 'text', filter: true, sort: true, column: dict.dictValue },
  sort: { type: 'number', sort: true, column: dict.sort },
  isSealed: { type: 'number', filter: true, column: dict.isSealed },
  createTime: { type: 'date', filter: true, sort: true, column: dict.createTime },
};

export function registerDictRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** System dictionaries are shared by every tenant; any signed-in user may read them. */
  app.get('/api/blade-system/dict/dictionary', { config: { anyUser: true } }, async (request) => {
    const code = (request.query as Record<string, unknown>).code;
    if (typeof code !== 'string' || !code) throw badRequest(Messages.missingParam('code'));
    const rows: DictEntry[] = await ctx.db
      .select(dictColumns)
      .from(dict)
      .where(and(eq(dict.code, code), ne(dict.parentId, '0'), eq(dict.isDeleted, 0)))
      .orderBy(asc(dict.sort));
    return ok(rows);
  });

  app.get('/api/blade-system/dict/parent-list', { config: { apiScope: 'dict:read' } }, async (request) => {
    const q = parseListQuery(request.query as Record<string, unknown>, PARENT_LIST_FIELDS, {
      defaultOrder: [asc(dict.sort)],
    });
    const where = and(eq(dict.parentId, '0'), eq(dict.isDeleted, 0), q.where);
    const [records, [total]] = await Promise.all([
      ctx.db
        .select(dictColumns)
        .from(dict)
        .where(where)
        .orderBy(...q.orderBy, asc(dict.id))
        .limit(q.size)
        .offset(q.offset),
      ctx.db.select({ n: count() }).from(dict).where(where),
    ]);
    return ok(pageOf(records, total?.n ?? 0, q.current, q.size));
  });
}
