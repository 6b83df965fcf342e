import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readParam } from '../src/platform/db/params';
import { nextId } from '../src/platform/db/ids';
import { apiScope, datasource, role, roleMenu, roleScope, tenant } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { PLATFORM_TENANT } from '../src/seed/seed-data';
import { PLATFORM_ONLY_MENU_IDS, SEED_MENUS } from '../src/seed/seed-menus';
import { createTestApp, md5, type TestApp } from './support/test-app';

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
const API = '/api/blade-system/tenant';

describe('tenants', () => {
  let rowId: string;
  let tenantAdmin: string;
  let password: string;

  beforeAll(async () => {
    password = (await readParam(t.ctx.db, 'tenant.default.password')) as string;
    const res = await post(`${API}/submit`, {
      tenantId: '100001',
      tenantName: '华东口腔连锁',
      linkman: '张三',
      contactNumber: '13800000000',
      domain: 'https://clinic.example.com',
      backgroundUrl: 'https://cdn.example.com/bg.png',
      accountNumber: 5,
      licenseKey: 'forged',
    });
    expect(res.json()).toMatchObject({ success: true, msg: '新增成功' });
    rowId = res.json().data;
  });

  it('adds the tenant with the default quota, not the submitted one', async () => {
    const detail = (await get(`${API}/detail?id=${rowId}`)).json().data;
    expect(detail).toMatchObject({
      tenantId: '100001',
      tenantName: '华东口腔连锁',
      accountNumber: 100,
      licenseKey: '',
    });
  });

  it('creates an admin who signs in with tenant.default.password and sees only the tenant', async () => {
    const signedIn = await t.signIn('admin', password, '100001');
    expect(signedIn).toMatchObject({ tenant_id: '100001', role_name: 'admin', account: 'admin' });
    tenantAdmin = signedIn.access_token;

    const users = (await get('/api/blade-user/page?current=1&size=100', tenantAdmin)).json().data;
    expect(users.total).toBe(1);
    expect(users.records.map((u: { tenantId: string; account: string }) => [u.tenantId, u.account])).toEqual([
      ['100001', 'admin'],
    ]);
    expect(users.records[0]).not.toHaveProperty('password');

    const depts = (await get('/api/blade-system/dept/tree', tenantAdmin)).json().data;
    expect(depts).toEqual([expect.objectContaining({ title: '华东口腔连锁', parentId: '0' })]);
    const posts = (await get('/api/blade-system/post/list', tenantAdmin)).json().data;
    expect(posts.records.map((p: { postCode: string }) => p.postCode)).toEqual(['admin']);
  });

  it('grants the admin role every seeded menu but the platform’s, with their API scopes', async () => {
    // The tenant has the 人事 role of the shipped leave process too (flow-groups.test.ts).
    const [adminRole] = await t.ctx.db
      .select()
      .from(role)
      .where(and(eq(role.tenantId, '100001'), eq(role.roleAlias, 'admin')));
    expect(adminRole).toMatchObject({ roleAlias: 'admin', roleName: '管理员' });
    const menus = await t.ctx.db
      .select()
      .from(roleMenu)
      .where(eq(roleMenu.roleId, adminRole?.id as string));
    const granted = new Set(menus.map((m) => m.menuId));
    expect(granted.size).toBe(SEED_MENUS.filter((m) => !PLATFORM_ONLY_MENU_IDS.has(m.id)).length);
    expect([...PLATFORM_ONLY_MENU_IDS].some((id) => granted.has(id))).toBe(false);
    const scopes = await t.ctx.db
      .select({ code: apiScope.resourceCode })
      .from(roleScope)
      .innerJoin(apiScope, eq(apiScope.id, roleScope.scopeId))
      .where(eq(roleScope.roleId, adminRole?.id as string));
    const codes = scopes.map((s) => s.code);
    expect(codes).toEqual(expect.arrayContaining(['user:read', 'user:write', 'dept:lines', 'role:grant']));
    expect(codes).not.toContain('tenant:read');
    expect(codes).not.toContain('datasource:test');
  });

  it('refuses non-platform callers on tenant, client and datasource routes, even when granted', async () => {
    const [adminRole] = await t.ctx.db.select({ id: role.id }).from(role).where(eq(role.tenantId, '100001'));
    for (const url of [`${API}/list`, '/api/blade-system/client/list', '/api/blade-develop/datasource/list'])
      expect((await get(url, tenantAdmin)).statusCode).toBe(403);
    // With the scopes granted the owner rule still refuses.
    const all = await t.ctx.db.select({ id: apiScope.id, code: apiScope.resourceCode }).from(apiScope);
    await t.ctx.db.insert(roleScope).values(
      all
        .filter((s) => /^(tenant|client|datasource):/.test(s.code))
        .map((s) => ({
          id: nextId(),
          roleId: adminRole?.id as string,
          scopeCategory: ScopeCategory.API,
          scopeId: s.id,
        })),
    );
    await t.ctx.grants.changed();
    for (const url of [`${API}/list`, '/api/blade-system/client/list', '/api/blade-develop/datasource/list'])
      expect((await get(url, tenantAdmin)).statusCode).toBe(403);
    expect((await post(`${API}/setting`, { ids: rowId, accountNumber: 9 }, tenantAdmin)).statusCode).toBe(403);
    expect((await post(`${API}/submit`, { id: rowId, tenantName: 'x' }, tenantAdmin)).statusCode).toBe(403);
    expect((await post('/api/blade-develop/datasource/test', { url: 'postgres://x' }, tenantAdmin)).statusCode).toBe(
      403,
    );
  });

  it('answers the tenant picker with id, tenantId and tenantName only, to any signed-in caller', async () => {
    const picker = (token: string, query = '') => get(`${API}/select${query}`, token);
    const all = (await picker(admin)).json().data as Record<string, unknown>[];
    expect(all.map((r) => r.tenantId)).toEqual(['000000', '100001']);
    for (const row of all) expect(Object.keys(row).sort()).toEqual(['id', 'tenantId', 'tenantName']);
    // Naming a tenant narrows nothing here: the platform picks among every tenant.
    expect((await picker(admin, '?tenantId=100001')).json().data).toEqual(all);
    // The tenant's administrator holds no tenant:read (a platform screen) and sees its own tenant only.
    const own = await picker(tenantAdmin, '?tenantId=000000');
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toEqual([{ id: rowId, tenantId: '100001', tenantName: '华东口腔连锁' }]);
    expect((await picker(tenantAdmin, '?tenantId=x%27--')).statusCode).toBe(400);
  });

  it('tells the sign-in page which tenant a domain belongs to, and nothing more', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${API}/info?domain=${encodeURIComponent('https://CLINIC.example.com/')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      tenantId: '100001',
      tenantName: '华东口腔连锁',
      backgroundUrl: 'https://cdn.example.com/bg.png',
    });
    const unknown = await t.app.inject({ method: 'GET', url: `${API}/info?domain=https://nowhere.example.com` });
    expect(unknown.json()).toMatchObject({ success: true, data: {} });
    const none = await t.app.inject({ method: 'GET', url: `${API}/info` });
    expect(none.json()).toMatchObject({ success: true, data: {} });
  });

  it('sets quota and expiry, refusing bad values', async () => {
    const badDate = await post(`${API}/setting`, { ids: rowId, accountNumber: 10, expireTime: '2030-02-30 00:00:00' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().msg).toBe('过期时间的格式应为 yyyy-MM-dd HH:mm:ss');
    const notDate = await post(`${API}/setting`, { ids: rowId, accountNumber: 10, expireTime: 'tomorrow' });
    expect(notDate.statusCode).toBe(400);
    const badNumber = await post(`${API}/setting`, { ids: rowId, accountNumber: 'many' });
    expect(badNumber.json().msg).toBe('账号额度应为整数');
    const noIds = await post(`${API}/setting`, { accountNumber: 10 });
    expect(noIds.json().msg).toBe('缺少必要的请求参数: ids');
    const platform = await post(`${API}/setting`, { ids: PLATFORM_TENANT.id, expireTime: '2030-01-01 00:00:00' });
    expect(platform.json().msg).toBe('不能为平台租户设置过期时间');

    const good = await post(`${API}/setting`, { ids: rowId, accountNumber: 20, expireTime: '2099-12-31 23:59:59' });
    expect(good.json()).toMatchObject({ success: true });
    const detail = (await get(`${API}/detail?id=${rowId}`)).json().data;
    expect(detail).toMatchObject({ accountNumber: 20, expireTime: '2099-12-31 23:59:59' });
  });

  it('refuses sign-in once the tenant has expired', async () => {
    await post(`${API}/setting`, { ids: rowId, accountNumber: 20, expireTime: '2020-01-01 00:00:00' });
    const res = await t.token({
      tenantId: '100001',
      username: 'admin',
      password: md5(password),
      grant_type: 'password',
      scope: 'all',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe('租户授权已过期,请联系管理员');
    await post(`${API}/setting`, { ids: rowId, accountNumber: 20, expireTime: '' });
    expect((await t.signIn('admin', password, '100001')).tenant_id).toBe('100001');
  });

  it('binds a datasource that exists', async () => {
    const missing = await post(`${API}/datasource`, { tenantId: '100001', datasourceId: '123' });
    expect(missing.json().msg).toBe('数据源不存在');
    const id = nextId();
    await t.ctx.db.insert(datasource).values({ id, name: 'ds', url: 'postgres://h/db', username: 'u', password: '' });
    const bound = await post(`${API}/datasource`, { tenantId: '100001', datasourceId: id });
    expect(bound.json()).toMatchObject({ success: true });
    const [row] = await t.ctx.db.select().from(tenant).where(eq(tenant.id, rowId));
    expect(row?.datasourceId).toBe(id);
    const unknownTenant = await post(`${API}/datasource`, { tenantId: '999999', datasourceId: id });
    expect(unknownTenant.statusCode).toBe(404);
  });

  it('refuses a duplicate tenant id and removing the platform tenant', async () => {
    const dup = await post(`${API}/submit`, { tenantId: '100001', tenantName: 'x', linkman: 'y' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().msg).toBe('租户ID已存在');
    const platform = await post(`${API}/remove?ids=${PLATFORM_TENANT.id}`, {});
    expect(platform.statusCode).toBe(400);
    expect(platform.json().msg).toBe('不能删除平台租户');
  });

  it('refuses reusing the id of a removed tenant whose users remain', async () => {
    expect((await post(`${API}/remove?ids=${rowId}`, {})).json()).toMatchObject({ success: true });
    const again = await post(`${API}/submit`, { tenantId: '100001', tenantName: 'x', linkman: 'y' });
    expect(again.json().msg).toBe('该租户ID下已有数据,请更换租户ID');
  });
});
