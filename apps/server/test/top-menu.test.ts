import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/auth/passwords';
import { role, tenant, topMenu, user } from '../src/platform/db/schema';
import { createTestApp, md5, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;
let foreigner: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.db.insert(tenant).values({ id: '9200', tenantId: '222222', tenantName: 'other' });
  await t.ctx.db.insert(role).values({ id: '9201', tenantId: '222222', roleName: '用户', roleAlias: 'user' });
  await t.ctx.db.insert(user).values({
    id: '7201',
    tenantId: '222222',
    account: 'bob',
    password: await hashPassword(md5('bob-pass')),
    roleId: '9201',
    deptId: '1000000000000000302',
  });
  await t.ctx.db.insert(topMenu).values([
    { id: '851', code: 'office', name: '办公', source: 'iconfont icon-office', path: '/office', sort: 3 },
    { id: '852', code: 'report', name: '报表', sort: 1 },
    { id: '853', code: 'gone', name: '已删除', sort: 2, isDeleted: 1 },
    { id: '854', code: 'plant', name: '车间', sort: 2 },
    { id: '855', tenantId: '222222', code: 'foreign', name: 'other tenant', sort: 0 },
  ]);
  admin = (await t.signIn()).access_token;
  foreigner = (await t.signIn('bob', 'bob-pass', '222222')).access_token;
});
afterAll(() => t.close());

const topMenus = (token: string) => t.as(token, { method: 'GET', url: '/api/blade-system/menu/top-menu' });

describe('top menus of the header', () => {
  it('lists the live top menus of the caller’s tenant, sorted by sort, with the header’s fields (path included)', async () => {
    const res = await topMenus(admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 200, success: true });
    expect(res.json().data).toEqual([
      { id: '852', code: 'report', name: '报表', source: '', path: '', sort: 1 },
      { id: '854', code: 'plant', name: '车间', source: '', path: '', sort: 2 },
      { id: '851', code: 'office', name: '办公', source: 'iconfont icon-office', path: '/office', sort: 3 },
    ]);
  });

  it('shows another tenant only its own top menus', async () => {
    const res = await topMenus(foreigner);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { id: '855', code: 'foreign', name: 'other tenant', source: '', path: '', sort: 0 },
    ]);
  });

  it('refuses a caller without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/blade-system/menu/top-menu' });
    expect(res.statusCode).toBe(401);
  });
});
