import { and, asc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  Messages,
  ReviewStatus,
  type ChainReport,
  type LocalText,
  type RecordRules,
  type ResourceDef,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { requestLanguage, type ReplyLanguage } from '../../platform/http/request-language';
import { badRequest, notFound } from '../../platform/http/errors';
import { idsValue, idValue, paramsOf, textParam } from '../../platform/http/request-params';
import { recordOperation } from '../../platform/audit/operation-audit';
import { rowScope, type AnyResourceTable } from '../resource-access';
import type { Row } from '../resource-hooks';
import type { RecordChain } from './record-chain';
import { corrections, personOf, RecordMessages } from './record-hooks';

/** Broken chains named in `verify`'s message; the report lists them all. */
const NAMED_IN_MESSAGE = 20;

/** `verify`'s answer: the report and one sentence per broken chain for the screen, in the caller's language. */
export function verifyMessage(report: ChainReport, chainLabel: LocalText, language: ReplyLanguage): string {
  const en = language === 'en';
  if (!report.brokenCount)
    return en
      ? `Record chains intact: ${report.chains} chains, ${report.checked} records checked`
      : `记录链完整:已校验 ${report.chains} 条链、${report.checked} 条记录`;
  const named = report.brokenChains
    .slice(0, NAMED_IN_MESSAGE)
    .map((b) =>
      en
        ? `${chainLabel.en} ${b.partition}, record no. ${b.chainSeq}${b.id ? ` (id ${b.id})` : ''}: ${b.reasonEn}`
        : `记录链在${chainLabel.zh} ${b.partition} 的第 ${b.chainSeq} 条记录${b.id ? `(编号 ${b.id})` : ''}处断裂:${b.reason}`,
    );
  const more = report.brokenCount - named.length;
  const tail = more > 0 ? (en ? `; and ${more} more` : `;另有 ${more} 条链断裂`) : '';
  const lead = en
    ? `${report.brokenCount} of ${report.chains} record chains broken: `
    : `${report.chains} 条记录链中 ${report.brokenCount} 条断裂:`;
  return lead + named.join(en ? '; ' : ';') + tail;
}

/**
 * What the record routes use of their resource's service: the kernel's `ResourceService`
 * (kernel/resource-service.ts) has it, so it is described here rather than imported.
 */
export interface RecordService {
  readonly binding: { def: ResourceDef; table: AnyResourceTable };
  readonly columns: Record<string, PgColumn>;
  readScope(auth: AuthContext, reach?: 'own' | 'view'): Promise<SQL | undefined>;
  detail(id: unknown, auth: AuthContext): Promise<Row>;
  submit(sent: Record<string, unknown>, auth: AuthContext): Promise<{ id: string; adding: boolean }>;
  decorate(rows: Row[], auth: AuthContext): Promise<Row[]>;
}

/**
 * The routes every record definition has beyond the generic ones: `review` (ids), `correct` (a
 * submit naming the version it replaces) and `verify` (optionally one chain), each under its own
 * API scope (`<code>:review`, `:correct`, `:verify`, declared by `defineRecordResource`), and
 * `versions` (id), a read.
 */
export function registerRecordRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  service: RecordService,
  chain: RecordChain,
): void {
  const { def, table } = service.binding;
  const rules = def.records as RecordRules;
  const base = `/api${def.api}`;
  const scope = (action: string) => ({ apiScope: `${def.code}:${action}` });

  app.post(`${base}/review`, { config: scope('review') }, async (request) => {
    const auth = requireAuth(request);
    const ids = idsValue(paramsOf(request).ids ?? paramsOf(request).id, 'ids', { required: true, max: 200 });
    await review(ctx, service, chain, ids, auth);
    return ok(true, '审核成功');
  });

  app.post(`${base}/correct`, { config: scope('correct') }, async (request) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest(Messages.badRequest);
    const fields = body as Record<string, unknown>;
    const replaced = idValue(fields.id, 'id');
    const caller = auth(request);
    // Fields set only when a record is added (its device) are not in an edit form: the
    // correction keeps the stored ones.
    const stored = await service.detail(replaced, caller);
    const kept = Object.entries(def.fields)
      .filter(([name, field]) => field.form === 'create' && fields[name] === undefined && stored[name] !== undefined)
      .map(([name]) => [name, stored[name]]);
    const correction = { ...Object.fromEntries(kept), ...fields, id: undefined };
    corrections.set(correction, replaced);
    const result = await service.submit(correction, caller);
    return ok(result.id, '更正成功,已生成新版本');
  });

  app.get(`${base}/versions`, { config: scope('read') }, async (request) => {
    const caller = auth(request);
    const id = idValue((request.query as Record<string, unknown>).id, 'id');
    const visible = await service.readScope(caller, 'view');
    const cols = service.columns;
    const [row] = await ctx.db
      .select({ id: table.id, originId: chain.column('originId') })
      .from(table)
      .where(and(visible, eq(table.id, id)));
    if (!row) throw notFound(Messages.rowNotFound);
    const origin = String(row.originId ?? row.id);
    const rows = await ctx.db
      .select(cols)
      .from(table)
      .where(and(visible, or(eq(table.id, origin), eq(chain.column('originId'), origin))))
      .orderBy(asc(chain.column('recordVersion')));
    return ok(await service.decorate(rows, caller));
  });

  app.get(`${base}/verify`, { config: scope('verify') }, async (request) => {
    const caller = auth(request);
    const partition = textParam(request, rules.chainBy);
    // The whole chain of the tenant, whatever the caller's data scope: a chain read in part
    // would show gaps that are not there.
    const report = await chain.verify(ctx.db, caller.tenantId, undefined, partition || undefined);
    // The chain named as the screen labels it (设备编号), not by its field key.
    const label = def.fields[rules.chainBy]?.label ?? { zh: rules.chainBy, en: rules.chainBy };
    return ok<ChainReport>(report, verifyMessage(report, label, requestLanguage(request)));
  });
}

const auth = (request: FastifyRequest) => requireAuth(request);

/**
 * Marks the named records reviewed, all or none: each must be visible to the caller, pending, the
 * latest version, and written by someone else.
 */
async function review(ctx: AppContext, service: RecordService, chain: RecordChain, ids: string[], caller: AuthContext) {
  const { def, table } = service.binding;
  const visible = await service.readScope(caller);
  await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: table.id,
        operatorId: chain.column('operatorId'),
        reviewStatus: chain.column('reviewStatus'),
        superseded: chain.column('superseded'),
      })
      .from(table)
      .where(and(visible, inArray(table.id, ids)))
      .for('update');
    if (rows.length !== new Set(ids).size) throw notFound(Messages.rowNotFound);
    for (const row of rows) {
      if (row.superseded === true) throw badRequest(RecordMessages.superseded);
      if (Number(row.reviewStatus) === ReviewStatus.reviewed) throw badRequest(RecordMessages.reviewed);
      if (row.operatorId !== null && String(row.operatorId) === caller.userId)
        throw badRequest(RecordMessages.ownRecord);
    }
    const at = new Date();
    await tx
      .update(table)
      .set({
        reviewStatus: ReviewStatus.reviewed,
        reviewerId: caller.userId,
        reviewerName: personOf(caller),
        reviewTime: at,
      })
      .where(and(rowScope(def, table, caller), inArray(table.id, ids)));
    await chain.restate(tx, caller.tenantId, ids);
    const changes = [{ field: 'reviewStatus', label: '审核状态', before: '待审核', after: '已审核' }];
    await recordOperation(tx, { def, auth: caller, operation: 'update', ids, changes, at });
  });
  await ctx.totals.changed(def.code, caller.tenantId);
}
