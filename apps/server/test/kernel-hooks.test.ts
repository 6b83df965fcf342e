import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogResource, apiScopeCodes, type FieldChange } from '@mes/contracts';
import { tableFor } from '../src/engine/definition-tables';
import { buildResourceService, registerResource, type ResourceHooks } from '../src/engine/resource-routes';
import { requireAuth } from '../src/platform/auth/request-auth';
import { nextId } from '../src/platform/db/ids';
import { apiLog, operationLog } from '../src/platform/db/schema';
import { ok } from '../src/platform/http/envelope';
import { badRequest } from '../src/platform/http/errors';
import { createTablesFor } from './support/fixture-tables';
import { gadgetResource, partResource } from './support/gadget-resources';
import { createTestApp, type TestApp } from './support/test-app';

/*
 * The kernel's generic hooks (`validate`, `logChanges`, `decorateDetail`, `afterRemove` in the
 * remove's transaction) as a module uses them, composed with the child-rows plug-in's; and a
 * service built outside the routes (`buildResourceService`) with its plug-ins' behaviour.
 */

const parts = tableFor(partResource);
const gadgets = tableFor(gadgetResource);
const partColumns = getTableColumns(parts) as Record<'gadgetId' | 'name', PgColumn>;
const API = `/api${gadgetResource.api}`;
const OUTSIDE = '/api/mes-test/outside';

/** A module's hooks, each leaving a trace a test can see. */
const hooks: ResourceHooks = {
  validate(body) {
    if (body.name === 'refused') throw badRequest({ zh: '名称不可用', en: 'The name may not be used' });
  },
  async afterChange({ tx, id, logChanges }) {
    // The child rows are saved before the module's afterChange: it counts them in the transaction.
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(parts)
      .where(sql`${partColumns.gadgetId} = ${id} and ${parts.isDeleted} = 0`);
    logChanges([{ field: 'partCount', label: '零件数', before: null, after: String(counted?.n) }]);
  },
  async decorateDetail(row) {
    return { ...row, summary: `${String(row.name)}!` };
  },
  async afterRemove({ rows }) {
    if (rows.some((r) => r.name === 'kept')) throw badRequest({ zh: '不能删除', en: 'May not be removed' });
  },
};

let t: TestApp;
let admin: string;

const get = (url: string) => t.as(admin, { method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url, payload });
const add = async (payload: Record<string, unknown>) => {
  const res = await post(`${API}/submit`, payload);
  expect(res.json()).toMatchObject({ success: true });
  return res.json().data as string;
};
const liveParts = async (gadgetId: string) =>
  (
    await t.ctx.db
      .select({ name: partColumns.name })
      .from(parts)
      .where(sql`${partColumns.gadgetId} = ${gadgetId} and ${parts.isDeleted} = 0`)
  ).map((p) => p.name);
async function lastChanges(id: string): Promise<FieldChange[]> {
  const [row] = await t.ctx.db
    .select({ changes: operationLog.changes })
    .from(operationLog)
    .where(and(eq(operationLog.resourceCode, gadgetResource.code), eq(operationLog.ids, id)))
    .orderBy(sql`${operationLog.createTime} desc, ${operationLog.id} desc`)
    .limit(1);
  return JSON.parse(String(row?.changes)) as FieldChange[];
}

beforeAll(async () => {
  t = await createTestApp({
    beforeReady(app, ctx) {
      registerResource(app, ctx, { def: gadgetResource, table: gadgets, hooks });
      // Services a module builds for itself: no routes of theirs, the plug-ins' behaviour all the same.
      const outsideGadgets = buildResourceService(ctx, { def: gadgetResource, table: gadgets });
      const outsideLogs = buildResourceService(ctx, { def: apiLogResource, table: apiLog });
      const read = { apiScope: apiScopeCodes(gadgetResource.code).read };
      app.get(`${OUTSIDE}/gadget`, { config: read }, async (request) =>
        ok(await outsideGadgets.detail((request.query as Record<string, unknown>).id, requireAuth(request))),
      );
      app.get(`${OUTSIDE}/logs`, { config: read }, async (request) =>
        ok(await outsideLogs.page(request.query as Record<string, unknown>, requireAuth(request))),
      );
    },
  });
  admin = (await t.signIn()).access_token;
  await createTablesFor(t.databaseUrl, { gadgets, parts });
});
afterAll(async () => {
  await t?.close();
});

