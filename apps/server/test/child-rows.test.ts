import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY, type FieldChange } from '@mes/contracts';
import { buildApp } from '../src/app';
import { tableFor } from '../src/engine/definition-tables';
import { nextId } from '../src/platform/db/ids';
import { deptLine, operationLog } from '../src/platform/db/schema';
import { DEPT_IDS } from '../src/seed/seed-data';
import { createTablesFor } from './support/fixture-tables';
import { gadgetResource, partResource } from './support/gadget-resources';
import { createTestApp, type TestApp } from './support/test-app';

const parts = tableFor(partResource);
const gadgets = tableFor(gadgetResource);

let t: TestApp;
let app: FastifyInstance;
let admin: string;

const call = (options: InjectOptions) =>
  app.inject({ ...options, headers: { ...options.headers, 'blade-auth': `bearer ${admin}` } });
const get = (url: string) => call({ method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>) => call({ method: 'POST', url, payload });
const API = '/api/mes-test/gadget';

interface Part {
  id: string;
  name: string;
  qty: number;
  position: number;
  gadgetId: string;
}
const detail = async (id: string) =>
  (await get(`${API}/detail?id=${id}`)).json().data as { name: string; parts: Part[] };
const partRows = (gadgetId: string) =>
  t.ctx.db.execute<{ id: string; name: string; is_deleted: number; tenant_id: string }>(
    sql`select id::text, name, is_deleted, tenant_id from mes_test_gadget_part where gadget_id = ${gadgetId} order by id`,
  );
async function lastChanges(id: string): Promise<{ operation: string; changes: FieldChange[] }> {
  const [row] = await t.ctx.db
    .select({ operation: operationLog.operation, changes: operationLog.changes })
    .from(operationLog)
    .where(and(eq(operationLog.resourceCode, 'gadget'), eq(operationLog.ids, id)))
    .orderBy(sql`${operationLog.createTime} desc, ${operationLog.id} desc`)
    .limit(1);
  return { operation: String(row?.operation), changes: JSON.parse(String(row?.changes)) as FieldChange[] };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  await createTablesFor(t.databaseUrl, { gadgets, parts });
  app = await buildApp(t.ctx, { registry: [...REGISTRY, gadgetResource] });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t.close();
});

