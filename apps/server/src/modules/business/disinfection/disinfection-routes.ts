import type { FastifyInstance } from 'fastify';
import { and, eq, type SQL } from 'drizzle-orm';
import {
  apiScopeCodes,
  bilingual,
  DISINFECTION_CURVE_ROUTE,
  disinfectionRecordResource,
  RecallSource,
  RecordSource,
  type CycleCurveReply,
} from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { registerResource, type ChangeArgs, type ResourceService, type Row } from '../../../engine/resource-routes';
import { disinfectionRecord } from '../../../platform/db/schema';
import { newRecordNo, recordDevice } from './record-device';
import { startRecordsFromCycles } from './records-from-cycles';
import { recallMarks, recallStates } from '../verification/verification-recall';
import { loadsOfCycles } from '../packs/pack-moves';
import { requireAuth, type AuthContext } from '../../../platform/auth/request-auth';
import { ok } from '../../../platform/http/envelope';
import { notFound } from '../../../platform/http/errors';
import { idValue } from '../../../platform/http/request-params';
import { registerRecallRoutes, type RecallRouteSource } from '../verification/recall-routes';
import { tenantRows } from '../../../platform/tenancy/tenant-scope';
import { judgeCycle } from '../../telemetry/lethality';
import { curvesOf, profileOf, programOf } from './cycle-judgement';

/**
 * A manual entry (or a correction) names the device; the rest of what identifies the record —
 * its chain (the device's code), department, product and record type — is the device's, never
 * the form's. A correction keeps its record number and source.
 */
async function beforeChange({ tx, auth, values }: ChangeArgs): Promise<void> {
  const from = await recordDevice(tx, auth.tenantId, String(values.deviceId));
  Object.assign(values, {
    deviceCode: from.deviceCode,
    deptId: from.deptId,
    productId: from.productId,
    recordType: from.recordType,
  });
  if (!values.recordNo) values.recordNo = newRecordNo();
  if (values.source === undefined) values.source = RecordSource.manual;
}

/**
 * `recalled` on every row whose record a failed biological indicator recalled (any version: the
 * record number is shared), `recallHandled` when every such recall was dealt with. Read from the
 * recalls, since the record itself is chained and never changes.
 */
const recallDecoration =
  (ctx: AppContext) =>
  async (rows: Row[], auth: AuthContext): Promise<Row[]> => {
    const marks = await recallMarks(ctx.db, auth.tenantId, [...new Set(rows.map((r) => String(r.recordNo ?? '')))]);
    const cycleIds = [...new Set(rows.map((r) => r.cycleId).filter((c) => c !== null && c !== undefined && c !== ''))];
    const loads = await loadsOfCycles(ctx.db, auth.tenantId, cycleIds.map(String));
    const packRecalls = await recallStates(ctx.db, auth.tenantId, RecallSource.disinfection, [
      ...new Set(rows.map((r) => String(r.recordNo ?? ''))),
    ]);
    return rows.map((row) => {
      const mark = marks.get(String(row.recordNo ?? ''));
      const loaded = row.cycleId ? loads.get(String(row.cycleId)) : undefined;
      return {
        ...row,
        recalled: mark !== undefined,
        recallHandled: mark?.handled ?? false,
        // The pack recall of a parametric failure (open / closed), shown by the record's 器械包召回.
        packRecallState: packRecalls.get(String(row.recordNo ?? '')) ?? null,
        // The load (batch) of the record's cycle, when one was assembled for it (docs/packs.md).
        loadId: loaded?.loadId ?? null,
        loadNo: loaded?.loadNo ?? '',
        loadPacks: loaded?.loadPacks ?? 0,
        loadedPacks: loaded?.loadedPacks ?? 0,
        // A record made from a cycle holds no batch or load of its own: it reads as its cycle's
        // load (the display value, `<field>Name`, as a report and the export read it).
        batchNoName: row.batchNo ? row.batchNo : (loaded?.loadNo ?? ''),
        loadName: row.load ? row.load : (loaded?.loadArticles ?? ''),
      };
    });
  };

