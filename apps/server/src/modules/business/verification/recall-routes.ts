import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  bilingual,
  isRecallAction,
  RECALL_ACTION_PATH,
  RECALL_CLOSE_PATH,
  RECALL_DETAIL_PATH,
  RECALL_EXPORT_PATH,
  RECALL_NOTICE_PATH,
  RECALL_REMARK_MAX,
  recallPackResource,
  verificationRecordResource,
  type RecallView,
} from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { personOf } from '../../../crud/records/record-hooks';
import type { ResourceService } from '../../../crud/resource-routes';
import { sendXlsx } from '../../../crud/xlsx-export';
import { requireAuth, type AuthContext } from '../../../platform/auth/request-auth';
import { verificationRecord } from '../../../platform/db/schema';
import { ok } from '../../../platform/http/envelope';
import { badRequest, notFound } from '../../../platform/http/errors';
import { requestLanguage } from '../../../platform/http/request-language';
import { idsValue, idValue, paramsOf } from '../../../platform/http/request-params';
import { renderPdfInWorker } from '../../report/report-pdf-pool';
import { actOnRecalledPacks, closeRecall, RecallMessages, recallNotice, recallView } from './verification-recall';

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

/**
 * The pack recall of a failed test (docs/packs.md "Recalls"): read under the verification
 * records' read scope and their data scope (the record that made the recall must be visible),
 * acted on and closed under their `recall` button.
 */
export function registerRecallRoutes(app: FastifyInstance, ctx: AppContext, service: ResourceService): void {
  const code = verificationRecordResource.code;

  /** The recall by its id, if the verification record that made it is one the caller may view. */
  const visibleRecall = async (auth: AuthContext, id: string): Promise<RecallView> => {
    const view = await recallView(ctx.db, auth.tenantId, { id });
    if (!view) throw notFoundRecall();
    const [seen] = await ctx.db
      .select({ id: verificationRecord.id })
      .from(verificationRecord)
      .where(and(await service.readScope(auth, 'view'), eq(verificationRecord.recordNo, view.verificationNo)))
      .limit(1);
    if (!seen) throw notFoundRecall();
    return view;
  };

  app.get(`/api${RECALL_DETAIL_PATH}`, { config: { apiScope: `${code}:read` } }, async (request) => {
    const auth = requireAuth(request);
    const recordNo = await visibleRecordNo(ctx, service, auth, (request.query as Record<string, unknown>).id);
    return ok(await recallView(ctx.db, auth.tenantId, { verificationNo: recordNo }));
  });

  app.post(`/api${RECALL_ACTION_PATH}`, { config: { apiScope: `${code}:recall` } }, async (request) => {
    const auth = requireAuth(request);
    const params = paramsOf(request);
    const ids = idsValue(params.ids, 'ids', { required: true, max: 500 });
    const action = Number(params.action);
    if (!isRecallAction(action)) throw badRequest(RecallMessages.action);
    const remark = remarkOf(params.remark);
    const now = new Date(ctx.clock.now());
    const n = await ctx.db.transaction((tx) =>
      actOnRecalledPacks(tx, auth, personOf(auth), { ids, action, remark }, now),
    );
    return ok(null, RecallMessages.acted(n)[requestLanguage(request)]);
  });

  app.post(`/api${RECALL_CLOSE_PATH}`, { config: { apiScope: `${code}:recall` } }, async (request) => {
    const auth = requireAuth(request);
    const id = idValue(paramsOf(request).id, 'id');
    await visibleRecall(auth, id);
    await ctx.db.transaction((tx) => closeRecall(tx, auth, personOf(auth), id, new Date(ctx.clock.now())));
    return ok(null, RecallMessages.closedNow[requestLanguage(request)]);
  });

  app.get(`/api${RECALL_EXPORT_PATH}`, { config: { apiScope: `${code}:read` } }, async (request, reply) => {
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

  app.get(`/api${RECALL_NOTICE_PATH}`, { config: { apiScope: `${code}:read` } }, async (request, reply) => {
    const auth = requireAuth(request);
    const view = await visibleRecall(auth, idValue((request.query as Record<string, unknown>).id, 'id'));
    const bytes = await renderPdfInWorker(recallNotice(view), null);
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `inline; filename="recall-${view.verificationNo}.pdf"`)
      .header('Cache-Control', 'no-store')
      .send(Buffer.from(bytes));
  });
}
