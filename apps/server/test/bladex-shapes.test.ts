import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menu, param } from '../src/platform/db/schema';
import { DEPT_IDS, POST_IDS, ROLE_IDS } from '../src/seed/seed-data';
import { createTestApp, md5, type TestApp } from './support/test-app';

/**
 * The reply shapes of the system screens, read the way the BladeX family's Vue console (Saber)
 * reads them (CONTRACT.md "Reply shapes of the BladeX family"): tree lists, the grant dialog,
 * the post picker, the user list, display names, and the platform's view of every tenant.
 */
let t: TestApp;
let platform: string;
let tenantAdmin: string;

const TENANT = { id: '100001', name: '租户甲' };

interface Node {
  id: string;
  parentId: string;
  tenantId?: string;
  children?: Node[];
  hasChildren: boolean;
  [key: string]: unknown;
}

async function call(token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  const res = await t.as(token, { method, url, payload });
  return { status: res.statusCode, body: res.json() as { success: boolean; data: unknown; msg: string } };
}

/** `data` of a successful call; anything else fails the test with the reply. */
async function data<T>(token: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: Record<string, unknown>) {
  const res = await call(token, method, url, payload);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data as T;
}

const flat = (nodes: readonly Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

/** What a tree table relies on: `children` only where there are children, `hasChildren` always. */
function expectTreeShape(nodes: readonly Node[]) {
  for (const node of flat(nodes)) {
    if (node.children !== undefined) {
      expect(node.children.length, `node ${node.id}`).toBeGreaterThan(0);
      expect(node.hasChildren).toBe(true);
    } else {
      expect(node.hasChildren, `node ${node.id}`).toBe(false);
    }
  }
}

beforeAll(async () => {
  t = await createTestApp();
  platform = (await t.signIn()).access_token;
  await data(platform, '/api/blade-system/tenant/submit', 'POST', {
    tenantId: TENANT.id,
    tenantName: TENANT.name,
    linkman: 'ops',
  });
  const [password] = await t.ctx.db
    .select({ value: param.paramValue })
    .from(param)
    .where(eq(param.paramKey, 'tenant.default.password'));
  tenantAdmin = (await t.signIn('admin', password?.value ?? '', TENANT.id)).access_token;
  // A business dictionary, so that dict-biz/list has a tree to answer.
  const colour = await data<string>(platform, '/api/blade-system/dict-biz/submit', 'POST', {
    code: 'colour',
    dictValue: '颜色',
    dictKey: '-1',
    parentId: '0',
    sort: 1,
    isSealed: 0,
  });
  for (const [dictKey, dictValue] of [
    ['1', '红'],
    ['2', '绿'],
  ])
    await data(platform, '/api/blade-system/dict-biz/submit', 'POST', {
      code: 'colour',
      dictValue,
      dictKey,
      parentId: colour,
      sort: Number(dictKey),
      isSealed: 0,
    });
}, 60_000);
afterAll(() => t?.close());

describe('tree lists answer the whole tree, never a page', () => {
  it.each([
    ['dept', '/api/blade-system/dept/list'],
    ['role', '/api/blade-system/role/list'],
    ['menu', '/api/blade-system/menu/list'],
    ['dict', '/api/blade-system/dict/list'],
    ['dict-biz', '/api/blade-system/dict-biz/list'],
  ])('%s/list is the same array tree with and without current/size', async (_name, url) => {
    const bare = await data<Node[]>(platform, url);
    const paged = await data<Node[]>(platform, `${url}?current=1&size=10`);
    expect(Array.isArray(paged)).toBe(true);
    expect(paged).toEqual(bare);
    expect(flat(paged).some((n) => n.hasChildren)).toBe(true);
    expectTreeShape(paged);
    // Our own screens page through `page` instead.
    const page = await data<{ records: Node[]; total: number; size: number }>(
      platform,
      url.replace(/list$/, 'page?current=1&size=2'),
    );
    expect(page.records).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
  });

  it('keeps a filter and gives the matches as a tree (menu, as Saber searches it)', async () => {
    const nodes = await data<Node[]>(platform, '/api/blade-system/menu/list?current=1&size=10&code=post');
    const codes = flat(nodes).map((n) => n.code as string);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((c) => c.includes('post'))).toBe(true);
    expectTreeShape(nodes);
  });
});

