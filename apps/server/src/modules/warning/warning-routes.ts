import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  bilingual,
  EscalationSms,
  formatDateTime,
  WARNING_AROUND_PATH,
  WARNING_HANDLE_MAX_IDS,
  WARNING_HISTORY_PATH,
  WARNING_HANDLE_PATH,
  WARNING_RESULT_MAX,
  WARNING_UNHANDLED_PATH,
  type WarningAroundReply,
  type WarningHistoryEntry,
  type WarningLiveEvent,
  warningResource,
  WarningStatus,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource } from '../../engine/resource-routes';
import { requireAuth } from '../../platform/auth/request-auth';
import type { Db } from '../../platform/db/database';
import { device, plcVariable, productField, warning, warningHistory } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { badRequest, notFound } from '../../platform/http/errors';
import { idValue, idsValue, paramsOf } from '../../platform/http/request-params';
import { LIVE_CHANNEL, livePayloads } from '../../platform/live/notify-live';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { limitsOf } from '../device/iot-model';
import { seriesPoints } from '../device/iot-series';
import { deviceScopeOf } from '../device/scoped-devices';
import { modelLabelsOf } from '../device/model-labels';
import { WarningMessages } from './warning-messages';
import { txQueryable } from '../../platform/jobs/transaction-executor';
import { publishChanges } from '../telemetry/publish-changes';
import { refreshRunState } from '../telemetry/run-state';
import { unhandledWarnings } from './unhandled-warnings';

/** The chart of `around`: this long before the start and after the end. */
const AROUND_MS = 10 * 60_000;
const AROUND_POINTS = 500;

/** `result` of `handle`: required text of at most 500 characters. */
function resultOf(value: unknown): string {
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim()))
    throw badRequest(bilingual('missingParam', 'result'));
  if (typeof value !== 'string') throw badRequest(WarningMessages.resultNotText);
  const result = value.trim();
  if (result.length > WARNING_RESULT_MAX) throw badRequest(WarningMessages.resultTooLong(WARNING_RESULT_MAX));
  return result;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface WarningHandling {
  result: string;
  userId: string;
  userName: string;
  at: Date;
}

/**
 * Acknowledges warnings with a result (active → active-handled, cleared → cleared-handled) and
 * tells the live streams; the route's `handle`, and the demo tenant's history, which handles its
 * month of warnings at the times they were handled (docs/demo.md). `scope` is the caller's read
 * scope, or undefined for every warning of the tenant. Answers how many rows it changed.
 */
export async function handleWarnings(
  tx: Tx,
  tenantId: string,
  scope: SQL | undefined,
  ids: readonly string[],
  how: WarningHandling,
): Promise<number> {
  // The tenant through the one scope; the read scope adds the caller's data scope.
  const rows = await tenantScope(tx, tenantId)
    .update(warning)
    .set({
      status: sql`case when ${warning.status} = ${WarningStatus.activeUnhandled} then ${WarningStatus.activeHandled}
                     when ${warning.status} = ${WarningStatus.clearedUnhandled} then ${WarningStatus.clearedHandled}
                     else ${warning.status} end`,
      ackTime: sql`coalesce(${warning.ackTime}, ${how.at})`,
      handleTime: how.at,
      handleUser: how.userId,
      handleUserName: how.userName.slice(0, 64),
      handleResult: how.result,
      updateUser: how.userId,
      updateTime: how.at,
    })
    .where(and(scope, inArray(warning.id, [...ids])))
    .returning({
      id: warning.id,
      warningNo: warning.warningNo,
      tenantId: warning.tenantId,
      deptId: warning.deptId,
      deviceCode: warning.deviceCode,
      level: warning.level,
      status: warning.status,
      message: warning.message,
    });
  const events = rows.map((row): WarningLiveEvent => ({
    type: 'warning',
    action: 'handled',
    tenantId: row.tenantId,
    deptId: row.deptId === null ? null : String(row.deptId),
    warningId: String(row.id),
    warningNo: row.warningNo,
    deviceCode: row.deviceCode,
    level: row.level,
    status: row.status ?? WarningStatus.activeHandled,
    message: row.message,
    at: how.at.toISOString(),
  }));
  for (const payload of livePayloads(events)) await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
  // A handled warning no longer holds its device in fault (modules/telemetry/run-state.ts).
  const client = txQueryable(tx);
  await publishChanges(client, await refreshRunState(client, rows, how.at));
  return rows.length;
}

