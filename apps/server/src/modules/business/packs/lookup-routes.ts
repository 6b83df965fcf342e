import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  apiScopeCodes,
  formatDateTime,
  isPackState,
  PACK_BATCH_MAX,
  PACK_BY_CODES_PATH,
  PACK_CASE_PATH,
  PACK_CODE_PATTERN,
  PACK_LOAD_PATH,
  PACK_STOCK_PATH,
  PACK_TRACE_PATH,
  PackLookupMessages,
  packResource,
  PackState,
  STOCK_STATES,
  type PackBrief,
  type PackByCodes,
  type PackLoadPacks,
  type PackTrace,
  type PackUseRow,
} from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { dataScopeCondition } from '../../../engine/resource-access';
import { requireAuth, type AuthContext } from '../../../platform/auth/request-auth';
import { article, dept, load, pack, packMove } from '../../../platform/db/schema';
import { isId } from '../../../platform/db/ids';
import { ok } from '../../../platform/http/envelope';
import { badRequest, notFound } from '../../../platform/http/errors';
import { tenantScope, type Queryable } from '../../../platform/tenancy/tenant-scope';
import { zoneDay } from '../../welcome/welcome-days';
import { packHistory } from './pack-moves';

type Query = Record<string, unknown>;

/** One text parameter; a list or object (`?a=1&a=2`) is as bad as a missing one. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value.trim() : undefined;
}

function codeOf(query: Query): string {
  const code = textOf(query.code);
  if (!code || !PACK_CODE_PATTERN.test(code)) throw badRequest(PackLookupMessages.code);
  return code;
}

function codesOf(query: Query): string[] {
  const text = textOf(query.codes);
  const codes = [...new Set((text ?? '').split(',').map((c) => c.trim()))].filter(Boolean);
  if (!codes.length || codes.length > PACK_BATCH_MAX || !codes.every((c) => PACK_CODE_PATTERN.test(c)))
    throw badRequest(PackLookupMessages.codes(PACK_BATCH_MAX));
  return codes;
}

function idOf(value: unknown, message: { zh: string; en: string }): string {
  const id = textOf(value);
  if (!id || !isId(id)) throw badRequest(message);
  return id;
}

/**
 * The packs the caller may read: of their tenant (the scope) and within the pack screen's data
 * scope, the same condition the generic pack list applies, so a look-up never shows more.
 */
async function readablePacks(
  db: Queryable,
  auth: AuthContext,
  grants: AppContext['grants'],
  where: SQL | undefined,
  order: SQL[] = [asc(pack.code)],
) {
  const scope = tenantScope(db, auth.tenantId);
  return scope
    .select(pack)
    .where(and(where, await dataScopeCondition(packResource, auth, grants)))
    .orderBy(...order)
    .limit(PACK_BATCH_MAX * 4);
}

type PackRow = Awaited<ReturnType<typeof readablePacks>>[number];

/** The packs with their article's, department's and load's names. */
async function briefsOf(db: Queryable, tenantId: string, rows: PackRow[], today: string): Promise<PackBrief[]> {
  if (!rows.length) return [];
  const scope = tenantScope(db, tenantId);
  const idsOf = (key: 'articleId' | 'deptId' | 'loadId') => [
    ...new Set(
      rows
        .map((r) => r[key])
        .filter((v): v is string => !!v)
        .map(String),
    ),
  ];
  const named = async (ids: string[], read: (ids: string[]) => Promise<{ id: string; name: string }[]>) =>
    new Map((ids.length ? await read(ids) : []).map((r) => [String(r.id), r.name]));
  const [articles, depts, loads] = await Promise.all([
    named(idsOf('articleId'), (ids) =>
      scope.select(article, { id: article.id, name: article.name }).where(inArray(article.id, ids)),
    ),
    named(idsOf('deptId'), (ids) =>
      scope.select(dept, { id: dept.id, name: dept.deptName }).where(inArray(dept.id, ids)),
    ),
    named(idsOf('loadId'), (ids) =>
      scope.select(load, { id: load.id, name: load.loadNo }).where(inArray(load.id, ids)),
    ),
  ]);
  return rows.map((r) => {
    const state = isPackState(r.state) ? r.state : PackState.awaitingPickup;
    const expiryDate = r.expiryDate ?? '';
    return {
      id: String(r.id),
      code: r.code,
      articleName: r.articleId ? (articles.get(String(r.articleId)) ?? '') : '',
      state,
      deptId: r.deptId ? String(r.deptId) : null,
      deptName: r.deptId ? (depts.get(String(r.deptId)) ?? '') : '',
      loadId: r.loadId ? String(r.loadId) : null,
      loadNo: r.loadId ? (loads.get(String(r.loadId)) ?? '') : '',
      patientCase: r.patientCase,
      sterileDate: r.sterileDate ?? '',
      expiryDate,
      pastExpiry: !!expiryDate && expiryDate < today && STOCK_STATES.includes(state),
      lastMoveTime: r.lastMoveTime ? formatDateTime(r.lastMoveTime) : '',
    };
  });
}

/**
 * The look-ups of issue 29 point 6 and the scan screen's code look-up (docs/packs.md "Look-ups"),
 * all under the pack screen's read scope: every query goes through the tenant scope and the packs'
 * data scope; a bad parameter is a 400 in the caller's language.
 */