describe('filters the family’s screens send', () => {
  it('accepts remark on the dictionaries', async () => {
    const none = await data<Node[]>(
      platform,
      '/api/blade-system/dict/list?current=1&size=10&code=&remark=nothing-like-it',
    );
    expect(none).toEqual([]);
    const page = await data<{ total: number }>(platform, '/api/blade-system/dict/parent-list?remark=&code=sex');
    expect(page.total).toBe(1);
  });

  it('accepts tenantId on dept and role lists; a tenant’s naming another tenant is ignored', async () => {
    const own = await data<Node[]>(tenantAdmin, '/api/blade-system/role/list');
    const named = await data<Node[]>(tenantAdmin, '/api/blade-system/role/list?current=1&size=10&tenantId=000000');
    expect(named).toEqual(own);
    expect(flat(named).every((n) => n.tenantId === TENANT.id)).toBe(true);
    const depts = await data<Node[]>(tenantAdmin, '/api/blade-system/dept/list?tenantId=000000&deptName=');
    expect(flat(depts).map((n) => n.tenantId)).toEqual([TENANT.id]);
    const post = await call(tenantAdmin, 'GET', '/api/blade-system/post/list?tenantId=000000');
    expect(post.status).toBe(200);
  });

  it('refuses a malformed tenantId with a 400 that names it', async () => {
    const res = await call(platform, 'GET', '/api/blade-system/role/list?tenantId=%27%20or%201%3D1');
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('tenantId');
  });
});

describe('the platform reads every tenant’s users, roles and departments; writes stay scoped', () => {
  it('lists every tenant’s roles and depts with tenantName, and narrows them by tenantId', async () => {
    for (const url of ['/api/blade-system/role/list', '/api/blade-system/dept/list']) {
      const all = flat(await data<Node[]>(platform, url));
      expect(new Set(all.map((n) => n.tenantId))).toEqual(new Set(['000000', TENANT.id]));
      expect(all.find((n) => n.tenantId === TENANT.id)?.tenantName).toBe(TENANT.name);
      const one = flat(await data<Node[]>(platform, `${url}?tenantId=${TENANT.id}`));
      expect(one.length).toBeGreaterThan(0);
      expect(one.every((n) => n.tenantId === TENANT.id)).toBe(true);
      // The tenant's administrator still sees only their own.
      const theirs = flat(await data<Node[]>(tenantAdmin, url));
      expect(theirs.every((n) => n.tenantId === TENANT.id)).toBe(true);
    }
  });

  it('pages every tenant’s users, with a total that follows another tenant’s writes', async () => {
    type Page = { total: number; records: Node[] };
    const before = await data<Page>(platform, '/api/blade-user/page?current=1&size=100');
    expect(new Set(before.records.map((r) => r.tenantId))).toEqual(new Set(['000000', TENANT.id]));
    const theirAdmin = before.records.find((r) => r.tenantId === TENANT.id);
    expect(theirAdmin).toMatchObject({ account: 'admin', tenantName: TENANT.name });
    const narrowed = await data<Page>(platform, `/api/blade-user/page?tenantId=${TENANT.id}`);
    expect(narrowed.records.map((r) => r.id)).toEqual([theirAdmin?.id]);

    const depts = flat(await data<Node[]>(tenantAdmin, '/api/blade-system/dept/list'));
    const roles = flat(await data<Node[]>(tenantAdmin, '/api/blade-system/role/list'));
    await data(tenantAdmin, '/api/blade-user/submit', 'POST', {
      account: 'worker',
      password: md5('worker#Pass1'),
      name: 'worker',
      realName: '工人',
      roleId: roles[0]?.id,
      deptId: depts[0]?.id,
      sex: 2,
    });
    const after = await data<Page>(platform, '/api/blade-user/page?current=1&size=100');
    expect(after.total).toBe(before.total + 1);
    expect(after.records.find((r) => r.account === 'worker')).toMatchObject({ sexName: '女', tenantId: TENANT.id });

    const theirs = await data<Page>(tenantAdmin, '/api/blade-user/page?tenantId=000000');
    expect(theirs.records.map((r) => r.account).sort()).toEqual(['admin', 'worker']);
  });

  it('reads another tenant’s detail but changes nothing there', async () => {
    const role = flat(await data<Node[]>(platform, `/api/blade-system/role/list?tenantId=${TENANT.id}`))[0] as Node;
    const detail = await data<Node>(platform, `/api/blade-system/role/detail?id=${role.id}`);
    expect(detail).toMatchObject({ id: role.id, tenantId: TENANT.id, tenantName: TENANT.name });
    const edit = await call(platform, 'POST', '/api/blade-system/role/submit', {
      id: role.id,
      roleName: 'hijacked',
      roleAlias: 'hijacked',
    });
    expect(edit.status).toBe(404);
    const remove = await call(platform, 'POST', `/api/blade-system/role/remove?ids=${role.id}`);
    expect(remove.status).toBe(404);
    expect((await data<Node>(platform, `/api/blade-system/role/detail?id=${role.id}`)).roleName).toBe(role.roleName);
    // A tenant never reads the platform's rows.
    const foreign = await call(tenantAdmin, 'GET', `/api/blade-system/role/detail?id=${ROLE_IDS.user}`);
    expect(foreign.status).toBe(404);
  });
});