describe('child rows of a resource', () => {
  let gadget: string;

  it('adds the parent with its rows, in the order sent, and detail returns them', async () => {
    const res = await post(`${API}/submit`, {
      name: '扳手',
      parts: [{ name: '手柄', qty: 2 }, { name: '钳口' }, { name: '螺丝', qty: '4' }],
    });
    expect(res.json()).toMatchObject({ success: true });
    gadget = res.json().data;
    const found = await detail(gadget);
    expect(found.name).toBe('扳手');
    expect(found.parts.map((p) => [p.name, p.qty, p.position, p.gadgetId])).toEqual([
      ['手柄', 2, 1, gadget],
      ['钳口', 1, 2, gadget],
      ['螺丝', 4, 3, gadget],
    ]);
    const log = await lastChanges(gadget);
    expect(log.operation).toBe('add');
    expect(log.changes).toContainEqual({ field: 'name', label: '名称', before: null, after: '扳手' });
    expect(log.changes).toContainEqual({
      field: 'parts[1]',
      label: '零件第 1 行',
      before: null,
      after: '零件名称: 手柄; 数量: 2; 顺序: 1',
    });
  });

  it('saves by diff: updates rows it knows, inserts new ones, removes missing ones, keeps the order', async () => {
    const before = (await detail(gadget)).parts;
    const [handle, jaw, screw] = before as [Part, Part, Part];
    const res = await post(`${API}/submit`, {
      id: gadget,
      parts: [
        { id: screw.id, name: '螺丝', qty: 4 },
        { name: '弹簧', qty: 1 },
        { id: handle.id, name: '手柄', qty: 3 },
      ],
    });
    expect(res.json()).toMatchObject({ success: true });
    const after = (await detail(gadget)).parts;
    expect(after.map((p) => [p.name, p.qty, p.position])).toEqual([
      ['螺丝', 4, 1],
      ['弹簧', 1, 2],
      ['手柄', 3, 3],
    ]);
    // Known rows keep their ids; the removed one is soft-deleted, not rewritten.
    expect(after[0]?.id).toBe(screw.id);
    expect(after[2]?.id).toBe(handle.id);
    const stored = (await partRows(gadget)).rows;
    expect(stored.find((r) => r.id === jaw.id)?.is_deleted).toBe(1);
    expect(stored.filter((r) => r.is_deleted === 0)).toHaveLength(3);

    const log = await lastChanges(gadget);
    expect(log.operation).toBe('update');
    expect(log.changes).toEqual(
      expect.arrayContaining([
        { field: 'parts[2]', label: '零件第 2 行', before: '零件名称: 钳口; 数量: 1; 顺序: 2', after: null },
        { field: 'parts[1].position', label: '零件第 1 行 顺序', before: '3', after: '1' },
        { field: 'parts[3].qty', label: '零件第 3 行 数量', before: '2', after: '3' },
        { field: 'parts[2]', label: '零件第 2 行', before: null, after: '零件名称: 弹簧; 数量: 1; 顺序: 2' },
      ]),
    );
  });

  it('leaves the rows alone when an update does not send them', async () => {
    const before = (await detail(gadget)).parts.map((p) => p.id);
    expect((await post(`${API}/submit`, { id: gadget, name: '大扳手' })).json()).toMatchObject({ success: true });
    const after = await detail(gadget);
    expect(after.name).toBe('大扳手');
    expect(after.parts.map((p) => p.id)).toEqual(before);
  });

  it('refuses a bad row with a message naming it, and stores nothing, parent included', async () => {
    const [{ n: count }] = (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from mes_test_gadget`))
      .rows as [{ n: number }];
    const bad = await post(`${API}/submit`, { name: '锤子', parts: [{ name: '锤头' }, { name: '' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('「零件」第 2 行: 请输入零件名称');
    const dup = await post(`${API}/submit`, { name: '锤子', parts: [{ name: '锤头' }, { name: '锤头' }] });
    expect(dup.json().msg).toBe('「零件」第 2 行: 零件名称重复');
    const range = await post(`${API}/submit`, { name: '锤子', parts: [{ name: '锤头', qty: 0 }] });
    expect(range.json().msg).toBe('「零件」第 1 行: 数量应在 1 到 999 之间');
    const tooMany = await post(`${API}/submit`, {
      name: '锤子',
      parts: Array.from({ length: 6 }, (_, i) => ({ name: `p${i}` })),
    });
    expect(tooMany.json().msg).toBe('「零件」最多 5 行');
    const notList = await post(`${API}/submit`, { name: '锤子', parts: 'x' });
    expect(notList.json().msg).toBe('「零件」应为列表');
    const [{ n: after }] = (await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from mes_test_gadget`))
      .rows as [{ n: number }];
    expect(after).toBe(count);

    // An update naming a row of another parent changes nothing, the parent's own fields included.
    const other = (await post(`${API}/submit`, { name: '钳子', parts: [{ name: '钳头' }] })).json().data as string;
    const foreignPart = (await detail(other)).parts[0]?.id;
    const before = await detail(gadget);
    const stolen = await post(`${API}/submit`, {
      id: gadget,
      name: '改名',
      parts: [{ id: foreignPart, name: '钳头' }],
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().msg).toBe('「零件」第 1 行: 数据不存在或无权访问');
    expect(await detail(gadget)).toEqual(before);
    expect((await detail(other)).parts.map((p) => p.name)).toEqual(['钳头']);
  });

  it('never reads or touches another tenant’s rows under the same parent id', async () => {
    const foreign = nextId();
    await t.ctx.db.execute(
      sql`insert into mes_test_gadget_part (id, tenant_id, gadget_id, name, qty, position) values (${foreign}, '100001', ${gadget}, '外租户零件', 1, 1)`,
    );
    expect((await detail(gadget)).parts.some((p) => p.id === foreign)).toBe(false);
    expect((await post(`${API}/submit`, { id: gadget, parts: [] })).json()).toMatchObject({ success: true });
    expect((await detail(gadget)).parts).toEqual([]);
    const rows = (await partRows(gadget)).rows;
    expect(rows.find((r) => r.id === foreign)).toMatchObject({ is_deleted: 0, tenant_id: '100001' });
  });

  it('removes the rows with the parent, in the same transaction', async () => {
    const id = (await post(`${API}/submit`, { name: '螺丝刀', parts: [{ name: '刀头' }, { name: '握把' }] })).json()
      .data as string;
    expect((await post(`${API}/remove?ids=${id}`, {})).json()).toMatchObject({ success: true });
    const rows = (await partRows(id)).rows;
    expect(rows.map((r) => r.is_deleted)).toEqual([1, 1]);
    expect((await get(`${API}/detail?id=${id}`)).statusCode).toBe(404);
  });
});

