import ExcelJS from 'exceljs';
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineResource } from '@mes/contracts';
import { buildApp } from '../src/app';
import { registerResource } from '../src/engine/resource-routes';
import { nextId } from '../src/platform/db/ids';
import { resourceTable } from '../src/platform/db/resource-table';
import { apiScope, dataScope, role, roleScope } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { createTablesFor } from './support/fixture-tables';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The field kinds of issue 13 on resources defined only here: a target referenced with
 * `refuse`, one referenced with `clear`, and an item holding one field of every new kind.
 */
const label = (zh: string, en: string) => ({ zh, en });

const machineResource = defineResource({
  code: 'fx_machine',
  title: label('测试机台', 'Test machines'),
  table: 'fx_machine',
  api: '/fixture/machine',
  owner: 'tenant',
  fields: {
    machineName: { kind: 'string', label: label('机台名称', 'Machine name'), required: true, max: 64 },
  },
});

const shiftResource = defineResource({
  code: 'fx_shift',
  title: label('测试班次', 'Test shifts'),
  table: 'fx_shift',
  api: '/fixture/shift',
  owner: 'tenant',
  fields: {
    shiftName: { kind: 'string', label: label('班次名称', 'Shift name'), required: true, max: 64 },
  },
});

const itemResource = defineResource({
  code: 'fx_item',
  title: label('测试工件', 'Test items'),
  table: 'fx_item',
  api: '/fixture/item',
  owner: 'tenant',
  defaultSort: [{ field: 'title' }],
  fields: {
    title: { kind: 'string', label: label('名称', 'Title'), required: true, max: 64, search: true },
    active: { kind: 'boolean', label: label('启用', 'Active'), search: true },
    madeOn: { kind: 'date', label: label('生产日期', 'Made on'), search: true, sort: true },
    price: { kind: 'decimal', label: label('单价', 'Price'), precision: 8, scale: 2, search: true, sort: true },
    spec: {
      kind: 'json',
      label: label('规格', 'Spec'),
      max: 200,
      schema: {
        type: 'object',
        required: ['mode'],
        additionalProperties: false,
        properties: {
          mode: { type: 'string', enum: ['auto', 'manual'] },
          limits: { type: 'array', maxItems: 3, items: { type: 'integer', minimum: 0, maximum: 100 } },
        },
      },
    },
    machine: {
      kind: 'reference',
      label: label('机台', 'Machine'),
      search: true,
      reference: { to: () => machineResource, label: 'machineName', onRemove: 'refuse' },
    },
    shift: {
      kind: 'reference',
      label: label('班次', 'Shift'),
      reference: { to: () => shiftResource, label: 'shiftName', onRemove: 'clear' },
    },
  },
});

/** A data-scoped resource with a reference: its own-rows condition names columns without a table. */
const scopedResource = defineResource({
  code: 'fx_scoped',
  title: label('测试范围', 'Test scoped'),
  table: 'fx_scoped',
  api: '/fixture/scoped',
  owner: 'tenant',
  dataScope: {},
  fields: {
    note: { kind: 'string', label: label('备注', 'Note'), max: 64 },
    machine: {
      kind: 'reference',
      label: label('机台', 'Machine'),
      reference: { to: () => machineResource, label: 'machineName' },
    },
  },
});

const machineTable = resourceTable(machineResource);
const scopedTable = resourceTable(scopedResource);
const shiftTable = resourceTable(shiftResource);
const itemTable = resourceTable(itemResource);

let t: TestApp;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  await createTablesFor(t.databaseUrl, { machineTable, shiftTable, itemTable, scopedTable });
  // A second app on the same context, with the fixture's routes registered as a module does.
  app = await buildApp(t.ctx);
  registerResource(app, t.ctx, { def: machineResource, table: machineTable });
  registerResource(app, t.ctx, { def: shiftResource, table: shiftTable });
  registerResource(app, t.ctx, { def: itemResource, table: itemTable });
  registerResource(app, t.ctx, { def: scopedResource, table: scopedTable });
  await app.ready();
  token = (await t.signIn()).access_token;
});

afterAll(async () => {
  await app?.close();
  await t?.close();
});

const call = (options: InjectOptions) =>
  app.inject({ ...options, headers: { ...options.headers, 'blade-auth': `bearer ${token}` } });