describe('the role grant dialog', () => {
  it('grant-tree answers {menu, dataScope, apiScope}; role-tree-keys the matching ids', async () => {
    const menuId = async (code: string) =>
      (await t.ctx.db.select({ id: menu.id }).from(menu).where(eq(menu.code, code)))[0]?.id as string;
    const userMenu = await menuId('user');
    const scopeId = await data<string>(platform, '/api/blade-system/data-scope/submit', 'POST', {
      menuId: userMenu,
      resourceCode: 'user',
      scopeName: '本人可见',
      scopeType: 2,
    });
    const trees = await data<Record<string, Node[]>>(platform, '/api/blade-system/menu/grant-tree');
    expect(Object.keys(trees).sort()).toEqual(['apiScope', 'dataScope', 'menu']);
    for (const tree of Object.values(trees)) expectTreeShape(tree);
    const leaf = (tree: Node[]) => flat(tree).find((n) => !n.hasChildren) as Node;
    const apiScopeId = leaf(trees.apiScope as Node[]).id;
    expect(flat(trees.dataScope as Node[]).map((n) => n.id)).toContain(scopeId);
    expect(flat(trees.menu as Node[]).map((n) => n.id)).toContain(userMenu);

    await data(platform, '/api/blade-system/role/grant', 'POST', {
      roleIds: ROLE_IDS.hr,
      menuIds: userMenu,
      dataScopeIds: scopeId,
      apiScopeIds: apiScopeId,
    });
    const keys = await data<Record<string, string[]>>(
      platform,
      `/api/blade-system/menu/role-tree-keys?roleIds=${ROLE_IDS.hr}`,
    );
    expect(keys).toEqual({ menu: [userMenu], dataScope: [scopeId], apiScope: [apiScopeId] });
  });
});

describe('post/select and blade-user/list', () => {
  type Post = { id: string; tenantId: string; postName: string; category: number; categoryName: string };

  it('post/select lists the caller’s posts, or the tenant the platform names', async () => {
    const own = await data<Post[]>(platform, '/api/blade-system/post/select');
    expect(own.map((p) => p.id)).toContain(POST_IDS.ceo);
    expect(own.every((p) => p.tenantId === '000000')).toBe(true);
    expect(own.find((p) => p.id === POST_IDS.ceo)).toMatchObject({ postName: '首席执行官', categoryName: '高层' });
    const named = await data<Post[]>(platform, `/api/blade-system/post/select?tenantId=${TENANT.id}`);
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((p) => p.tenantId === TENANT.id)).toBe(true);
    // A tenant naming another tenant gets its own posts.
    const theirs = await data<Post[]>(tenantAdmin, '/api/blade-system/post/select?tenantId=000000');
    expect(theirs.map((p) => p.id).sort()).toEqual(named.map((p) => p.id).sort());
    const bad = await call(platform, 'GET', '/api/blade-system/post/select?tenantId=x%00y');
    expect(bad.status).toBe(400);
  });

  it('blade-user/list answers what blade-user/page does', async () => {
    const query = 'current=1&size=5&account=admin&realName=';
    const list = await data<unknown>(platform, `/api/blade-user/list?${query}`);
    expect(list).toEqual(await data<unknown>(platform, `/api/blade-user/page?${query}`));
    expect(list).toMatchObject({ current: 1, size: 5 });
  });
});