/**
 * Warnings (`/api/report/warning`, docs/warnings.md): the generic list, detail and export with
 * the warning's data scope; `handle` (acknowledge with a result) and `around` (the trigger field's
 * telemetry around the warning), both through the same scoping, so a warning the caller cannot
 * list is one they cannot handle or chart either; `unhandled`, the bell's count and newest rows,
 * the same figure as the welcome page's (docs/warnings.md).
 */
export function registerWarningRoutes(app: FastifyInstance, ctx: AppContext): void {
  const labels = modelLabelsOf(ctx);
  const service = registerResource(app, ctx, {
    def: warningResource,
    table: warning,
    hooks: {
      // `triggerValueLabel`: the name of an enumerated trigger value ({zh, en}); the value stays.
      decorate: (rows, auth) =>
        labels.labelRows(auth.tenantId, rows, {
          device: 'deviceCode',
          field: 'field',
          value: 'triggerValue',
          label: 'triggerValueLabel',
        }),
      decorateReads: ['tenantId', 'deviceCode', 'field', 'triggerValue'],
    },
  });

  app.post(
    `/api${WARNING_HANDLE_PATH}`,
    { config: { apiScope: `${warningResource.code}:handle` } },
    async (request) => {
      const auth = requireAuth(request);
      const params = paramsOf(request);
      const ids = idsValue(params.ids, 'ids', { required: true, max: WARNING_HANDLE_MAX_IDS });
      const result = resultOf(params.result);
      const scope = await service.readScope(auth);
      const now = new Date(ctx.clock.now());
      const handler = auth.claims.user_name || auth.account;
      await ctx.db.transaction(async (tx) => {
        const handled = await handleWarnings(tx, auth.tenantId, scope, ids, {
          result,
          userId: auth.userId,
          userName: handler,
          at: now,
        });
        // All or nothing: an id the caller may not see (another tenant's, another department's)
        // rolls the whole call back, and the answer does not tell which.
        if (handled !== ids.length) throw notFound(bilingual('rowNotFound'));
      });
      await ctx.totals.changed(warningResource.code, auth.tenantId);
      return ok(null, WarningMessages.handled(ids.length)[requestLanguage(request)]);
    },
  );

  app.get(`/api${WARNING_UNHANDLED_PATH}`, { config: { apiScope: `${warningResource.code}:read` } }, async (request) =>
    ok(await unhandledWarnings(ctx.db, await deviceScopeOf(ctx, requireAuth(request)), { list: true })),
  );

  app.get(`/api${WARNING_HISTORY_PATH}`, { config: { apiScope: `${warningResource.code}:read` } }, async (request) => {
    const auth = requireAuth(request);
    const id = idValue((request.query as Record<string, unknown>).id, 'id');
    // The list's scoping: a warning the caller cannot list has no history for them either.
    const [row] = await ctx.db
      .select({
        tenantId: warning.tenantId,
        startTime: warning.startTime,
        clearTime: warning.clearTime,
        handleTime: warning.handleTime,
        handleUserName: warning.handleUserName,
        handleResult: warning.handleResult,
      })
      .from(warning)
      .where(and(await service.readScope(auth, 'view'), eq(warning.id, id)))
      .limit(1);
    if (!row) throw notFound(bilingual('rowNotFound'));
    return ok(await warningHistoryOf(ctx.db, id, row));
  });

  app.get(`/api${WARNING_AROUND_PATH}`, { config: { apiScope: `${warningResource.code}:read` } }, async (request) => {
    const auth = requireAuth(request);
    const id = idValue((request.query as Record<string, unknown>).id, 'id');
    const [row] = await ctx.db
      .select({
        tenantId: warning.tenantId,
        deviceCode: warning.deviceCode,
        field: warning.field,
        threshold: warning.threshold,
        startTime: warning.startTime,
        endTime: warning.endTime,
      })
      .from(warning)
      .where(and(await service.readScope(auth, 'view'), eq(warning.id, id)))
      .limit(1);
    if (!row) throw notFound(bilingual('rowNotFound'));
    const now = ctx.clock.now();
    const start = (row.startTime ?? new Date(now)).getTime();
    const from = start - AROUND_MS;
    const to = Math.max(from, Math.min(now, row.endTime ? row.endTime.getTime() + AROUND_MS : now));
    const reply: WarningAroundReply = {
      field: row.field,
      unit: '',
      from: formatDateTime(new Date(from)),
      to: formatDateTime(new Date(to)),
      threshold: row.threshold === '' ? null : row.threshold,
      points: [],
      limits: null,
    };
    // Offline and cycle warnings watch no field: nothing to chart.
    if (!row.field) return ok(reply);
    const scope = tenantScope(ctx.db, row.tenantId);
    const [owner] = await scope
      .select(device, { productId: device.productId })
      .where(eq(device.deviceCode, row.deviceCode))
      .limit(1);
    if (owner?.productId) {
      const [model] = await scope
        .select(productField, { unit: productField.unit })
        .where(eq(productField.productId, String(owner.productId)), eq(productField.fieldKey, row.field))
        .limit(1);
      reply.unit = model?.unit ?? '';
      // The limits the live and history charts draw (the PLC variable named after the field).
      const [variable] = await scope
        .select(plcVariable, {
          hh: plcVariable.limitHh,
          h: plcVariable.limitH,
          l: plcVariable.limitL,
          ll: plcVariable.limitLl,
        })
        .where(eq(plcVariable.productId, String(owner.productId)), eq(plcVariable.name, row.field))
        .limit(1);
      reply.limits = variable ? limitsOf(variable.hh, variable.h, variable.l, variable.ll) : null;
    }
    const series = await seriesPoints(
      ctx,
      { tenantId: row.tenantId, deviceCode: row.deviceCode, field: row.field },
      { from, to, maxPoints: AROUND_POINTS },
    );
    reply.points = series.points.flatMap((p) =>
      p.value === null ? [] : [{ ts: formatDateTime(new Date(p.ts)), value: p.value }],
    );
    return ok(reply);
  });
}

