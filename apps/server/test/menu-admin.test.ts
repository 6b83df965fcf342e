import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/auth/passwords';
import { role, roleMenu, roleScope, tenant, topMenu, topMenuSetting, user } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { ROLE_IDS, SEED_API_SCOPES, SEED_MENUS } from '../src/seed/seed-data';
import { createTestApp, md5, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;
let foreigner: string;

const menuId = (code: string) => SEED_MENUS.find((m) => m.code === code)?.id as string;
const scopeId = (code: string) => SEED_API_SCOPES.find((s) => s.resourceCode === code)?.id as string;
const FOREIGN_ROLE = '9201';

interface Node {
  id: string;
  parentId: string;
  code?: string;
  title?: string;
  category?: number;
  hasChildren: boolean;
  children?: Node[];
}
const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.db.insert(tenant).values({ id: '9200', tenantId: '222222', tenantName: 'other' });
  await t.ctx.db.insert(role).values({ id: FOREIGN_ROLE, tenantId: '222222', roleName: '管理员', roleAlias: 'admin' });
  await t.ctx.db.insert(user).values({
    id: '9211',
    tenantId: '222222',
    account: 'boss',
    name: 'boss',
    realName: 'boss',
    password: await hashPassword(md5('boss-pass')),
    roleId: FOREIGN_ROLE,
    deptId: '1',
  });
  // The other tenant's admin holds the post and top-menu screens and may set top menus.
  await t.ctx.db.insert(roleMenu).values(
    ['system', 'post', 'post_add', 'topmenu'].map((code, i) => ({
      id: `931${i}`,
      roleId: FOREIGN_ROLE,
      menuId: menuId(code),
    })),
  );
  await t.ctx.db.insert(roleScope).values(
    ['topmenu:read', 'topmenu:write', 'topmenu:grant', 'menu:read'].map((code, i) => ({
      id: `930${i}`,
      roleId: FOREIGN_ROLE,
      scopeCategory: ScopeCategory.API,
      scopeId: scopeId(code),
    })),
  );
  await t.ctx.db.insert(topMenu).values({ id: '855', tenantId: '222222', code: 'foreign', name: 'other tenant' });
  admin = (await t.signIn()).access_token;
  foreigner = (await t.signIn('boss', 'boss-pass', '222222')).access_token;
});
afterAll(() => t.close());