describe('display names the family adds', () => {
  it('post rows carry categoryName in list, page and detail', async () => {
    const page = await data<{ records: { id: string; category: number; categoryName: string }[] }>(
      platform,
      '/api/blade-system/post/list?current=1&size=100',
    );
    const labels: Record<number, string> = { 1: '高层', 2: '中层', 3: '基层', 4: '其他' };
    for (const row of page.records) expect(row.categoryName).toBe(labels[row.category]);
    const detail = await data<{ categoryName: string }>(platform, `/api/blade-system/post/detail?id=${POST_IDS.ceo}`);
    expect(detail.categoryName).toBe('高层');
  });

  it('data and API scopes carry scopeTypeName', async () => {
    const data_ = await data<{ records: { scopeType: number; scopeTypeName: string }[] }>(
      platform,
      '/api/blade-system/data-scope/list?current=1&size=10',
    );
    const dataLabels: Record<number, string> = { 1: '全部可见', 2: '本人可见', 3: '所在机构可见' };
    expect(data_.records.length).toBeGreaterThan(0);
    for (const row of data_.records) expect(row.scopeTypeName).toBe(dataLabels[row.scopeType]);
    const api = await data<{ records: { scopeType: number; scopeTypeName: string }[] }>(
      platform,
      '/api/blade-system/api-scope/list?current=1&size=5',
    );
    const apiLabels: Record<number, string> = { 1: '系统接口', 2: '业务接口' };
    expect(api.records.length).toBeGreaterThan(0);
    for (const row of api.records) expect(row.scopeTypeName).toBe(apiLabels[row.scopeType]);
  });

  it('users carry sexName and userTypeName; menus their category, action and window names', async () => {
    const worker = (await data<{ records: Record<string, unknown>[] }>(platform, '/api/blade-user/page?account=worker'))
      .records[0];
    expect(worker).toMatchObject({ sex: 2, sexName: '女', userType: 1, userTypeName: expect.any(String) });
    expect(worker?.userTypeName).not.toBe('');
    const menus = flat(await data<Node[]>(platform, '/api/blade-system/menu/list'));
    const screen = menus.find((n) => n.code === 'post') as Node;
    const button = menus.find((n) => n.code === 'post_add') as Node;
    expect(screen).toMatchObject({ categoryName: '菜单', parentName: '系统管理' });
    expect(button).toMatchObject({ categoryName: '按钮', parentName: '岗位管理' });
    expect(screen.isOpenName).toBe(screen.isOpen === 2 ? '是' : '否');
  });

  it('tree rows carry parentName (顶级 at the root), depts their category name', async () => {
    const depts = flat(await data<Node[]>(platform, '/api/blade-system/dept/list?tenantId=000000'));
    expect(depts.find((d) => d.id === DEPT_IDS.company)).toMatchObject({
      parentName: '顶级',
      deptCategoryName: '公司',
    });
    expect(depts.find((d) => d.id === DEPT_IDS.east)).toMatchObject({ parentName: '机械集团' });
    const roles = flat(await data<Node[]>(platform, '/api/blade-system/role/list?tenantId=000000'));
    for (const role of roles) {
      const parent = roles.find((r) => r.id === role.parentId);
      expect(role.parentName).toBe(parent ? parent.roleName : '顶级');
    }
    const entries = await data<{ records: Node[] }>(platform, '/api/blade-system/dict-biz/page?code=colour');
    const parentOf = (value: string) => entries.records.find((r) => r.dictValue === value)?.parentName;
    expect([parentOf('颜色'), parentOf('红')]).toEqual(['顶级', '颜色']);
  });

  it('a renamed parent shows on the next read (names are cached, not stale)', async () => {
    await data(platform, '/api/blade-system/dept/submit', 'POST', {
      id: DEPT_IDS.company,
      deptName: '机械总公司',
      fullName: '机械总公司',
      deptCategory: 1,
    });
    const east = await data<Node>(platform, `/api/blade-system/dept/detail?id=${DEPT_IDS.east}`);
    expect(east.parentName).toBe('机械总公司');
  });
});