describe('the kernel’s hooks, with the child-rows plug-in’s around the module’s', () => {
  it('refuses in a module’s validate before anything is stored', async () => {
    const res = await post(`${API}/submit`, { name: 'refused', parts: [{ name: '螺丝' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('名称不可用');
    const stored = await t.ctx.db
      .select({ id: gadgets.id })
      .from(gadgets)
      .where(sql`${(getTableColumns(gadgets) as Record<string, PgColumn>).name} = 'refused'`);
    expect(stored).toEqual([]);
  });

  it('records what afterChange logs after the row’s and the child rows’ changes, the rows saved first', async () => {
    const id = await add({ name: '扳手', parts: [{ name: '手柄' }, { name: '钳口' }] });
    const changes = await lastChanges(id);
    expect(changes.map((c) => c.field)).toEqual(['name', 'parts[1]', 'parts[2]', 'partCount']);
    expect(changes.at(-1)).toEqual({ field: 'partCount', label: '零件数', before: null, after: '2' });
    await post(`${API}/submit`, { id, parts: [{ name: '手柄' }] });
    expect((await lastChanges(id)).at(-1)?.after).toBe('1');
  });

  it('finishes the detail with the module’s decorateDetail and the child rows, and lists neither', async () => {
    const id = await add({ name: '钳子', parts: [{ name: '弹簧' }] });
    const detail = (await get(`${API}/detail?id=${id}`)).json().data;
    expect(detail).toMatchObject({ name: '钳子', summary: '钳子!', parts: [{ name: '弹簧', gadgetId: id }] });
    const records: Record<string, unknown>[] = (await get(`${API}/list?size=100`)).json().data.records;
    const listed = records.find((r) => r.id === id);
    expect(listed).toMatchObject({ name: '钳子' });
    expect(listed).not.toHaveProperty('summary');
    expect(listed).not.toHaveProperty('parts');
  });

  it('removes the child rows in the remove’s transaction: a refusal in afterRemove keeps them', async () => {
    const kept = await add({ name: 'kept', parts: [{ name: '齿轮' }] });
    const refused = await post(`${API}/remove`, { ids: kept });
    expect(refused.statusCode).toBe(400);
    expect(await liveParts(kept)).toEqual(['齿轮']);
    expect((await get(`${API}/detail?id=${kept}`)).statusCode).toBe(200);

    const gone = await add({ name: '锤子', parts: [{ name: '锤头' }] });
    expect((await post(`${API}/remove`, { ids: gone })).json()).toMatchObject({ success: true });
    expect(await liveParts(gone)).toEqual([]);
  });
});

describe('a service built outside the routes (buildResourceService)', () => {
  it('reads the child rows into its detail', async () => {
    const id = await add({ name: '螺丝刀', parts: [{ name: '刀头' }] });
    const detail = (await get(`${OUTSIDE}/gadget?id=${id}`)).json().data;
    expect(detail.parts.map((p: { name: string }) => p.name)).toEqual(['刀头']);
    // The module's hooks are the registration's, not this service's.
    expect(detail).not.toHaveProperty('summary');
  });

  it('pages a series by its bounded range', async () => {
    const now = t.clock.now();
    const rows = [new Date(now - 2 * 24 * 3600_000), new Date(now - 3600_000)].map((createTime) => ({
      id: nextId(),
      tenantId: '000000',
      createTime,
      requestUri: '/outside-series',
    }));
    await t.ctx.db.insert(apiLog).values(rows);
    const page = (await get(`${OUTSIDE}/logs?requestUri=/outside-series`)).json().data;
    expect(page.records.map((r: { id: string }) => r.id)).toEqual([rows[1]?.id]);
    expect(page.total).toBe(1);
  });
});
