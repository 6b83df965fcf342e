import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  apiScopeCodes,
  bilingual,
  deptResource,
  invalidParamText,
  lineResource,
  operationLogResource,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { ChildRows } from '../../engine/child-rows/child-rows';
import { toForest, type ResourceService, type Row } from '../../engine/resource-routes';
import { recordOperation } from '../../platform/audit/operation-audit';
import { requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import { dept } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import { pickerNode } from './dept-browse';
import { idValue, idsValue, paramOf } from '../../platform/http/request-params';
import { DeptCategory } from './dept-rules';
import { tenantRows, type TenantOwnedTable } from '../../platform/tenancy/tenant-scope';

const base = `/api${deptResource.api}`;
const read = { apiScope: apiScopeCodes(deptResource.code).read };
/** Declared in deptResource's `menu.scopes` (packages/contracts); the seed derives it. */
const LINES_SCOPE = 'dept:lines';

/** Direction of a line assignment (dictionary line_direction). */
export const LineDirection = { PICKUP: 1, DELIVERY: 2 } as const;
const DIRECTION_NAMES: Record<number, string> = { 1: '回收', 2: '发放' };

export const LineMessages = {
  badDirection: invalidParamText('direction', {
    zh: '应为 1(回收)或 2(发放)',
    en: 'must be 1 (pickup) or 2 (delivery)',
  }),
  duplicate: {
    zh: '节点重复,同一节点在一条线路的同一方向上只能出现一次',
    en: 'Duplicate node: a node may appear only once in each direction of a line',
  },
  nodeMissing: { zh: '节点不存在或无权访问', en: 'The node does not exist or you may not see it' },
  notNode: { zh: '只有诊所节点(机构类型 5)可以加入线路', en: 'Only clinic nodes (category 5) can join a line' },
  baseMissing: { zh: '消毒基地不存在或无权访问', en: 'The disinfection base does not exist or you may not see it' },
} as const;

function directionOf(value: unknown, required: boolean): number | undefined {
  const v = typeof value === 'string' ? value.trim() : value;
  if (v === undefined || v === null || v === '') {
    if (required) throw badRequest(bilingual('missingParam', 'direction'));
    return undefined;
  }
  const n = Number(v);
  if (n !== LineDirection.PICKUP && n !== LineDirection.DELIVERY) throw badRequest(LineMessages.badDirection);
  return n;
}

/** The base a node belongs to: its nearest ancestor that is a base. */
function nearestBase(row: Row, baseIds: ReadonlySet<string>): string | undefined {
  const chain = String(row.ancestors).split(',');
  for (let i = chain.length - 1; i >= 0; i--) {
    const id = chain[i] as string;
    if (baseIds.has(id)) return id;
  }
  return undefined;
}

async function basesAndNodes(ctx: AppContext, service: ResourceService, auth: AuthContext) {
  const rows = await ctx.db
    .select(service.columns)
    .from(dept)
    .where(and(await service.readScope(auth), inArray(dept.deptCategory, [DeptCategory.BASE, DeptCategory.NODE])))
    .orderBy(asc(dept.sort), asc(dept.id));
  const bases = rows.filter((r) => r.deptCategory === DeptCategory.BASE);
  const baseIds = new Set(bases.map((b) => String(b.id)));
  const nodes = rows
    .filter((r) => r.deptCategory === DeptCategory.NODE)
    .map((r) => ({ row: r, baseId: nearestBase(r, baseIds) }));
  return { bases, nodes };
}

/**
 * Disinfection bases, clinic nodes and their assignment to pickup / delivery lines
 * (docs/organisation.md).
 */
export function registerDeptLogisticsRoutes(app: FastifyInstance, ctx: AppContext, service: ResourceService): void {
  // A line's stops are the child rows `stops` of the line resource (blade_dept_line): these
  // routes read and write them through the same engine as the line's own form. A line id without
  // a line row (assigned before lines had rows) keeps working: its stops are stored all the same.
  const lines = new ChildRows(ctx, lineResource);
  const stops = lines.set('stops');
  const stopColumns = stops.columns as Record<'lineId' | 'deptId' | 'direction' | 'sort', PgColumn>;
  const ofCategory = (category: number, auth: AuthContext) =>
    service.all({ deptCategory_equal: String(category) }, auth);

  app.get(`${base}/getBases`, { config: read }, async (request) =>
    ok(await ofCategory(DeptCategory.BASE, requireAuth(request))),
  );

  app.get(`${base}/getNodes`, { config: read }, async (request) =>
    ok(await ofCategory(DeptCategory.NODE, requireAuth(request))),
  );

  // Bases as roots, each with the clinic nodes it serves beneath; nodes outside any base are left out.
  app.get(`${base}/nodeTree`, { config: read }, async (request) => {
    const { bases, nodes } = await basesAndNodes(ctx, service, requireAuth(request));
    const picker = [
      ...bases.map((b) => pickerNode(b, '0')),
      ...nodes.filter((n) => n.baseId).map((n) => pickerNode(n.row, n.baseId)),
    ];
    return ok(toForest(picker, 'parentId'));
  });

  app.get(`${base}/listByBase`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const baseId = idValue(paramOf(request, 'baseId'), 'baseId');
    const { bases, nodes } = await basesAndNodes(ctx, service, auth);
    if (!bases.some((b) => b.id === baseId)) throw badRequest(LineMessages.baseMissing);
    return ok(
      await service.decorate(
        nodes.filter((n) => n.baseId === baseId).map((n) => n.row),
        auth,
      ),
    );
  });

  // The nodes of a line in stop order: pickup first, then delivery, unless one direction is asked for.
  app.get(`${base}/listByLine`, { config: read }, async (request) => {
    const auth = requireAuth(request);
    const lineId = idValue(paramOf(request, 'lineId'), 'lineId');
    const direction = directionOf(paramOf(request, 'direction'), false);
    const rows = await ctx.db
      .select({
        ...service.columns,
        lineId: stopColumns.lineId,
        direction: stopColumns.direction,
        lineSort: stopColumns.sort,
      })
      .from(stops.table)
      .innerJoin(dept, eq(dept.id, stopColumns.deptId))
      .where(
        and(
          await service.readScope(auth),
          tenantRows(
            stops.table as TenantOwnedTable,
            auth.tenantId,
            eq(stops.parentColumn, lineId),
            direction === undefined ? undefined : eq(stopColumns.direction, direction),
          ),
        ),
      )
      .orderBy(...stops.order);
    const decorated = await service.decorate(rows, auth);
    return ok(
      decorated.map(({ lineSort, sort, ...r }) => ({
        ...r,
        deptSort: sort,
        sort: lineSort,
        directionName: DIRECTION_NAMES[Number(r.direction)] ?? '',
      })),
    );
  });

  // Replaces the nodes of one direction of a line, in the order given.
  app.post(`${base}/setLines`, { config: { apiScope: LINES_SCOPE } }, async (request) => {
    const auth = requireAuth(request);
    const lineId = idValue(paramOf(request, 'lineId'), 'lineId');
    const direction = directionOf(paramOf(request, 'direction'), true) as number;
    const ids = idsValue(paramOf(request, 'ids'), 'ids', { keepDuplicates: true });
    if (new Set(ids).size !== ids.length) throw badRequest(LineMessages.duplicate);
    const scope = await service.readScope(auth);
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`blade_dept_line:${auth.tenantId}:${lineId}`}))`);
      if (ids.length) {
        // Shared locks: a node removed meanwhile would leave an assignment behind.
        const found = await tx
          .select({ id: dept.id, deptCategory: dept.deptCategory })
          .from(dept)
          .where(and(scope, inArray(dept.id, ids)))
          .for('share');
        if (found.length !== ids.length) throw badRequest(LineMessages.nodeMissing);
        if (found.some((d) => d.deptCategory !== DeptCategory.NODE)) throw badRequest(LineMessages.notNode);
      }
      // A node already on this direction keeps its row (and id): only its position changes.
      const current = await lines.rowsOf(
        tx,
        auth,
        stops,
        [lineId],
        auth.tenantId,
        eq(stopColumns.direction, direction),
      );
      const rowOf = new Map(current.map((r) => [String(r.deptId), String(r.id)]));
      const rows = ids.map((deptId) => ({ id: rowOf.get(deptId), values: { deptId, direction } }));
      const changes = await lines.replace(tx, auth, stops, lineId, rows, { direction });
      // Recorded as a change of the line, as its form's saves are.
      if (changes.length)
        await recordOperation(tx, {
          def: lineResource,
          auth,
          operation: 'update',
          ids: [lineId],
          changes,
          at: new Date(),
        });
    });
    await ctx.totals.changed(operationLogResource.code, '*');
    return ok(true);
  });
}
