import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  apiScopeCodes,
  bilingual,
  LOAD_RELEASE_PATH,
  loadResource,
  LoadStatus,
  PACK_BATCH_MAX,
  PACK_HISTORY_PATH,
  PACK_LABEL_PATH,
  PACK_MATERIALS,
  PACK_MOVE_PATH,
  packResource,
  PackState,
  ParametricResult,
  type PackLabel,
} from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { personOf } from '../../../engine/records/record-hooks';
import { registerResource, type ChangeArgs, type RemoveArgs, type Row } from '../../../engine/resource-routes';
import { requireAuth, type AuthContext } from '../../../platform/auth/request-auth';
import { article, device, deviceCycle, load, pack } from '../../../platform/db/schema';
import { nextId } from '../../../platform/db/ids';
import { ok } from '../../../platform/http/envelope';
import { badRequest, notFound } from '../../../platform/http/errors';
import { requestLanguage } from '../../../platform/http/request-language';
import { idsValue, idValue, paramsOf } from '../../../platform/http/request-params';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { renderLabelsInWorker } from '../../report/report-pdf-pool';
import { recallIntoFailedLoad } from '../disinfection/parametric-recall';
import { LoadMessages, releaseLoad } from './load-release';
import { startPackExpirySweep } from './pack-expiry';
import { moveInputOf, movePacks, PackMessages, packHistory, recordCreation } from './pack-moves';

/**
 * A generated code short enough to print legibly under a label's QR code: the prefix and a new
 * id in base 36 (12 characters, unique as the id is).
 */
const shortCode = (prefix: string) => `${prefix}${BigInt(nextId()).toString(36).toUpperCase()}`;

const formatDay = (value: unknown) => (typeof value === 'string' ? value : '');
const materialName = (key: unknown) => PACK_MATERIALS.find((m) => String(m.key) === String(key))?.name ?? '';

/** The labels of these packs (of the caller's tenant), in the order asked. */
async function labelsOf(ctx: AppContext, tenantId: string, ids: string[]): Promise<PackLabel[]> {
  const scope = tenantScope(ctx.db, tenantId);
  const packs = await scope.select(pack).where(inArray(pack.id, ids));
  if (packs.length !== new Set(ids).size) throw notFound({ zh: '器械包不存在', en: 'A pack does not exist' });
  const articleIds = [...new Set(packs.map((p) => p.articleId).filter((a): a is string => !!a))];
  const loadIds = [...new Set(packs.map((p) => p.loadId).filter((a): a is string => !!a))];
  const articles = articleIds.length ? await scope.select(article).where(inArray(article.id, articleIds)) : [];
  const loads = loadIds.length
    ? await scope
        .select(load, { id: load.id, loadNo: load.loadNo, deviceId: load.deviceId })
        .where(inArray(load.id, loadIds))
    : [];
  const deviceIds = [...new Set(loads.map((l) => l.deviceId).filter((d): d is string => !!d))];
  const devices = deviceIds.length
    ? await scope.select(device, { id: device.id, name: device.deviceName }).where(inArray(device.id, deviceIds))
    : [];
  const articleOf = new Map(articles.map((a) => [String(a.id), a]));
  const loadOf = new Map(loads.map((l) => [String(l.id), l]));
  const deviceName = new Map(devices.map((d) => [String(d.id), d.name]));
  const byId = new Map(packs.map((p) => [String(p.id), p]));
  return ids.map((id) => {
    const p = byId.get(id);
    const a = p?.articleId ? articleOf.get(String(p.articleId)) : undefined;
    const l = p?.loadId ? loadOf.get(String(p.loadId)) : undefined;
    return {
      code: p?.code ?? '',
      articleName: a?.name ?? '',
      contents: a?.contents ?? '',
      packMaterial: materialName(a?.packMaterial),
      sterileDate: formatDay(p?.sterileDate),
      expiryDate: formatDay(p?.expiryDate),
      loadNo: l?.loadNo ?? '',
      deviceName: l?.deviceId ? (deviceName.get(String(l.deviceId)) ?? '') : '',
    };
  });
}

/** A new load gets a number when none is typed; a released one is no longer changed; its cycle is its steriliser's. */
async function beforeLoadChange({ tx, auth, values, existing }: ChangeArgs): Promise<void> {
  if (existing && existing.state === LoadStatus.released) throw badRequest(LoadMessages.releasedEdit);
  if (!values.loadNo && !existing) values.loadNo = shortCode('LD');
  const cycleId = values.cycleId ?? existing?.cycleId;
  if (cycleId === null || cycleId === undefined || cycleId === '') return;
  const [cycle] = await tenantScope(tx, auth.tenantId)
    .select(deviceCycle, { deviceId: deviceCycle.deviceId })
    .where(eq(deviceCycle.id, String(cycleId)));
  if (!cycle) throw badRequest(LoadMessages.cycleGone);
  const deviceId = values.deviceId ?? existing?.deviceId;
  if (String(cycle.deviceId) !== String(deviceId)) throw badRequest(LoadMessages.cycleDevice);
}

async function beforeLoadRemove({ rows }: RemoveArgs): Promise<void> {
  if (rows.some((r) => r.state === LoadStatus.released)) throw badRequest(LoadMessages.releasedEdit);
}

