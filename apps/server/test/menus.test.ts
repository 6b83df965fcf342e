import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuNode } from '@mes/contracts';
import { hashPassword } from '../src/platform/auth/passwords';
import { menu, roleMenu, topMenu, topMenuSetting, user } from '../src/platform/db/schema';
import { ROLE_IDS } from '../src/seed/seed-data';
import { createTestApp, md5, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;
let alice: string;

const m = (id: string, parentId: string, code: string, sort: number, category = 1, path = '') => ({
  id,
  parentId,
  code,
  name: code,
  path: path || `/${code}`,
  sort,
  category,
});

beforeAll(async () => {
  t = await createTestApp();
  // This file checks tree building on its own small menu set, not on the seeded screens.
  await t.ctx.db.delete(roleMenu);
  await t.ctx.db.delete(menu);
  await t.ctx.db
    .insert(menu)
    .values([
      m('801', '0', 'system', 2),
      m('802', '801', 'user', 1, 1, '/system/user'),
      m('803', '802', 'user_add', 1, 2),
      m('804', '802', 'user_delete', 2, 2),
      m('805', '0', 'desk', 1),
      m('806', '805', 'notice', 1, 1, '/desk/notice'),
      m('807', '0', 'monitor', 3),
      m('808', '801', 'role', 2, 1, '/system/role'),
    ]);
  // The plain "user" role sees the user screen and may only add.
  await t.ctx.db
    .insert(roleMenu)
    .values(['801', '802', '803'].map((menuId) => ({ id: `9${menuId}`, menuId, roleId: ROLE_IDS.user })));
  await t.ctx.db.insert(user).values({
    id: '7001',
    account: 'alice',
    password: await hashPassword(md5('alice-pass')),
    roleId: ROLE_IDS.user,
    deptId: '1000000000000000302',
  });
  admin = (await t.signIn()).access_token;
  alice = (await t.signIn('alice', 'alice-pass')).access_token;
});
afterAll(() => t.close());

const routes = async (token: string, query = '') => {
  const res = await t.as(token, { method: 'GET', url: `/api/blade-system/menu/routes${query}` });
  return { status: res.statusCode, data: res.json().data as MenuNode[] };
};
const codes = (nodes: MenuNode[]): unknown[] => nodes.map((n) => (n.children ? [n.code, codes(n.children)] : n.code));

describe('menu routes', () => {
  it('gives the administrator every screen as a forest sorted by sort, without buttons', async () => {
    const { data } = await routes(admin);
    expect(codes(data)).toEqual([['desk', ['notice']], ['system', ['user', 'role']], 'monitor']);
  });

  it('omits children when empty and says hasChildren', async () => {
    const { data } = await routes(admin);
    const monitor = data.find((n) => n.code === 'monitor');
    expect(monitor).not.toHaveProperty('children');
    expect(monitor?.hasChildren).toBe(false);
    const system = data.find((n) => n.code === 'system');
    expect(system?.hasChildren).toBe(true);
    expect(system?.children?.[0]).toMatchObject({ id: '802', parentId: '801', path: '/system/user', category: 1 });
  });

  it('gives another role only the menus granted to it', async () => {
    const { data } = await routes(alice);
    expect(codes(data)).toEqual([['system', ['user']]]);
  });

  it('leaves out a group granted without any of its screens (it would open a dead page)', async () => {
    await t.ctx.db.insert(roleMenu).values({ id: '9805', menuId: '805', roleId: ROLE_IDS.user });
    expect(codes((await routes(alice)).data)).toEqual([['system', ['user']]]);
    // A root with no screens anywhere is a screen of its own, not a group: it stays.
    await t.ctx.db.insert(roleMenu).values({ id: '9807', menuId: '807', roleId: ROLE_IDS.user });
    expect(codes((await routes(alice)).data)).toEqual([['system', ['user']], 'monitor']);
  });

  it('narrows to a top menu of the caller’s tenant', async () => {
    await t.ctx.db.insert(topMenu).values([
      { id: '851', code: 'office', name: '办公' },
      { id: '852', tenantId: '222222', code: 'foreign', name: 'other tenant' },
    ]);
    await t.ctx.db.insert(topMenuSetting).values([
      { id: '861', topMenuId: '851', menuId: '805' },
      { id: '862', topMenuId: '851', menuId: '806' },
      { id: '863', topMenuId: '852', menuId: '801' },
    ]);
    expect(codes((await routes(admin, '?topMenuId=851')).data)).toEqual([['desk', ['notice']]]);
    expect((await routes(admin, '?topMenuId=852')).data).toEqual([]);
    expect(codes((await routes(admin, '?topMenuId=')).data)).toHaveLength(3);
    expect((await routes(admin, '?topMenuId=1%20or%201=1')).status).toBe(400);
  });
});

describe('menu buttons', () => {
  it('returns the granted buttons as leaves under their screens', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/blade-system/menu/buttons' });
    expect(codes(res.json().data)).toEqual([['system', [['user', ['user_add', 'user_delete']]]]]);
    const resAlice = await t.as(alice, { method: 'GET', url: '/api/blade-system/menu/buttons' });
    expect(codes(resAlice.json().data)).toEqual([['system', [['user', ['user_add']]]]]);
  });
});