const get = (url: string) => call({ method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>) => call({ method: 'POST', url, payload });

async function added(url: string, payload: Record<string, unknown>): Promise<string> {
  const res = await post(url, payload);
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json().data as string;
}

type Item = Record<string, unknown>;
const detail = async (id: string): Promise<Item> => (await get(`/api/fixture/item/detail?id=${id}`)).json().data;
const list = async (query: string): Promise<Item[]> => {
  const res = await get(`/api/fixture/item/list?size=100&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.records;
};
const titles = (rows: Item[]) => rows.map((r) => r.title);
const itemCount = async () => (await t.ctx.db.select({ n: count() }).from(itemTable))[0]?.n;

let press: string;
let lathe: string;
let morning: string;

describe('field kinds over HTTP', () => {
  beforeAll(async () => {
    press = await added('/api/fixture/machine/submit', { machineName: '冲压机' });
    lathe = await added('/api/fixture/machine/submit', { machineName: '车床' });
    morning = await added('/api/fixture/shift/submit', { shiftName: '早班' });
  });

  it('round-trips every kind exactly: decimal text, day, boolean, json, reference with its name', async () => {
    const id = await added('/api/fixture/item/submit', {
      title: 'A',
      active: true,
      madeOn: '2026-03-01',
      price: '12.50',
      spec: { mode: 'auto', limits: [1, 2] },
      machine: press,
      shift: morning,
    });
    const row = await detail(id);
    expect(row).toMatchObject({
      title: 'A',
      active: true,
      madeOn: '2026-03-01',
      price: '12.50',
      spec: { mode: 'auto', limits: [1, 2] },
      machine: press,
      machineName: '冲压机',
      shift: morning,
      shiftName: '早班',
    });
    const [listed] = await list('title=A');
    expect(listed).toMatchObject({ price: '12.50', madeOn: '2026-03-01', active: true, machineName: '冲压机' });
  });

  it('takes decimals as numbers or text, never through a float, in their canonical form', async () => {
    const a = await added('/api/fixture/item/submit', { title: 'D1', price: 12.5 });
    const b = await added('/api/fixture/item/submit', { title: 'D2', price: '999999.99' });
    const c = await added('/api/fixture/item/submit', { title: 'D3', price: '0.1' });
    const d = await added('/api/fixture/item/submit', { title: 'D4', price: '-3' });
    expect((await detail(a)).price).toBe('12.50');
    expect((await detail(b)).price).toBe('999999.99');
    expect((await detail(c)).price).toBe('0.10');
    expect((await detail(d)).price).toBe('-3.00');
  });

  it('keeps a day the same day whatever the process time zone', async () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['Pacific/Kiritimati', 'America/Adak', 'UTC']) {
        process.env.TZ = tz;
        const id = await added('/api/fixture/item/submit', { title: `Z-${tz}`, madeOn: '2026-01-01' });
        expect((await detail(id)).madeOn).toBe('2026-01-01');
        expect((await list(`title=Z-${tz}`))[0]?.madeOn).toBe('2026-01-01');
        const exported = await get(`/api/fixture/item/export?title=Z-${tz}`);
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
        expect(book.worksheets[0]?.getRow(2).values).toContain('2026-01-01');
      }
    } finally {
      process.env.TZ = zone;
      if (zone === undefined) delete process.env.TZ;
    }
  });

  it('filters and sorts by kind: boolean, day range, numeric order, reference id', async () => {
    await added('/api/fixture/item/submit', {
      title: 'Q1',
      active: true,
      madeOn: '2026-05-01',
      price: '9',
      machine: lathe,
    });
    await added('/api/fixture/item/submit', { title: 'Q2', active: false, madeOn: '2026-05-31', price: '10.5' });
    await added('/api/fixture/item/submit', { title: 'Q3', active: false, madeOn: '2026-06-01', price: '100' });
    expect(titles(await list('title=Q&active=true'))).toEqual(['Q1']);
    expect(titles(await list('title=Q&active=false'))).toEqual(['Q2', 'Q3']);
    expect(titles(await list('title=Q&madeOn_dategt=2026-05-01&madeOn_datelt=2026-05-31'))).toEqual(['Q1', 'Q2']);
    expect(titles(await list('title=Q&madeOn_dateequal=2026-06-01'))).toEqual(['Q3']);
    // The search bar's single day picker sends the bare name.
    expect(titles(await list('title=Q&madeOn=2026-05-31'))).toEqual(['Q2']);
    // Numeric, not text, order: 9 < 10.5 < 100.
    expect(titles(await list('title=Q&ascs=price'))).toEqual(['Q1', 'Q2', 'Q3']);
    expect(titles(await list('title=Q&price_gt=9.99'))).toEqual(['Q2', 'Q3']);
    expect(titles(await list(`machine=${lathe}`))).toEqual(['Q1']);
    for (const bad of ['active=maybe', 'madeOn_dategt=2026-02-30', 'price_gt=1e400', 'machine=abc'])
      expect((await get(`/api/fixture/item/list?${bad}`)).statusCode, bad).toBe(400);
  });

  it.each([
    [{ active: 'yes' }, '启用应为是或否'],
    [{ active: 1 }, '启用应为是或否'],
    [{ madeOn: '2026-02-30' }, '生产日期的格式应为 yyyy-MM-dd'],
    [{ madeOn: '2026-01-01 10:00:00' }, '生产日期的格式应为 yyyy-MM-dd'],
    [{ price: '1.005' }, '单价最多 2 位小数'],
    [{ price: 1234567 }, '单价的整数部分最多 6 位'],
    [{ price: 'abc' }, '单价应为数字'],
    [{ price: true }, '单价应为数字'],
    [{ spec: { limits: [1] } }, '规格中的 mode 不能缺少'],
    [{ spec: { mode: 'fast' } }, '规格中的 mode 应为 auto / manual 之一'],
    [{ spec: { mode: 'auto', limits: [1, 'a'] } }, '规格中的 limits[1] 应为整数'],
    [{ spec: { mode: 'auto', limits: [1, 2, 3, 4] } }, '规格中的 limits 最多 3 项'],
    [{ spec: { mode: 'auto', extra: 1 } }, '规格中的 extra 不是可用的属性'],
    [{ spec: { mode: 'auto', limits: [101] } }, '规格中的 limits[0] 不能大于 100'],
    [{ spec: '{not json' }, '规格不是有效的 JSON'],
    // As JSON text (which the request's own depth guard does not look into), nested past PostgreSQL's parser.
    [{ spec: `{"mode":${'['.repeat(40)}${']'.repeat(40)}}` }, '规格的嵌套不能超过 32 层'],
    [{ spec: { mode: 'auto', note: 'x'.repeat(300) } }, '规格最长 200 个字符'],
    [{ machine: 'abc' }, '机台无效'],
    [{ machine: '123456789' }, '所选机台不存在'],
  ])('refuses %j with a clear 400 and stores nothing', async (values, message) => {
    const before = await itemCount();
    const res = await post('/api/fixture/item/submit', { title: 'BAD', ...values });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(message);
    expect(await itemCount()).toBe(before);
  });

  it('names referenced rows through one join, not one query per row', async () => {
    const machines = await Promise.all(
      ['M1', 'M2', 'M3', 'M4', 'M5'].map((name) => added('/api/fixture/machine/submit', { machineName: name })),
    );
    for (const [i, machine] of machines.entries())
      await added('/api/fixture/item/submit', { title: `J${i}`, machine, shift: morning });
    const pool = t.ctx.database.pool;
    const seen: string[] = [];
    const original = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    const spy = vi.spyOn(pool, 'query').mockImplementation(((...args: unknown[]) => {
      const config = args[0] as string | { text?: string };
      seen.push(typeof config === 'string' ? config : (config.text ?? ''));
      return original(...args);
    }) as unknown as typeof pool.query);
    let rows: Item[];
    try {
      rows = await list('title=J');
    } finally {
      spy.mockRestore();
    }
    expect(rows.map((r) => r.machineName)).toEqual(['M1', 'M2', 'M3', 'M4', 'M5']);
    expect(rows.every((r) => r.shiftName === '早班')).toBe(true);
    const touchingTargets = seen.filter((text) => /fx_machine|fx_shift/.test(text));
    expect(touchingTargets).toHaveLength(1);
    expect(touchingTargets[0]).toMatch(/left join/i);
  });

  it("never joins or accepts another tenant's referenced row", async () => {
    const foreign = nextId();
    await t.ctx.db.insert(machineTable).values({ id: foreign, tenantId: '100001', machineName: '别家机台' });
    // Through the API: the other tenant's row does not exist for this caller.
    const res = await post('/api/fixture/item/submit', { title: 'T-foreign', machine: foreign });
    expect(res.json().msg).toBe('所选机台不存在');
    // Written directly: the list still does not show the other tenant's name.
    const id = nextId();
    await t.ctx.db.insert(itemTable).values({ id, tenantId: '000000', title: 'T-direct', machine: foreign });
    const row = await detail(id);
    expect(row.machine).toBe(foreign);
    expect(row.machineName).toBe('');
    expect((await list('title=T-direct'))[0]?.machineName).toBe('');
    // The picker of machines offers only the caller's tenant's rows.
    const options = (await get('/api/fixture/machine/list?size=1000')).json().data.records as Item[];
    expect(options.map((o) => o.machineName)).not.toContain('别家机台');
  });

  it('refuses to remove a referenced row, naming the resource that references it', async () => {
    const used = await added('/api/fixture/machine/submit', { machineName: '在用机台' });
    await added('/api/fixture/item/submit', { title: 'R1', machine: used });
    const res = await post(`/api/fixture/machine/remove?ids=${used}`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('测试工件');
    expect((await get(`/api/fixture/machine/detail?id=${used}`)).statusCode).toBe(200);
    // Once nothing references it, it goes.
    const [item] = await list('title=R1');
    await post(`/api/fixture/item/remove?ids=${String(item?.id)}`, {});
    expect((await post(`/api/fixture/machine/remove?ids=${used}`, {})).statusCode).toBe(200);
  });

  it('clears a `clear` reference in the same transaction as the remove', async () => {
    const night = await added('/api/fixture/shift/submit', { shiftName: '夜班' });
    const id = await added('/api/fixture/item/submit', { title: 'C1', shift: night });
    expect((await detail(id)).shiftName).toBe('夜班');
    expect((await post(`/api/fixture/shift/remove?ids=${night}`, {})).statusCode).toBe(200);
    const row = await detail(id);
    expect(row.shift).toBeNull();
    expect(row.shiftName).toBe('');
    const [stored] = await t.ctx.db.select({ shift: itemTable.shift }).from(itemTable).where(eq(itemTable.id, id));
    expect(stored?.shift).toBeNull();
  });

  it('exports referenced rows by name and booleans as 是 / 否', async () => {
    await added('/api/fixture/item/submit', { title: 'X1', active: true, machine: press, price: '7.25' });
    const res = await get('/api/fixture/item/export?title=X1');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const values = book.worksheets[0]?.getRow(2).values as unknown[];
    expect(values).toContain('冲压机');
    expect(values).toContain('是');
    expect(values).toContain('7.25');
  });
});

describe('a reference on a data-scoped resource', () => {
  it("lists only the caller's own rows, with their referenced names", async () => {
    // A role holding the fixture's read / write scopes and the "own rows" data scope.
    const roleId = nextId();
    await t.ctx.db.insert(role).values({ id: roleId, tenantId: '000000', roleName: 'fx', roleAlias: 'fx_role' });
    const scopes = ['fx_scoped:read', 'fx_scoped:write'].map((code) => ({
      id: nextId(),
      menuId: '0',
      resourceCode: code,
      scopeName: code,
      scopePath: '',
    }));
    await t.ctx.db.insert(apiScope).values(scopes);
    const own = {
      id: nextId(),
      menuId: '0',
      resourceCode: 'fx_scoped',
      scopeName: 'own',
      scopeType: 2,
      scopeColumn: 'create_user',
    };
    await t.ctx.db.insert(dataScope).values(own);
    await t.ctx.db
      .insert(roleScope)
      .values([
        ...scopes.map((s) => ({ id: nextId(), scopeCategory: ScopeCategory.API, scopeId: s.id, roleId })),
        { id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId: own.id, roleId },
      ]);
    await t.ctx.grants.changed();
    const scopedToken = await signInWithScopes(t, { account: 'fxuser', codes: [], roleId });
    const machine = await added('/api/fixture/machine/submit', { machineName: '范围机台' });
    await added('/api/fixture/scoped/submit', { note: 'admin row', machine });
    const mine = await app.inject({
      method: 'POST',
      url: '/api/fixture/scoped/submit',
      headers: { 'blade-auth': `bearer ${scopedToken}` },
      payload: { note: 'my row', machine },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const res = await app.inject({
      method: 'GET',
      url: '/api/fixture/scoped/list',
      headers: { 'blade-auth': `bearer ${scopedToken}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data.records as Item[];
    expect(rows.map((r) => [r.note, r.machineName])).toEqual([['my row', '范围机台']]);
  });
});
