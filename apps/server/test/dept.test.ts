import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../src/platform/db/ids';
import { dept, deptLine } from '../src/platform/db/schema';
import { DEPT_IDS, ROLE_IDS } from '../src/seed/seed-data';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
});
afterAll(() => t.close());

const get = (url: string, token = admin) => t.as(token, { method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>, token = admin) =>
  t.as(token, { method: 'POST', url, payload });
const API = '/api/blade-system/dept';

async function addDept(fields: Record<string, unknown>): Promise<string> {
  const res = await post(`${API}/submit`, { fullName: String(fields.deptName), ...fields });
  expect(res.json()).toMatchObject({ success: true });
  return res.json().data as string;
}
const ancestorsOf = async (id: string) =>
  (await t.ctx.db.select({ a: dept.ancestors }).from(dept).where(eq(dept.id, id)))[0]?.a;

describe('dept structure', () => {
  let base: string;
  let nodes: string[];
  let otherTenantDept: string;

  beforeAll(async () => {
    base = await addDept({ deptName: '华东消毒中心', parentId: DEPT_IDS.company, deptCategory: 4, sort: 1 });
    nodes = [];
    for (const [i, name] of ['仁爱口腔', '微笑齿科', '康华口腔'].entries())
      nodes.push(await addDept({ deptName: name, parentId: base, deptCategory: 5, sort: i + 1 }));
    otherTenantDept = nextId();
    await t.ctx.db.insert(dept).values({
      id: otherTenantDept,
      tenantId: '222222',
      parentId: '0',
      ancestors: '0',
      deptName: '别家诊所',
      fullName: '别家诊所',
      deptCategory: 5,
    });
  });

  it('sets ancestors from the parent on add', async () => {
    expect(await ancestorsOf(base)).toBe(`0,${DEPT_IDS.company}`);
    expect(await ancestorsOf(nodes[0] as string)).toBe(`0,${DEPT_IDS.company},${base}`);
    const root = await addDept({ deptName: '独立公司' });
    expect(await ancestorsOf(root)).toBe('0');
  });

  it('rewrites the subtree when a dept moves', async () => {
    const res = await post(`${API}/submit`, { id: base, parentId: DEPT_IDS.east });
    expect(res.json()).toMatchObject({ success: true });
    expect(await ancestorsOf(base)).toBe(`0,${DEPT_IDS.company},${DEPT_IDS.east}`);
    for (const n of nodes) expect(await ancestorsOf(n)).toBe(`0,${DEPT_IDS.company},${DEPT_IDS.east},${base}`);
    // Unrelated depts keep theirs.
    expect(await ancestorsOf(DEPT_IDS.south)).toBe(`0,${DEPT_IDS.company}`);
  });

  it('refuses a cycle, itself as parent, and a parent of another tenant', async () => {
    const cycle = await post(`${API}/submit`, { id: DEPT_IDS.east, parentId: nodes[0] });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().msg).toBe('上级机构不能是自身或其下级机构');
    const self = await post(`${API}/submit`, { id: base, parentId: base });
    expect(self.json().msg).toBe('上级机构不能是自身或其下级机构');
    const foreign = await post(`${API}/submit`, { deptName: 'x', fullName: 'x', parentId: otherTenantDept });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().msg).toBe('上级机构不存在');
    const badCategory = await post(`${API}/submit`, { deptName: 'x', fullName: 'x', deptCategory: 9 });
    expect(badCategory.json().msg).toBe('机构类型不正确');
    expect(await ancestorsOf(DEPT_IDS.east)).toBe(`0,${DEPT_IDS.company}`);
  });

  it('answers page, lazy-list and lazy-tree', async () => {
    const page = (await get(`${API}/page?current=1&size=2`)).json().data;
    expect(page).toMatchObject({ size: 2, current: 1 });
    expect(page.total).toBeGreaterThanOrEqual(7);

    const lazy = (await get(`${API}/lazy-list?parentId=${DEPT_IDS.company}`)).json().data;
    expect(lazy.map((d: { id: string }) => d.id).sort()).toEqual([DEPT_IDS.east, DEPT_IDS.south].sort());
    const east = lazy.find((d: { id: string }) => d.id === DEPT_IDS.east);
    expect(east).toMatchObject({ hasChildren: true, parentName: '机械集团', deptCategoryName: '公司' });
    expect(lazy.find((d: { id: string }) => d.id === DEPT_IDS.south).hasChildren).toBe(false);
    const roots = (await get(`${API}/lazy-list`)).json().data;
    expect(roots.every((d: { parentId: string }) => d.parentId === '0')).toBe(true);
    const search = (await get(`${API}/lazy-list?deptName=微笑`)).json().data;
    expect(search.map((d: { id: string }) => d.id)).toEqual([nodes[1]]);

    const tree = (await get(`${API}/lazy-tree?parentId=${base}&deptCategory=5`)).json().data;
    expect(tree.map((n: { title: string }) => n.title)).toEqual(['仁爱口腔', '微笑齿科', '康华口腔']);
    expect(tree[0]).toMatchObject({ id: nodes[0], key: nodes[0], value: nodes[0], parentId: base, hasChildren: false });
    expect((await get(`${API}/lazy-tree?parentId=abc`)).statusCode).toBe(400);
  });

  it('builds tree2 with the ancestors needed to reach one category', async () => {
    const forest = (await get(`${API}/tree2?deptCategory=5`)).json().data;
    expect(forest).toHaveLength(1);
    const company = forest[0];
    expect(company).toMatchObject({ id: DEPT_IDS.company, disabled: true });
    expect(company.children.map((c: { id: string }) => c.id)).toEqual([DEPT_IDS.east]);
    const baseNode = company.children[0].children[0];
    expect(baseNode).toMatchObject({ id: base, disabled: true });
    expect(baseNode.children.map((c: { id: string; disabled: boolean }) => [c.id, c.disabled])).toEqual(
      nodes.map((n) => [n, false]),
    );
    expect((await get(`${API}/tree2`)).statusCode).toBe(400);
  });

  it('lists bases, nodes, the node tree, by category and by base', async () => {
    const bases = (await get(`${API}/getBases`)).json().data;
    expect(bases.map((b: { id: string }) => b.id)).toEqual([base]);
    const allNodes = (await get(`${API}/getNodes`)).json().data;
    expect(allNodes.map((b: { id: string }) => b.id).sort()).toEqual([...nodes].sort());
    expect(allNodes.every((n: { tenantId: string }) => n.tenantId === '000000')).toBe(true);
    const nodeTree = (await get(`${API}/nodeTree`)).json().data;
    expect(nodeTree).toHaveLength(1);
    expect(nodeTree[0]).toMatchObject({ id: base, title: '华东消毒中心', hasChildren: true });
    expect(nodeTree[0].children.map((c: { id: string }) => c.id)).toEqual(nodes);
    const byCategory = (await get(`${API}/listByCategory?category=4`)).json().data;
    expect(byCategory.map((b: { id: string }) => b.id)).toEqual([base]);
    expect((await get(`${API}/listByCategory?category=7`)).statusCode).toBe(400);
    const byBase = (await get(`${API}/listByBase?baseId=${base}`)).json().data;
    expect(byBase.map((b: { id: string }) => b.id)).toEqual(nodes);
    expect((await get(`${API}/listByBase?baseId=${nodes[0]}`)).json().msg).toBe('消毒基地不存在或无权访问');
  });

  describe('line assignment', () => {
    const lineId = '1900000000000000001';
    const setLines = (payload: Record<string, unknown>) => post(`${API}/setLines`, { lineId, ...payload });
    const listByLine = async (query = '') =>
      (await get(`${API}/listByLine?lineId=${lineId}${query}`)).json().data as {
        id: string;
        direction: number;
        sort: number;
        directionName: string;
      }[];

    it('stores the nodes of a direction in the given order', async () => {
      const [a, b, c] = nodes as [string, string, string];
      expect((await setLines({ direction: 1, ids: `${c},${a}` })).json()).toMatchObject({ success: true });
      expect((await setLines({ direction: 2, ids: [b, c] })).json()).toMatchObject({ success: true });
      const all = await listByLine();
      expect(all.map((r) => [r.id, r.direction, r.sort])).toEqual([
        [c, 1, 1],
        [a, 1, 2],
        [b, 2, 1],
        [c, 2, 2],
      ]);
      expect(all[0]?.directionName).toBe('回收');
      const delivery = await listByLine('&direction=2');
      expect(delivery.map((r) => r.id)).toEqual([b, c]);
    });

    it('replaces one direction and leaves the other', async () => {
      const [a, b, c] = nodes as [string, string, string];
      await setLines({ direction: 1, ids: `${b},${a},${c}` });
      expect((await listByLine('&direction=1')).map((r) => r.id)).toEqual([b, a, c]);
      expect((await listByLine('&direction=2')).map((r) => r.id)).toEqual([b, c]);
      await setLines({ direction: 1, ids: '' });
      expect(await listByLine('&direction=1')).toEqual([]);
    });

    it('refuses what is not a clinic node of the tenant, duplicates and bad directions', async () => {
      const [a] = nodes as [string];
      const notNode = await setLines({ direction: 1, ids: `${a},${base}` });
      expect(notNode.statusCode).toBe(400);
      expect(notNode.json().msg).toBe('只有诊所节点(机构类型 5)可以加入线路');
      const foreign = await setLines({ direction: 1, ids: otherTenantDept });
      expect(foreign.json().msg).toBe('节点不存在或无权访问');
      const dup = await setLines({ direction: 1, ids: `${a},${a}` });
      expect(dup.json().msg).toContain('节点重复');
      const direction = await setLines({ direction: 3, ids: a });
      expect(direction.json().msg).toBe('请求参数 direction 不正确: 应为 1(回收)或 2(发放)');
      const noLine = await post(`${API}/setLines`, { direction: 1, ids: a });
      expect(noLine.json().msg).toBe('缺少必要的请求参数: lineId');
      // Nothing was stored by the refused calls.
      expect(await listByLine('&direction=1')).toEqual([]);
    });

    it('needs the dept:lines scope', async () => {
      const reader = await signInWithScopes(t, {
        account: 'linereader',
        codes: ['dept:read'],
        roleId: ROLE_IDS.user,
        deptId: DEPT_IDS.south,
        password: 'Secret#123',
      });
      expect((await get(`${API}/getNodes`, reader)).statusCode).toBe(200);
      const res = await post(`${API}/setLines`, { lineId, direction: 1, ids: nodes[0] }, reader);
      expect(res.statusCode).toBe(403);
    });
  });

  it('refuses to remove a dept with users, and drops a removed node from its lines', async () => {
    const withUsers = await post(`${API}/remove?ids=${DEPT_IDS.south}`, {});
    expect(withUsers.statusCode).toBe(400);
    expect(withUsers.json().msg).toBe('该机构下存在用户,请先调整用户的所属部门');

    const [a, b] = nodes as [string, string];
    await post(`${API}/setLines`, { lineId: '1900000000000000002', direction: 2, ids: `${a},${b}` });
    const removed = await post(`${API}/remove?ids=${b}`, {});
    expect(removed.json()).toMatchObject({ success: true });
    const left = await t.ctx.db
      .select({ deptId: deptLine.deptId })
      .from(deptLine)
      .where(and(eq(deptLine.lineId, '1900000000000000002')));
    expect(left.map((r) => r.deptId)).toEqual([a]);
  });

  it('answers tree?tenantId= for the administrator only', async () => {
    const own = (await get(`${API}/tree?tenantId=000000`)).json().data;
    expect(own.some((n: { id: string }) => n.id === DEPT_IDS.company)).toBe(true);
    const other = (await get(`${API}/tree?tenantId=222222`)).json().data;
    expect(other).toEqual([
      expect.objectContaining({ id: otherTenantDept, title: '别家诊所', key: otherTenantDept, hasChildren: false }),
    ]);
    const reader = (await t.signIn('linereader', 'Secret#123')).access_token;
    expect((await get(`${API}/tree`, reader)).statusCode).toBe(200);
    expect((await get(`${API}/tree?tenantId=222222`, reader)).statusCode).toBe(403);
  });
});