const get = async (url: string, token = admin) => {
  const res = await t.as(token, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const post = (url: string, payload: Record<string, unknown> = {}, token = admin) =>
  t.as(token, { method: 'POST', url, payload });

describe('menu lists and trees', () => {
  it('lazy-list gives the roots by default, then the children of a parent, with hasChildren', async () => {
    const roots = (await get('/api/blade-system/menu/lazy-list')) as Node[];
    expect(roots.map((n) => n.code)).toEqual([
      'work',
      'system',
      'authority',
      'resource',
      'flow',
      'device',
      'report',
      'business',
      'monitor',
      'tool',
    ]);
    expect(roots.every((n) => n.hasChildren && !n.children)).toBe(true);
    const screens = (await get(`/api/blade-system/menu/lazy-list?parentId=${menuId('system')}`)) as Node[];
    expect(screens[0]).toMatchObject({ code: 'user', parentId: menuId('system'), category: 1, hasChildren: true });
    const buttons = (await get(`/api/blade-system/menu/lazy-list?parentId=${menuId('user')}`)) as Node[];
    expect(buttons.map((n) => n.code)).toContain('user_add');
    expect(buttons.every((n) => n.category === 2 && !n.hasChildren)).toBe(true);
  });

  it('lazy-list searches every level when a filter comes without parentId', async () => {
    const found = (await get(`/api/blade-system/menu/lazy-list?code=user_add`)) as Node[];
    expect(found.map((n) => n.code)).toEqual(['user_add']);
    const bad = await t.as(admin, { method: 'GET', url: '/api/blade-system/menu/lazy-list?parentId=x' });
    expect(bad.statusCode).toBe(400);
  });

  it('lazy-menu-list gives menus only, and hasChildren counts menus only', async () => {
    const screens = (await get(`/api/blade-system/menu/lazy-menu-list?parentId=${menuId('system')}`)) as Node[];
    expect(screens.length).toBeGreaterThan(3);
    expect(screens.every((n) => n.category === 1 && !n.hasChildren)).toBe(true);
    expect(await get(`/api/blade-system/menu/lazy-menu-list?parentId=${menuId('user')}`)).toEqual([]);
  });

  it('menu-list and tree hold no buttons; list holds them', async () => {
    const menus = flat((await get('/api/blade-system/menu/menu-list')) as Node[]);
    expect(menus.length).toBeGreaterThan(10);
    expect(menus.every((n) => n.category === 1)).toBe(true);
    const tree = (await get('/api/blade-system/menu/tree')) as Node[];
    // The groups in side-menu order: 我的事务 first, then 系统管理.
    expect(tree[1]).toEqual(
      expect.objectContaining({
        id: menuId('system'),
        title: '系统管理',
        key: menuId('system'),
        value: menuId('system'),
      }),
    );
    const picked = flat(tree).map((n) => n.id);
    expect(picked).toContain(menuId('post'));
    expect(picked).not.toContain(menuId('post_add'));
    expect(flat((await get('/api/blade-system/menu/list')) as Node[]).some((n) => n.category === 2)).toBe(true);
  });

  it('grant-top-tree holds the menus the caller may grant, without buttons', async () => {
    const all = flat((await get('/api/blade-system/menu/grant-top-tree')) as Node[]).map((n) => n.id);
    expect(all).toContain(menuId('menu'));
    expect(all).not.toContain(menuId('user_add'));
    const theirs = flat((await get('/api/blade-system/menu/grant-top-tree', foreigner)) as Node[]).map((n) => n.id);
    expect(theirs.sort()).toEqual([menuId('system'), menuId('post'), menuId('topmenu')].sort());
  });

  it('lists the scopes of one menu through the menuId filter', async () => {
    const api = (await get(`/api/blade-system/api-scope/list?menuId=${menuId('post')}`)).records as {
      resourceCode: string;
    }[];
    expect(api.map((s) => s.resourceCode).sort()).toEqual(['post:read', 'post:write']);
    const data = await get(`/api/blade-system/data-scope/list?menuId=${menuId('post')}`);
    expect(data.total).toBe(0);
    const bad = await t.as(admin, { method: 'GET', url: '/api/blade-system/api-scope/list?menuId=abc' });
    expect(bad.statusCode).toBe(400);
    const unknownMenu = await post('/api/blade-system/api-scope/submit', {
      menuId: '123',
      resourceCode: 'x:read',
      scopeName: 'x',
      scopeType: 1,
    });
    expect(unknownMenu.json().msg).toBe('所属菜单不存在');
  });
});

describe('English menu names', () => {
  const seeded = new Map(SEED_MENUS.map((m) => [m.id, m.nameEn]));

  it('seeds an English name for every built-in menu and button, and routes and buttons carry it', async () => {
    expect([...seeded.values()].filter((name) => !name.trim())).toEqual([]);
    const screens = flat(await get('/api/blade-system/menu/routes')) as (Node & { nameEn?: string })[];
    const buttons = flat(await get('/api/blade-system/menu/buttons')) as (Node & { nameEn?: string })[];
    expect(screens.length).toBe(SEED_MENUS.filter((m) => m.category === 1).length);
    expect(buttons.filter((n) => n.category === 2).length).toBe(SEED_MENUS.filter((m) => m.category === 2).length);
    for (const node of [...screens, ...buttons]) expect(node.nameEn, node.code).toBe(seeded.get(node.id));
    expect(screens.find((n) => n.code === 'user')?.nameEn).toBe('Users');
    expect(screens.find((n) => n.code === 'system')?.nameEn).toBe('System');
  });

  it('saves an edited English name and returns it from detail, list and routes', async () => {
    const id = menuId('post');
    const detail = await get(`/api/blade-system/menu/detail?id=${id}`);
    expect(detail.nameEn).toBe('Posts');
    const saved = await post('/api/blade-system/menu/submit', { ...detail, nameEn: 'Job titles' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get(`/api/blade-system/menu/detail?id=${id}`)).nameEn).toBe('Job titles');
    const listed = await get(`/api/blade-system/menu/lazy-list?parentId=${menuId('system')}`);
    expect(listed.find((r: { id: string }) => r.id === id)?.nameEn).toBe('Job titles');
    const routes = flat(await get('/api/blade-system/menu/routes')) as (Node & { nameEn?: string })[];
    expect(routes.find((n) => n.id === id)?.nameEn).toBe('Job titles');
    const tooLong = await post('/api/blade-system/menu/submit', { ...detail, nameEn: 'x'.repeat(256) });
    expect(tooLong.statusCode).toBe(400);
    await post('/api/blade-system/menu/submit', { ...detail, nameEn: 'Posts' });
  });
});

describe('menu submit and remove', () => {
  let screen: string;
  let button: string;

  it('adds a menu and a button under it (category 2)', async () => {
    const res = await post('/api/blade-system/menu/submit', {
      parentId: menuId('system'),
      code: 'shift',
      name: '班次管理',
      path: '/system/shift',
      category: 1,
      sort: 99,
    });
    expect(res.statusCode, res.body).toBe(200);
    screen = res.json().data;
    const added = await post('/api/blade-system/menu/submit', {
      parentId: screen,
      code: 'shift_add',
      name: '新增',
      category: 2,
      action: 1,
    });
    expect(added.statusCode, added.body).toBe(200);
    button = added.json().data;
    const detail = await get(`/api/blade-system/menu/detail?id=${button}`);
    expect(detail).toMatchObject({ parentId: screen, category: 2, code: 'shift_add' });
  });

  it('refuses a button without a parent, anything under a button, and a menu turned button with children', async () => {
    const orphan = await post('/api/blade-system/menu/submit', { code: 'b1', name: 'b1', category: 2 });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().msg).toBe('按钮必须选择上级菜单');
    const underButton = await post('/api/blade-system/menu/submit', {
      parentId: button,
      code: 'b2',
      name: 'b2',
      category: 2,
    });
    expect(underButton.json().msg).toBe('按钮下不能再添加菜单或按钮');
    const missing = await post('/api/blade-system/menu/submit', {
      parentId: '123',
      code: 'b3',
      name: 'b3',
      category: 1,
    });
    expect(missing.json().msg).toBe('上级菜单不存在');
    const toButton = await post('/api/blade-system/menu/submit', { id: screen, category: 2 });
    expect(toButton.json().msg).toBe('存在下级的菜单不能改为按钮');
  });

  it('refuses cycles: a menu under itself or under one of its descendants', async () => {
    const self = await post('/api/blade-system/menu/submit', { id: menuId('system'), parentId: menuId('system') });
    expect(self.statusCode).toBe(400);
    expect(self.json().msg).toBe('上级菜单不能是自己或自己的下级');
    const below = await post('/api/blade-system/menu/submit', { id: menuId('system'), parentId: screen });
    expect(below.json().msg).toBe('上级菜单不能是自己或自己的下级');
    const moved = await post('/api/blade-system/menu/submit', { id: screen, parentId: menuId('authority') });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it('lets only the platform change menus', async () => {
    const res = await post('/api/blade-system/menu/submit', { id: screen, name: 'x' }, foreigner);
    expect(res.statusCode).toBe(403);
  });

  it('refuses to remove a menu with children, and drops the grants of a removed one', async () => {
    const grant = await post(
      `/api/blade-system/role/grant?roleIds=${ROLE_IDS.user}&menuIds=${screen},${button}&dataScopeIds=&apiScopeIds=`,
    );
    expect(grant.statusCode, grant.body).toBe(200);
    const parent = await post(`/api/blade-system/menu/remove?ids=${screen}`);
    expect(parent.statusCode).toBe(400);
    expect(parent.json().msg).toBe('请先删除子节点');
    const res = await post(`/api/blade-system/menu/remove?ids=${button}`);
    expect(res.statusCode, res.body).toBe(200);
    const left = await t.ctx.db.select().from(roleMenu).where(eq(roleMenu.roleId, ROLE_IDS.user));
    expect(left.map((r) => r.menuId)).toEqual([screen]);
    expect((await get(`/api/blade-system/menu/role-tree-keys?roleIds=${ROLE_IDS.user}`)).menu).toEqual([screen]);
  });
});

describe('top menu grant', () => {
  let office: string;

  it('replaces the menus of a top menu and reads them back with top-tree-keys', async () => {
    const created = await post('/api/blade-system/topmenu/submit', { code: 'office', name: '办公', sort: 1 });
    office = created.json().data;
    const first = await post(
      `/api/blade-system/topmenu/grant?topMenuIds=${office}&menuIds=${menuId('system')},${menuId('post')}`,
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(await get(`/api/blade-system/menu/top-tree-keys?topMenuIds=${office}`)).toEqual({
      menu: [menuId('system'), menuId('post')].sort(),
    });
    const second = await post('/api/blade-system/topmenu/grant', { topMenuIds: office, menuIds: menuId('role') });
    expect(second.statusCode, second.body).toBe(200);
    expect(await get(`/api/blade-system/menu/top-tree-keys?topMenuIds=${office}`)).toEqual({ menu: [menuId('role')] });
    const routes = (await get(`/api/blade-system/menu/routes?topMenuId=${office}`)) as Node[];
    expect(routes.map((n) => n.code)).toEqual(['role']);
  });

  it('refuses top menus of another tenant and unknown menus', async () => {
    expect((await post(`/api/blade-system/topmenu/grant?topMenuIds=855&menuIds=${menuId('post')}`)).statusCode).toBe(
      404,
    );
    const foreign = await t.as(foreigner, {
      method: 'GET',
      url: `/api/blade-system/menu/top-tree-keys?topMenuIds=${office}`,
    });
    expect(foreign.statusCode).toBe(404);
    const unknown = await post(`/api/blade-system/topmenu/grant?topMenuIds=${office}&menuIds=123`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe('菜单不存在或已删除');
    const missing = await post('/api/blade-system/topmenu/grant?menuIds=1');
    expect(missing.json().msg).toBe('缺少必要的请求参数: topMenuIds');
    const own = await post(`/api/blade-system/topmenu/grant?topMenuIds=855&menuIds=${menuId('post')}`, {}, foreigner);
    expect(own.statusCode, own.body).toBe(200);
  });

  it('drops the settings of a removed top menu', async () => {
    expect((await post(`/api/blade-system/topmenu/remove?ids=${office}`)).statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(topMenuSetting).where(eq(topMenuSetting.topMenuId, office));
    expect(rows).toEqual([]);
  });
});