export function registerPackLookupRoutes(app: FastifyInstance, ctx: AppContext): void {
  const read = { config: { apiScope: apiScopeCodes(packResource.code).read } };
  const today = () => zoneDay(ctx.clock.now());

  app.get(`/api${PACK_BY_CODES_PATH}`, read, async (request) => {
    const auth = requireAuth(request);
    const codes = codesOf(request.query as Query);
    const rows = await readablePacks(ctx.db, auth, ctx.grants, inArray(pack.code, codes));
    const packs = await briefsOf(ctx.db, auth.tenantId, rows, today());
    const found = new Set(packs.map((p) => p.code));
    // In the order asked, as scanned.
    const byCode = new Map(packs.map((p) => [p.code, p]));
    const reply: PackByCodes = {
      packs: codes.flatMap((c) => byCode.get(c) ?? []),
      unknown: codes.filter((c) => !found.has(c)),
    };
    return ok(reply);
  });

  app.get(`/api${PACK_TRACE_PATH}`, read, async (request) => {
    const auth = requireAuth(request);
    const code = codeOf(request.query as Query);
    const [row] = await readablePacks(ctx.db, auth, ctx.grants, eq(pack.code, code));
    if (!row) throw notFound(PackLookupMessages.noPack(code));
    const [brief] = await briefsOf(ctx.db, auth.tenantId, [row], today());
    const reply: PackTrace = {
      pack: brief as PackBrief,
      moves: await packHistory(ctx.db, auth.tenantId, String(row.id)),
    };
    return ok(reply);
  });

  app.get(`/api${PACK_CASE_PATH}`, read, async (request) => {
    const auth = requireAuth(request);
    const patientCase = textOf((request.query as Query).patientCase);
    if (!patientCase || patientCase.length > 64) throw badRequest(PackLookupMessages.patientCase);
    const scope = tenantScope(ctx.db, auth.tenantId);
    // Every use recorded on the case, not only the packs still in use: a recall asks who was
    // treated with a pack long after it went back into the loop.
    const uses = await scope
      .select(packMove)
      .where(and(eq(packMove.patientCase, patientCase), eq(packMove.toState, PackState.inUse)))
      .orderBy(desc(packMove.moveTime), desc(packMove.id))
      .limit(PACK_BATCH_MAX);
    const packIds = [...new Set(uses.map((u) => String(u.packId)))];
    const rows = packIds.length ? await readablePacks(ctx.db, auth, ctx.grants, inArray(pack.id, packIds)) : [];
    const briefs = new Map((await briefsOf(ctx.db, auth.tenantId, rows, today())).map((b) => [b.id, b]));
    const deptIds = [
      ...new Set(
        uses
          .map((u) => u.deptId)
          .filter((d): d is string => !!d)
          .map(String),
      ),
    ];
    const deptNames = new Map(
      (deptIds.length
        ? await scope.select(dept, { id: dept.id, name: dept.deptName }).where(inArray(dept.id, deptIds))
        : []
      ).map((d) => [String(d.id), d.name]),
    );
    const reply: PackUseRow[] = uses.flatMap((u) => {
      const brief = briefs.get(String(u.packId));
      if (!brief) return [];
      return [
        {
          moveId: String(u.id),
          useTime: formatDateTime(u.moveTime),
          userName: u.userName,
          chairNo: u.chairNo,
          clinician: u.clinician,
          useDeptName: u.deptId ? (deptNames.get(String(u.deptId)) ?? '') : '',
          pack: brief,
        },
      ];
    });
    return ok(reply);
  });

  app.get(`/api${PACK_LOAD_PATH}`, read, async (request) => {
    const auth = requireAuth(request);
    const query = request.query as Query;
    const loadNo = textOf(query.loadNo);
    const hasId = textOf(query.loadId);
    let where: SQL;
    if (hasId) where = eq(load.id, idOf(query.loadId, PackLookupMessages.load));
    else if (loadNo && PACK_CODE_PATTERN.test(loadNo)) where = eq(load.loadNo, loadNo);
    else throw badRequest(PackLookupMessages.load);
    const scope = tenantScope(ctx.db, auth.tenantId);
    const [found] = await scope.select(load).where(where);
    if (!found) throw notFound(PackLookupMessages.noLoad);
    // The packs that went into the load by the history, so a pack since reprocessed into another
    // load still shows here (where it is now beside it), as a recall of this load needs.
    const into = await scope
      .select(packMove, { packId: packMove.packId })
      .where(and(eq(packMove.loadId, found.id), eq(packMove.toState, PackState.sterilising)))
      .groupBy(packMove.packId);
    const ids = [...new Set([...into.map((m) => String(m.packId))])];
    const rows = ids.length ? await readablePacks(ctx.db, auth, ctx.grants, inArray(pack.id, ids)) : [];
    const reply: PackLoadPacks = {
      load: {
        id: String(found.id),
        loadNo: found.loadNo,
        state: found.state,
        releaseUserName: found.releaseUserName,
        releaseTime: found.releaseTime ? formatDateTime(found.releaseTime) : '',
      },
      packs: await briefsOf(ctx.db, auth.tenantId, rows, today()),
    };
    return ok(reply);
  });

  app.get(`/api${PACK_STOCK_PATH}`, read, async (request) => {
    const auth = requireAuth(request);
    const deptId = idOf((request.query as Query).deptId, PackLookupMessages.dept);
    const rows = await readablePacks(
      ctx.db,
      auth,
      ctx.grants,
      and(eq(pack.deptId, deptId), inArray(pack.state, [...STOCK_STATES])),
      // Soonest expiry first (first expiring, first used); packs without one last.
      [sql`${pack.expiryDate} asc nulls last`, asc(pack.code)],
    );
    return ok(await briefsOf(ctx.db, auth.tenantId, rows, today()));
  });
}