/**
 * A warning's history, oldest first: raised, cleared and handled from the warning's own times,
 * the escalations from `mes_warning_history` (docs/warnings.md "Escalation").
 */
async function warningHistoryOf(
  db: Db,
  warningId: string,
  row: {
    tenantId: string;
    startTime: Date | null;
    clearTime: Date | null;
    handleTime: Date | null;
    handleUserName: string;
    handleResult: string;
  },
): Promise<WarningHistoryEntry[]> {
  const stored = await tenantScope(db, row.tenantId)
    .select(warningHistory)
    .where(eq(warningHistory.warningId, warningId))
    .orderBy(warningHistory.at, warningHistory.id);
  const timed: { time: number; entry: WarningHistoryEntry }[] = [];
  const add = (at: Date | null, entry: Omit<WarningHistoryEntry, 'at'>) => {
    if (at) timed.push({ time: at.getTime(), entry: { ...entry, at: formatDateTime(at) } as WarningHistoryEntry });
  };
  add(row.startTime, { action: 'raised', who: '' });
  for (const h of stored)
    add(h.at, {
      action: 'escalated',
      who: h.roleName,
      afterMinutes: h.afterMinutes ?? 0,
      users: h.userNames ? h.userNames.split(',') : [],
      noticeId: h.noticeId === null ? null : String(h.noticeId),
      live: h.live,
      sms: Object.values(EscalationSms).find((status) => status === h.smsStatus),
      smsDetail: h.smsDetail,
    });
  add(row.clearTime, { action: 'cleared', who: '' });
  add(row.handleTime, { action: 'handled', who: row.handleUserName, result: row.handleResult });
  // Stable: entries of the same second keep the order above (raised before its escalation).
  return timed.sort((a, b) => a.time - b.time).map((t) => t.entry);
}