/** `cycleName` (device code, start, program), `parametricResult` of the cycle and `packCount` on each load. */
const loadDecoration =
  (ctx: AppContext) =>
  async (rows: Row[], auth: AuthContext): Promise<Row[]> => {
    if (!rows.length) return rows;
    const scope = tenantScope(ctx.db, auth.tenantId);
    const cycleIds = [...new Set(rows.map((r) => r.cycleId).filter((c) => c !== null && c !== undefined && c !== ''))];
    const cycles = cycleIds.length
      ? await scope
          .select(deviceCycle, {
            id: deviceCycle.id,
            deviceCode: deviceCycle.deviceCode,
            startTime: deviceCycle.startTime,
            programName: deviceCycle.programName,
            parametricResult: deviceCycle.parametricResult,
          })
          .where(inArray(deviceCycle.id, cycleIds.map(String)))
      : [];
    const counts = await scope
      .select(pack, { loadId: pack.loadId, n: sql<number>`count(*)`.mapWith(Number) })
      .where(
        inArray(
          pack.loadId,
          rows.map((r) => String(r.id)),
        ),
      )
      .groupBy(pack.loadId);
    const cycleOf = new Map(cycles.map((c) => [String(c.id), c]));
    const countOf = new Map(counts.map((c) => [String(c.loadId), c.n]));
    return rows.map((row) => {
      const c = row.cycleId ? cycleOf.get(String(row.cycleId)) : undefined;
      return {
        ...row,
        cycleName: c ? `${c.deviceCode} ${formatCycleStart(c.startTime)} ${c.programName}`.trim() : '',
        parametricResult: c ? (c.parametricResult ?? ParametricResult.none) : null,
        packCount: countOf.get(String(row.id)) ?? 0,
      };
    });
  };

const formatCycleStart = (at: Date | null) =>
  at === null
    ? ''
    : new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'Asia/Shanghai',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      }).format(at);

/**
 * Packs (`/api/blade-business/pack`: the generic routes, `move`, `history`, `label`) and loads
 * (`/api/blade-business/load`: the generic routes and `release`), docs/packs.md.
 */
export function registerPackRoutes(app: FastifyInstance, ctx: AppContext): void {
  startPackExpirySweep(ctx);
  const packCode = packResource.code;
  const loadCode = loadResource.code;
  const now = () => new Date(ctx.clock.now());

  registerResource(app, ctx, {
    def: packResource,
    table: pack,
    hooks: {
      beforeChange({ values, existing }) {
        if (!existing && !values.code) values.code = shortCode('P');
      },
      async afterChange({ tx, auth, id, adding, values }) {
        if (adding) await recordCreation(tx, auth, personOf(auth), { id, code: String(values.code) }, now());
      },
    },
  });

  registerResource(app, ctx, {
    def: loadResource,
    table: load,
    hooks: {
      beforeChange: beforeLoadChange,
      beforeRemove: beforeLoadRemove,
      decorate: loadDecoration(ctx),
      decorateReads: ['id', 'cycleId'],
      // Given a cycle that failed its parametric judgement, the load's packs are recalled.
      async afterChange({ tx, auth, id, values }) {
        if (values.cycleId) await recallIntoFailedLoad(tx, auth, id, personOf(auth), now());
      },
    },
  });

  app.post(`/api${PACK_MOVE_PATH}`, { config: { apiScope: `${packCode}:move` } }, async (request) => {
    const auth = requireAuth(request);
    const input = moveInputOf(paramsOf(request));
    const moved = await ctx.db.transaction(async (tx) => {
      const n = await movePacks(tx, auth, personOf(auth), input, now());
      // Put into a load whose cycle already failed its parametric judgement: they join its recall.
      if (input.state === PackState.sterilising && input.place.loadId)
        await recallIntoFailedLoad(tx, auth, input.place.loadId, personOf(auth), now());
      return n;
    });
    ctx.totals.changed(packCode, auth.tenantId);
    return ok(moved, PackMessages.moved(moved)[requestLanguage(request)]);
  });

  app.get(`/api${PACK_HISTORY_PATH}`, { config: { apiScope: apiScopeCodes(packCode).read } }, async (request) => {
    const auth = requireAuth(request);
    const id = idValue((request.query as Record<string, unknown>).id, 'id');
    const [found] = await tenantScope(ctx.db, auth.tenantId).select(pack, { id: pack.id }).where(eq(pack.id, id));
    if (!found) throw notFound(bilingual('rowNotFound'));
    return ok(await packHistory(ctx.db, auth.tenantId, id));
  });

  app.get(`/api${PACK_LABEL_PATH}`, { config: { apiScope: `${packCode}:label` } }, async (request, reply) => {
    const auth = requireAuth(request);
    const ids = idsValue((request.query as Record<string, unknown>).ids, 'ids', {
      required: true,
      max: PACK_BATCH_MAX,
    });
    const labels = await labelsOf(ctx, auth.tenantId, ids);
    const bytes = await renderLabelsInWorker(labels);
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', 'inline; filename="pack-labels.pdf"')
      .header('Cache-Control', 'no-store')
      .send(Buffer.from(bytes));
  });

  app.post(`/api${LOAD_RELEASE_PATH}`, { config: { apiScope: `${loadCode}:release` } }, async (request) => {
    const auth = requireAuth(request);
    const id = idValue(paramsOf(request).id, 'id');
    const moved = await ctx.db.transaction((tx) => releaseLoad(tx, auth, personOf(auth), id, now()));
    ctx.totals.changed(packCode, auth.tenantId);
    ctx.totals.changed(loadCode, auth.tenantId);
    return ok(moved, LoadMessages.releasedMsg(moved)[requestLanguage(request)]);
  });
}
