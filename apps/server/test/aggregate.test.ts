import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAggregate, defineResource, type LocalText, type PageResult } from '@mes/contracts';
import { buildApp } from '../src/app';
import { registerRegistryRoutes } from '../src/engine/registry';
import { nextId } from '../src/platform/db/ids';
import { resourceTable } from '../src/platform/db/resource-table';
import { apiScope, dataScope, role, roleScope } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { DEPT_IDS } from '../src/seed/seed-data';
import { createTablesFor } from './support/fixture-tables';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * A view-backed aggregate (docs/resources.md, "Aggregate resources"): daily output per
 * department and line, summed by a view over a tenant-owned table. The aggregate is nothing but
 * its definition; the engine gives it the filters, sort, paging, export, tenant isolation and
 * data scope of a table-backed resource, and no writes.
 */
const label = (zh: string, en: string): LocalText => ({ zh, en });

/** The rows the view sums: one per reported batch. */
const outputResource = defineResource({
  code: 'fx_output',
  title: label('产量记录', 'Output'),
  table: 'fx_output',
  api: '/fixture/output',
  owner: 'tenant',
  fields: {
    line: { kind: 'string', label: label('产线', 'Line'), max: 32 },
    day: { kind: 'date', label: label('日期', 'Day') },
    qty: { kind: 'int', label: label('数量', 'Quantity') },
  },
});
const outputTable = resourceTable(outputResource);

/** What a migration would create for the aggregate: tenant, department, and the sums. */
const CREATE_VIEW = sql.raw(`
  create view fx_daily_output_v as
  select min(id) as id, tenant_id, create_dept, day, line,
         sum(qty)::int as total_qty, count(*)::int as batches
  from fx_output where is_deleted = 0
  group by tenant_id, create_dept, day, line`);

const dailyOutput = defineAggregate({
  code: 'fx_daily_output',
  title: label('日产量', 'Daily output'),
  api: '/fixture/daily-output',
  owner: 'tenant',
  source: { view: 'fx_daily_output_v' },
  operations: ['list', 'detail', 'export'],
  dataScope: {},
  fields: {
    day: { kind: 'date', label: label('日期', 'Day'), search: true, sort: true },
    line: { kind: 'string', label: label('产线', 'Line'), max: 32, search: true, sort: true },
    createDept: { kind: 'id', label: label('部门', 'Department'), filter: true },
    totalQty: { kind: 'int', label: label('合计数量', 'Total'), filter: true, sort: true },
    batches: { kind: 'int', label: label('批次', 'Batches') },
  },
  defaultSort: [{ field: 'day', desc: true }, { field: 'line' }],
});

type Sum = {
  id: string;
  tenantId: string;
  day: string;
  line: string;
  createDept: string;
  totalQty: number;
  batches: number;
};

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let tenantUser: string;

const TENANT_B = '100001';
const BASE = '/api/fixture/daily-output';

async function output(tenantId: string, dept: string, day: string, line: string, qty: number): Promise<void> {
  await t.ctx.db.insert(outputTable).values({ id: nextId(), tenantId, createDept: dept, day, line, qty });
}

/** A role of `tenantId` holding the aggregate's read scope (and a data scope, if given). */
async function readerRole(tenantId: string, account: string, dataScopeType?: number): Promise<string> {
  const roleId = nextId();
  await t.ctx.db.insert(role).values({ id: roleId, tenantId, roleName: account, roleAlias: `r_${account}` });
  const read = { id: nextId(), menuId: '0', resourceCode: 'fx_daily_output:read', scopeName: 'read', scopePath: '' };
  await t.ctx.db.insert(apiScope).values(read).onConflictDoNothing();
  const [scope] = await t.ctx.db
    .select({ id: apiScope.id })
    .from(apiScope)
    .where(sql`${apiScope.resourceCode} = 'fx_daily_output:read'`)
    .limit(1);
  const grants: { id: string; scopeCategory: number; scopeId: string; roleId: string }[] = [
    { id: nextId(), scopeCategory: ScopeCategory.API, scopeId: scope?.id ?? read.id, roleId },
  ];
  if (dataScopeType !== undefined) {
    const data = {
      id: nextId(),
      menuId: '0',
      resourceCode: 'fx_daily_output',
      scopeName: 'dept',
      scopeType: dataScopeType,
      scopeColumn: 'create_dept',
    };
    await t.ctx.db.insert(dataScope).values(data);
    grants.push({ id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId: data.id, roleId });
  }
  await t.ctx.db.insert(roleScope).values(grants);
  await t.ctx.grants.changed();
  return roleId;
}