/**
 * Disinfection records (spec: `/api/blade-business/disinfection` page, detail; and the record
 * routes the engine adds: review, correct, versions, verify), made from finished cycles too.
 */
export function registerDisinfectionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = registerResource(app, ctx, {
    def: disinfectionRecordResource,
    table: disinfectionRecord,
    hooks: { beforeChange, decorate: recallDecoration(ctx), decorateReads: ['recordNo', 'cycleId', 'batchNo', 'load'] },
  });
  const read = { apiScope: apiScopeCodes(disinfectionRecordResource.code).read };
  app.get(`/api${DISINFECTION_CURVE_ROUTE}`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const id = (request.query as Record<string, unknown>).id;
    // The detail's own checks: a bad id is a 400, a record outside the reader's scope a 404.
    await service.detail(id, auth);
    return ok(await curveOf(ctx, auth.tenantId, String(id)));
  });
  registerRecallRoutes(app, ctx, disinfectionRecallSource(ctx, service));
  startRecordsFromCycles(ctx);
}

/**
 * The disinfection records as a recall's source (a parametric failure, docs/packs.md "Recalls"),
 * under their read scope and data scope: the same routes as a verification record's recall.
 */
function disinfectionRecallSource(ctx: AppContext, service: ResourceService): RecallRouteSource {
  const visible = async (auth: AuthContext, condition: SQL) => {
    const [row] = await ctx.db
      .select({ recordNo: disinfectionRecord.recordNo })
      .from(disinfectionRecord)
      .where(and(await service.readScope(auth, 'view'), condition))
      .limit(1);
    return row?.recordNo;
  };
  return {
    source: RecallSource.disinfection,
    code: disinfectionRecordResource.code,
    async visibleById(auth, id) {
      const recordNo = await visible(auth, eq(disinfectionRecord.id, idValue(id, 'id')));
      if (recordNo === undefined) throw notFound(bilingual('rowNotFound'));
      return recordNo;
    },
    visibleByNo: async (auth, recordNo) =>
      (await visible(auth, eq(disinfectionRecord.recordNo, recordNo))) !== undefined,
  };
}

/** The record's cycle curve and its program's profile, read as the judgement reads them. */
async function curveOf(ctx: AppContext, tenantId: string, id: string): Promise<CycleCurveReply> {
  const r = disinfectionRecord;
  const [row] = await ctx.db
    .select({
      deviceCode: r.deviceCode,
      productId: r.productId,
      programNo: r.programNo,
      startTime: r.startTime,
      endTime: r.endTime,
    })
    .from(r)
    .where(tenantRows(r, tenantId, eq(r.id, id)));
  const startTime = new Date(row?.startTime ?? 0);
  const endTime = new Date(row?.endTime ?? 0);
  const empty: CycleCurveReply = {
    startTime: startTime.getTime(),
    endTime: endTime.getTime(),
    profile: null,
    temperature: [],
    pressure: [],
    concentration: [],
    holdStart: null,
    holdEnd: null,
  };
  const program = row ? await programOf(ctx.db, tenantId, row.productId, row.programNo ?? 0) : undefined;
  if (!row || !program) return empty;
  const curves = await curvesOf(ctx.db, { tenantId, deviceCode: row.deviceCode, startTime, endTime }, program);
  const profile = profileOf(program);
  const judged = judgeCycle(curves, profile);
  const pairs = (points: readonly { t: number; v: number }[]): [number, number][] => points.map((p) => [p.t, p.v]);
  return {
    ...empty,
    profile,
    temperature: pairs(curves.temperature),
    pressure: pairs(curves.pressure),
    concentration: pairs(curves.concentration),
    holdStart: judged.holdStart,
    holdEnd: judged.holdEnd,
  };
}
