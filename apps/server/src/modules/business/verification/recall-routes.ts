import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  bilingual,
  isRecallAction,
  RECALL_PATHS,
  RECALL_REMARK_MAX,
  RecallSource,
  recallPackResource,
  verificationRecordResource,
  type RecallView,
} from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { personOf } from '../../../engine/records/record-hooks';
import type { ResourceService } from '../../../engine/resource-routes';
import { sendXlsx } from '../../../engine/xlsx-export';
import { requireAuth, type AuthContext } from '../../../platform/auth/request-auth';
import { verificationRecord } from '../../../platform/db/schema';
import { ok } from '../../../platform/http/envelope';
import { badRequest, notFound } from '../../../platform/http/errors';
import { requestLanguage } from '../../../platform/http/request-language';
import { idsValue, idValue, paramsOf } from '../../../platform/http/request-params';
import { renderPdfInWorker } from '../../report/report-pdf-pool';
import {
  actOnRecalledPacks,
  closeRecall,
  RecallMessages,
  recallNotice,
  recallOfPack,
  recallView,
} from './verification-recall';

/** The number of the verification record `id` names, if the caller may view it (else 404). */
export async function visibleRecordNo(
  ctx: AppContext,
  service: ResourceService,
  auth: AuthContext,
  id: unknown,
): Promise<string> {
  const [row] = await ctx.db
    .select({ recordNo: verificationRecord.recordNo })
    .from(verificationRecord)
    .where(and(await service.readScope(auth, 'view'), eq(verificationRecord.id, idValue(id, 'id'))));
  if (!row) throw notFound(bilingual('rowNotFound'));
  return row.recordNo;
}

const notFoundRecall = () => notFound({ zh: '召回不存在', en: 'The recall does not exist' });

function remarkOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = String(value).trim();
  if (text.length > RECALL_REMARK_MAX) throw badRequest(RecallMessages.remarkTooLong(RECALL_REMARK_MAX));
  return text;
}

/** The record kind a set of recall routes serves, and how a caller's view of its records is checked. */
export interface RecallRouteSource {
  source: RecallSource;
  /** The resource whose API scopes guard the routes (`<code>:read`, `<code>:recall`). */
  code: string;
  /** The number of the record `id` names, if the caller may view it; else 404. */
  visibleById(auth: AuthContext, id: unknown): Promise<string>;
  /** Whether the caller may view a record of this number (any version). */
  visibleByNo(auth: AuthContext, recordNo: string): Promise<boolean>;
}

/** The verification records as a recall's source, under their read scope and data scope. */
export function verificationRecallSource(ctx: AppContext, service: ResourceService): RecallRouteSource {
  return {
    source: RecallSource.verification,
    code: verificationRecordResource.code,
    visibleById: (auth, id) => visibleRecordNo(ctx, service, auth, id),
    async visibleByNo(auth, recordNo) {
      const [seen] = await ctx.db
        .select({ id: verificationRecord.id })
        .from(verificationRecord)
        .where(and(await service.readScope(auth, 'view'), eq(verificationRecord.recordNo, recordNo)))
        .limit(1);
      return !!seen;
    },
  };
}

/**
 * The pack recall of a failed record (docs/packs.md "Recalls"): read under the source records'
 * read scope and their data scope (the record that made the recall must be visible, and the
 * recall must be one of this kind of record: otherwise 404), acted on and closed under their
 * `recall` button. The same routes serve each kind at its own paths.
 */
export function registerRecallRoutes(app: FastifyInstance, ctx: AppContext, from: RecallRouteSource): void {
  const { code } = from;
  const paths = RECALL_PATHS[from.source];

  /** The recall by its id, if it is of this kind and the record that made it is one the caller may view. */
  const visibleRecall = async (auth: AuthContext, id: string): Promise<RecallView> => {
    const view = await recallView(ctx.db, auth.tenantId, { id });
    if (!view || view.source !== from.source || !(await from.visibleByNo(auth, view.sourceNo))) throw notFoundRecall();
    return view;
  };

  app.get(`/api${paths.detail}`, { config: { apiScope: `${code}:read` } }, async (request) => {
    const auth = requireAuth(request);
    const recordNo = await from.visibleById(auth, (request.query as Record<string, unknown>).id);
    return ok(await recallView(ctx.db, auth.tenantId, { source: from.source, sourceNo: recordNo }));
  });

  app.post(`/api${paths.action}`, { config: { apiScope: `${code}:recall` } }, async (request) => {
    const auth = requireAuth(request);
    const params = paramsOf(request);
    const ids = idsValue(params.ids, 'ids', { required: true, max: 500 });
    const action = Number(params.action);
    if (!isRecallAction(action)) throw badRequest(RecallMessages.action);
    const remark = remarkOf(params.remark);
    // The packs' recall must be one of this kind the caller may view (the action checks they share it).
    const recallId = await recallOfPack(ctx.db, auth.tenantId, ids[0] as string);
    if (!recallId) throw notFound({ zh: '召回器械包不存在', en: 'A recalled pack does not exist' });
    await visibleRecall(auth, recallId);
    const now = new Date(ctx.clock.now());
    const n = await ctx.db.transaction((tx) =>
      actOnRecalledPacks(tx, auth, personOf(auth), { ids, action, remark }, now),
    );
    return ok(null, RecallMessages.acted(n)[requestLanguage(request)]);
  });

  app.post(`/api${paths.close}`, { config: { apiScope: `${code}:recall` } }, async (request) => {
    const auth = requireAuth(request);
    const id = idValue(paramsOf(request).id, 'id');
    await visibleRecall(auth, id);
    await ctx.db.transaction((tx) => closeRecall(tx, auth, personOf(auth), id, new Date(ctx.clock.now())));
    return ok(null, RecallMessages.closedNow[requestLanguage(request)]);
  });

  app.get(`/api${paths.export}`, { config: { apiScope: `${code}:read` } }, async (request, reply) => {
    const auth = requireAuth(request);
    const view = await visibleRecall(auth, idValue((request.query as Record<string, unknown>).id, 'id'));
    // The sheet's rows: the recalled packs where they are now, names under the references' display keys.
    const rows = view.packs.map((p) => ({
      ...p,
      deptIdName: p.deptName,
      lineIdName: p.lineName,
      carIdName: p.carName,
    }));
    return sendXlsx(reply, ctx, recallPackResource, rows, auth, request.headers['accept-language']);
  });

  app.get(`/api${paths.notice}`, { config: { apiScope: `${code}:read` } }, async (request, reply) => {
    const auth = requireAuth(request);
    const view = await visibleRecall(auth, idValue((request.query as Record<string, unknown>).id, 'id'));
    const bytes = await renderPdfInWorker(recallNotice(view), null);
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="recall-${view.sourceNo}.pdf"`)
      .header('Cache-Control', 'no-store')
      .send(Buffer.from(bytes));
  });
}
