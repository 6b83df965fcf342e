import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  apiScopeCodes,
  bilingual,
  dictBizResource,
  type DictEntry,
  dictResource,
  DictPaths,
  operationsOf,
  type ResourceDef,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ResourceService } from '../../engine/resource-routes';
import { requireAuth, splitIds, type AuthContext } from '../../platform/auth/request-auth';
import { dict, dictBiz } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { badRequest } from '../../platform/http/errors';
import { dictHooks, ROOT_ID, type DictTable } from './dict-rules';
import { isId } from '../../platform/db/ids';

const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/**
 * System dictionaries (`/blade-system/dict`, shared: every tenant reads, the platform tenant
 * writes) and business dictionaries (`/blade-system/dict-biz`, one set per tenant).
 */
export function registerDictRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerDictionaryResource(app, ctx, dictResource, dict, DictPaths.entries);
  registerDictionaryResource(app, ctx, dictBizResource, dictBiz, DictPaths.bizEntries);
}

/**
 * The generic routes (list as a tree, tree, detail, submit, export) with the dictionary rules
 * hooked in, plus `parent-list`, `child-list`, `dictionary` and a `remove` that takes a parent's
 * entries with it.
 */
function registerDictionaryResource(
  app: FastifyInstance,
  ctx: AppContext,
  def: ResourceDef,
  table: DictTable,
  entriesPath: string,
): void {
  // `remove` is registered below: it widens the ids to the entries before the generic removal.
  const operations = operationsOf(def).filter((op) => op !== 'remove');
  const service = registerResource(app, ctx, {
    def: { ...def, operations },
    table,
    hooks: dictHooks(def, table),
  });
  const base = `/api${def.api}`;
  const scopes = apiScopeCodes(def.code);

  app.get(`${base}/parent-list`, { config: { apiScope: scopes.read } }, async (request) =>
    ok(await service.page({ ...queryOf(request), parentId: ROOT_ID }, requireAuth(request))),
  );

  /** A page when `current` or `size` is given, else every entry of the parent. */
  app.get(`${base}/child-list`, { config: { apiScope: scopes.read } }, async (request) => {
    const query = queryOf(request);
    if (query.parentId === undefined || query.parentId === '') throw badRequest(bilingual('missingParam', 'parentId'));
    const auth = requireAuth(request);
    const paged = query.current !== undefined || query.size !== undefined;
    return ok(paged ? await service.page(query, auth) : await service.all(query, auth));
  });

  /** The entries of one dictionary for selects: any signed-in user of the owning tenant. */
  app.get(`/api${entriesPath}`, { config: { anyUser: true } }, async (request) => {
    const code = queryOf(request).code;
    if (typeof code !== 'string' || !code.trim()) throw badRequest(bilingual('missingParam', 'code'));
    const auth = requireAuth(request);
    const rows = await ctx.db
      .select({
        id: table.id,
        parentId: table.parentId,
        code: table.code,
        dictKey: table.dictKey,
        dictValue: table.dictValue,
        sort: table.sort,
        remark: table.remark,
        isSealed: table.isSealed,
      })
      .from(table)
      .where(and(await service.readScope(auth), eq(table.code, code.trim()), ne(table.parentId, ROOT_ID)))
      .orderBy(asc(table.sort), asc(table.id));
    // The shared column interface types values as unknown; both tables store them as DictEntry's.
    return ok(rows as DictEntry[]);
  });

  app.post(`${base}/remove`, { config: { apiScope: scopes.write } }, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const raw = queryOf(request).ids ?? body.ids;
    const auth = requireAuth(request);
    await service.remove(await withEntries(service, table, raw, auth), auth);
    return ok(true, bilingual('removed')[requestLanguage(request)]);
  });
}

/**
 * Adds the entries of every parent among `raw` ids, so removing a dictionary removes its entries
 * in the same transaction (the generic removal refuses a parent whose children are left). Ids it
 * cannot read go through unchanged, for the generic removal to refuse with its own message.
 */
async function withEntries(
  service: ResourceService,
  table: DictTable,
  raw: unknown,
  auth: AuthContext,
): Promise<unknown> {
  if (typeof raw !== 'string') return raw;
  const ids = splitIds(raw);
  if (!ids.length || ids.length > 1000 || !ids.every((id) => isId(id))) return raw;
  const entries = await service.ctx.db
    .select({ id: table.id })
    .from(table)
    .where(and(await service.readScope(auth), inArray(table.parentId, ids)));
  return [...new Set([...ids, ...entries.map((e) => String(e.id))])].join(',');
}