const get = (token: string, url: string) =>
  app.inject({ method: 'GET', url, headers: { 'blade-auth': `bearer ${token}` } });

async function page(token: string, query = ''): Promise<PageResult<Sum>> {
  const res = await get(token, `${BASE}/list${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: PageResult<Sum> }>().data;
}

const summary = (rows: Sum[]) => rows.map((r) => `${r.day} ${r.line} ${r.totalQty}/${r.batches}`);

beforeAll(async () => {
  t = await createTestApp();
  await createTablesFor(t.databaseUrl, { outputTable });
  await t.ctx.db.execute(CREATE_VIEW);
  // A second app on the same context, its routes from the registry as for any definition.
  app = await buildApp(t.ctx);
  registerRegistryRoutes(app, t.ctx, { entries: [dailyOutput], bindings: [] });
  await app.ready();
  admin = (await t.signIn()).access_token;
  await t.as(admin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId: TENANT_B, tenantName: '租户B', linkman: 'ops' },
  });
  const { east, south } = DEPT_IDS;
  await output('000000', east, '2026-03-01', 'A', 5);
  await output('000000', east, '2026-03-01', 'A', 7);
  await output('000000', east, '2026-03-01', 'B', 3);
  await output('000000', south, '2026-03-01', 'A', 20);
  await output('000000', east, '2026-03-02', 'A', 4);
  await output(TENANT_B, east, '2026-03-01', 'A', 1000);
  const tenantRole = await readerRole(TENANT_B, 'aggb');
  tenantUser = await signInWithScopes(t, { tenantId: TENANT_B, account: 'aggb', codes: [], roleId: tenantRole });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await t?.close();
});

describe('a view-backed aggregate', () => {
  it('lists the view’s sums in the page shape, in the declared order', async () => {
    const all = await page(admin);
    expect(all).toMatchObject({ total: 4, current: 1, size: 10, pages: 1 });
    expect(summary(all.records)).toEqual([
      '2026-03-02 A 4/1',
      '2026-03-01 A 12/2',
      '2026-03-01 A 20/1',
      '2026-03-01 B 3/1',
    ]);
    expect(all.records.map((r) => r.tenantId)).toEqual(['000000', '000000', '000000', '000000']);
  });

  it('filters, sorts and pages with the list parameters of every resource', async () => {
    expect(summary((await page(admin, '?day=2026-03-01&line=B')).records)).toEqual(['2026-03-01 B 3/1']);
    expect(summary((await page(admin, '?totalQty_gt=10&ascs=total_qty')).records)).toEqual([
      '2026-03-01 A 12/2',
      '2026-03-01 A 20/1',
    ]);
    expect(summary((await page(admin, `?createDept=${DEPT_IDS.south}`)).records)).toEqual(['2026-03-01 A 20/1']);
    const second = await page(admin, '?descs=total_qty&size=2&current=2');
    expect(second).toMatchObject({ total: 4, current: 2, size: 2, pages: 2 });
    expect(summary(second.records)).toEqual(['2026-03-02 A 4/1', '2026-03-01 B 3/1']);
  });

  it('answers bad list parameters with the lists’ 400s', async () => {
    const msg = async (query: string) => {
      const res = await get(admin, `${BASE}/list${query}`);
      expect(res.statusCode, query).toBe(400);
      return res.json<{ msg: string }>().msg;
    };
    expect(await msg('?batches=1')).toBe('不支持的查询条件: batches');
    expect(await msg('?ascs=batches')).toContain('batches');
    expect(await msg('?day=yesterday')).toBe('请求参数 day 不正确: 日期格式应为 yyyy-MM-dd');
    expect(await msg('?totalQty_gt=x')).toContain('totalQty_gt');
  });

  it('counts on every page: a new source row shows at once', async () => {
    expect((await page(admin, '?line=C')).total).toBe(0);
    await output('000000', DEPT_IDS.east, '2026-03-03', 'C', 9);
    const added = await page(admin, '?line=C');
    expect(added.total).toBe(1);
    expect(summary(added.records)).toEqual(['2026-03-03 C 9/1']);
    await t.ctx.db.execute(sql`delete from fx_output where line = 'C'`);
    expect((await page(admin, '?line=C')).total).toBe(0);
  });

  it('exports every matching row as a workbook with the declared columns', async () => {
    const res = await get(admin, `${BASE}/export?day=2026-03-01&ascs=line`);
    expect(res.statusCode, res.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.name).toBe('日产量');
    const rows = sheet?.getSheetValues().slice(1) as unknown[][];
    expect(rows.map((r) => r.slice(1))).toEqual([
      ['日期', '产线', '部门', '合计数量', '批次'],
      ['2026-03-01', 'A', DEPT_IDS.east, 12, 2],
      ['2026-03-01', 'A', DEPT_IDS.south, 20, 1],
      ['2026-03-01', 'B', DEPT_IDS.east, 3, 1],
    ]);
  });

  it('shows each tenant only its own sums, detail included', async () => {
    const mine = await page(tenantUser);
    expect(summary(mine.records)).toEqual(['2026-03-01 A 1000/1']);
    const theirs = (await page(admin, '?line=A&day=2026-03-02')).records[0];
    expect((await get(tenantUser, `${BASE}/detail?id=${theirs?.id}`)).statusCode).toBe(404);
    const own = await get(tenantUser, `${BASE}/detail?id=${mine.records[0]?.id}`);
    expect(own.json<{ data: Sum }>().data).toMatchObject({ line: 'A', totalQty: 1000 });
    // tenantId narrows only a list that spans tenants; here it cannot widen the caller's.
    expect((await page(tenantUser, '?tenantId=000000')).total).toBe(1);
    expect((await page(admin)).records.map((r) => r.totalQty)).not.toContain(1000);
  });

  it('applies the caller’s data scope to the view’s department column', async () => {
    const roleId = await readerRole('000000', 'aggdept', 3);
    const east = await signInWithScopes(t, { account: 'aggdept', codes: [], roleId, deptId: DEPT_IDS.east });
    const rows = (await page(east)).records;
    expect(rows.map((r) => r.createDept)).toEqual([DEPT_IDS.east, DEPT_IDS.east, DEPT_IDS.east]);
    expect(summary(rows)).not.toContain('2026-03-01 A 20/1');
  });

  it('has no writes: submit, remove and enable are not routes', async () => {
    for (const route of ['submit', 'remove', 'enable']) {
      const res = await app.inject({
        method: 'POST',
        url: `${BASE}/${route}`,
        headers: { 'blade-auth': `bearer ${admin}` },
        payload: { day: '2026-03-09', line: 'X' },
      });
      expect(res.statusCode, route).toBe(404);
    }
  });

  it('needs its module for a query aggregate', () => {
    const orphan = defineAggregate({
      code: 'fx_orphan',
      title: label('孤儿', 'Orphan'),
      api: '/fixture/orphan',
      owner: 'platform',
      source: { query: true },
      fields: {},
    });
    expect(() => registerRegistryRoutes(app, t.ctx, { entries: [orphan], bindings: [] })).toThrow(
      'registry: fx_orphan reads a query; bind it to the module that supplies the query',
    );
  });
});