describe('line stops through the line form and dept/setLines', () => {
  const DEPT = '/api/blade-system/dept';
  const LINE = '/api/blade-business/line';
  let base: string;
  let nodes: [string, string, string];

  beforeAll(async () => {
    const addDept = async (fields: Record<string, unknown>) =>
      (await post(`${DEPT}/submit`, { fullName: String(fields.deptName), ...fields })).json().data as string;
    base = await addDept({ deptName: '西区消毒中心', parentId: DEPT_IDS.company, deptCategory: 4 });
    nodes = [
      await addDept({ deptName: '西区一诊所', parentId: base, deptCategory: 5, sort: 1 }),
      await addDept({ deptName: '西区二诊所', parentId: base, deptCategory: 5, sort: 2 }),
      await addDept({ deptName: '西区三诊所', parentId: base, deptCategory: 5, sort: 3 }),
    ];
  });

  it('saves the stops of a line and answers them in listByLine, listByBase and detail', async () => {
    const [a, b, c] = nodes;
    const res = await post(`${LINE}/submit`, {
      name: '西区一号线',
      base,
      stops: [
        { deptId: c, direction: 1 },
        { deptId: a, direction: 2 },
        { deptId: a, direction: 1 },
      ],
    });
    expect(res.json()).toMatchObject({ success: true });
    const lineId = res.json().data as string;
    const byLine = (await get(`${DEPT}/listByLine?lineId=${lineId}`)).json().data as {
      id: string;
      direction: number;
      sort: number;
      directionName: string;
    }[];
    expect(byLine.map((r) => [r.id, r.direction, r.sort, r.directionName])).toEqual([
      [c, 1, 1, '回收'],
      [a, 1, 2, '回收'],
      [a, 2, 1, '发放'],
    ]);
    const byBase = (await get(`${DEPT}/listByBase?baseId=${base}`)).json().data as { id: string }[];
    expect(byBase.map((r) => r.id)).toEqual(nodes);

    // setLines replaces one direction; the line's detail shows the result, named.
    type Stop = { id: string; deptId: string; direction: number };
    const stopsBefore = (await get(`${LINE}/detail?id=${lineId}`)).json().data.stops as Stop[];
    const keptRow = stopsBefore.find((s) => s.deptId === c && s.direction === 1)?.id;
    expect((await post(`${DEPT}/setLines`, { lineId, direction: 1, ids: `${b},${c}` })).json()).toMatchObject({
      success: true,
    });
    const line = (await get(`${LINE}/detail?id=${lineId}`)).json().data as {
      baseName: string;
      stops: { deptId: string; deptIdName: string; direction: number; directionName: string; sort: number }[];
    };
    expect(line.baseName).toBe('西区消毒中心');
    expect(line.stops.map((s) => [s.deptId, s.direction, s.sort])).toEqual([
      [b, 1, 1],
      [c, 1, 2],
      [a, 2, 1],
    ]);
    expect(line.stops[0]).toMatchObject({ deptIdName: '西区二诊所', directionName: '回收' });
    // A node that stays on its direction keeps its row: only its position changed.
    expect((line.stops as unknown as Stop[]).find((s) => s.deptId === c && s.direction === 1)?.id).toBe(keptRow);
    const [logged] = await t.ctx.db
      .select({ changes: operationLog.changes })
      .from(operationLog)
      .where(and(eq(operationLog.resourceCode, 'line'), eq(operationLog.ids, lineId)))
      .orderBy(sql`${operationLog.createTime} desc, ${operationLog.id} desc`)
      .limit(1);
    const changes = JSON.parse(String(logged?.changes)) as FieldChange[];
    expect(changes).toEqual(
      expect.arrayContaining([
        { field: 'stops[2].sort', label: '站点第 2 行 顺序', before: '1', after: '2' },
        { field: 'stops[1]', label: '站点第 1 行', before: null, after: `节点: ${b}; 方向: 1; 顺序: 1` },
        { field: 'stops[2]', label: '站点第 2 行', before: `节点: ${a}; 方向: 1; 顺序: 2`, after: null },
      ]),
    );

    // Removing the line removes its stops.
    expect((await post(`${LINE}/remove?ids=${lineId}`, {})).json()).toMatchObject({ success: true });
    expect(await t.ctx.db.select().from(deptLine).where(eq(deptLine.lineId, lineId))).toEqual([]);
  });

  it('refuses a stop twice in one direction and a node that is not there, storing nothing', async () => {
    const [a] = nodes;
    const dup = await post(`${LINE}/submit`, {
      name: '西区二号线',
      base,
      stops: [
        { deptId: a, direction: 1 },
        { deptId: a, direction: 1 },
      ],
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().msg).toBe('「站点」第 2 行: 节点重复,同一节点在一条线路的同一方向上只能出现一次');
    const missing = await post(`${LINE}/submit`, {
      name: '西区二号线',
      base,
      stops: [
        { deptId: a, direction: 1 },
        { deptId: nextId(), direction: 2 },
      ],
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('「站点」第 2 行: 所选节点不存在');
    const page = (await get(`${LINE}/page?name=西区二号线`)).json().data;
    expect(page.total).toBe(0);
  });

  it('takes only a base as the base and only clinic nodes as stops, as setLines does; lists every line', async () => {
    const [a] = nodes;
    const notBase = await post(`${LINE}/submit`, { name: '西区三号线', base: a, stops: [] });
    expect(notBase.statusCode).toBe(400);
    expect(notBase.json().msg).toBe('消毒基地只能选择机构类型为消毒基地(4)的机构');
    const notNode = await post(`${LINE}/submit`, { name: '西区三号线', base, stops: [{ deptId: base, direction: 1 }] });
    expect(notNode.json().msg).toBe('只有诊所节点(机构类型 5)可以加入线路');
    const added = await post(`${LINE}/submit`, { name: '西区三号线', base, stops: [{ deptId: a, direction: 2 }] });
    const lineId = added.json().data as string;
    const all = (await get(`${LINE}/all`)).json().data as { id: string; name: string; baseName: string }[];
    expect(all.filter((l) => l.name === '西区三号线')).toEqual([
      expect.objectContaining({ id: lineId, baseName: '西区消毒中心' }),
    ]);
    expect((await post(`${LINE}/remove?ids=${lineId}`, {})).json()).toMatchObject({ success: true });
  });

  it('keeps serving a line id that has no line row (assigned before lines had rows)', async () => {
    const lineId = '1900000000000000077';
    const [a, b] = nodes;
    expect((await post(`${DEPT}/setLines`, { lineId, direction: 2, ids: `${b},${a}` })).json()).toMatchObject({
      success: true,
    });
    const rows = (await get(`${DEPT}/listByLine?lineId=${lineId}`)).json().data as { id: string }[];
    expect(rows.map((r) => r.id)).toEqual([b, a]);
    expect((await get(`${LINE}/detail?id=${lineId}`)).statusCode).toBe(404);
  });
});
