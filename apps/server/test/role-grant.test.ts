import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/auth/passwords';
import { dataScope, role, roleMenu, roleScope, tenant, user } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { DEPT_IDS, ROLE_IDS, SEED_API_SCOPES, SEED_MENUS } from '../src/seed/seed-data';
import { createTestApp, md5, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;
/** A platform-tenant user whose role (clerk) is granted what each test gives it. */
let clerk: string;
/** The admin of another tenant. */
let foreigner: string;

const CLERK_ROLE = '9101';
const TEMP_ROLE = '9102';
const FOREIGN_ROLE = '9201';
const DATA_SCOPE = '9601';
const scopeId = (code: string) => SEED_API_SCOPES.find((s) => s.resourceCode === code)?.id as string;
const menuId = (code: string) => SEED_MENUS.find((m) => m.code === code)?.id as string;

beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.db.insert(tenant).values({ id: '9200', tenantId: '222222', tenantName: 'other' });
  await t.ctx.db.insert(role).values([
    { id: CLERK_ROLE, roleName: '文员', roleAlias: 'clerk', sort: 5 },
    { id: TEMP_ROLE, roleName: '临时', roleAlias: 'temp', sort: 6 },
    { id: FOREIGN_ROLE, tenantId: '222222', roleName: '管理员', roleAlias: 'admin' },
  ]);
  await t.ctx.db.insert(user).values([
    {
      id: '9111',
      account: 'clerk',
      name: 'clerk',
      realName: 'clerk',
      password: await hashPassword(md5('clerk-pass')),
      roleId: CLERK_ROLE,
      deptId: DEPT_IDS.east,
    },
    {
      id: '9211',
      tenantId: '222222',
      account: 'boss',
      name: 'boss',
      realName: 'boss',
      password: await hashPassword(md5('boss-pass')),
      roleId: FOREIGN_ROLE,
      deptId: '1',
    },
  ]);
  // The other tenant's admin may manage its roles.
  await t.ctx.db.insert(roleScope).values(
    ['role:read', 'role:write', 'role:grant'].map((code, i) => ({
      id: `930${i}`,
      roleId: FOREIGN_ROLE,
      scopeCategory: ScopeCategory.API,
      scopeId: scopeId(code),
    })),
  );
  await t.ctx.db.insert(dataScope).values({
    id: DATA_SCOPE,
    menuId: menuId('user'),
    resourceCode: 'user',
    scopeName: '本人数据',
    scopeType: 2,
  });
  admin = (await t.signIn()).access_token;
  clerk = (await t.signIn('clerk', 'clerk-pass')).access_token;
  foreigner = (await t.signIn('boss', 'boss-pass', '222222')).access_token;
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.as(token, { method: 'GET', url });
const post = (token: string, url: string, payload: Record<string, unknown> = {}) =>
  t.as(token, { method: 'POST', url, payload });
const grant = (token: string, roleIds: string, menuIds: string[], apiScopeIds: string[], dataScopeIds: string[] = []) =>
  t.as(token, {
    method: 'POST',
    url: '/api/blade-system/role/grant',
    query: {
      roleIds,
      menuIds: menuIds.join(','),
      dataScopeIds: dataScopeIds.join(','),
      apiScopeIds: apiScopeIds.join(','),
    },
  });
const keys = async (token: string, roleIds: string) => {
  const res = await get(token, `/api/blade-system/menu/role-tree-keys?roleIds=${roleIds}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { menu: string[]; dataScope: string[]; apiScope: string[] };
};
const sorted = (ids: string[]) => [...ids].sort();

describe('role grant', () => {
  it('takes effect at once: 403 before post:read is granted, 200 after', async () => {
    expect((await get(clerk, '/api/blade-system/post/list')).statusCode).toBe(403);
    const res = await grant(admin, CLERK_ROLE, [menuId('post')], [scopeId('post:read')]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, msg: '操作成功' });
    expect((await get(clerk, '/api/blade-system/post/list')).statusCode).toBe(200);
    expect((await post(clerk, '/api/blade-system/post/submit', { postCode: 'x', postName: 'x' })).statusCode).toBe(403);
  });

  it('round-trips through role-tree-keys, replacing what was granted before', async () => {
    const menus = [menuId('system'), menuId('post'), menuId('post_add'), menuId('role'), menuId('role_setting')];
    const apis = ['post:read', 'role:read', 'role:grant'].map(scopeId);
    const res = await grant(admin, CLERK_ROLE, menus, apis, [DATA_SCOPE]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await keys(admin, CLERK_ROLE)).toEqual({
      menu: sorted(menus),
      dataScope: [DATA_SCOPE],
      apiScope: sorted(apis),
    });
    // The role's own menu routes follow the grant (role's group is not granted: role is a root).
    const routes = (await get(clerk, '/api/blade-system/menu/routes')).json().data as { code: string }[];
    expect(routes.map((r) => r.code)).toEqual(['system', 'role']);
  });

  it('accepts the ids in a form or JSON body too, and the keys of several roles are united', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-system/role/grant',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ roleIds: TEMP_ROLE, menuIds: menuId('dept'), apiScopeIds: '' }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const json = await post(admin, '/api/blade-system/role/grant', { roleIds: [TEMP_ROLE], menuIds: [menuId('dept')] });
    expect(json.statusCode, json.body).toBe(200);
    const both = await keys(admin, `${TEMP_ROLE},${CLERK_ROLE}`);
    expect(both.menu).toContain(menuId('dept'));
    expect(both.menu).toContain(menuId('post'));
  });

  it('refuses bad input with a 400 and a clear message', async () => {
    const missing = await post(admin, '/api/blade-system/role/grant');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('缺少必要的请求参数: roleIds');
    const bad = await grant(admin, 'abc', [], []);
    expect(bad.statusCode).toBe(400);
    const unknownMenu = await grant(admin, TEMP_ROLE, ['123'], []);
    expect(unknownMenu.statusCode).toBe(400);
    expect(unknownMenu.json().msg).toBe('菜单不存在或已删除');
    const unknownScope = await grant(admin, TEMP_ROLE, [], ['123']);
    expect(unknownScope.json().msg).toBe('接口权限不存在或已删除');
  });

  it('ignores menu nodes of the scope trees sent among the scope ids', async () => {
    const res = await grant(admin, TEMP_ROLE, [menuId('dept')], [menuId('post'), scopeId('post:read')]);
    expect(res.statusCode, res.body).toBe(200);
    expect((await keys(admin, TEMP_ROLE)).apiScope).toEqual([scopeId('post:read')]);
  });

  it('refuses roles of another tenant, unknown roles and the administrator role to others', async () => {
    expect((await grant(admin, FOREIGN_ROLE, [], [])).statusCode).toBe(404);
    expect((await grant(admin, `${TEMP_ROLE},${FOREIGN_ROLE}`, [], [])).statusCode).toBe(404);
    expect((await grant(foreigner, TEMP_ROLE, [], [])).statusCode).toBe(404);
    expect((await get(foreigner, `/api/blade-system/menu/role-tree-keys?roleIds=${TEMP_ROLE}`)).statusCode).toBe(404);
    expect((await grant(clerk, ROLE_IDS.administrator, [], [])).statusCode).toBe(403);
    // The foreign grant changed nothing.
    expect((await keys(admin, TEMP_ROLE)).apiScope).toEqual([scopeId('post:read')]);
  });

  it('lets others grant only what their own roles hold (no escalation)', async () => {
    const tooMuch = await grant(clerk, TEMP_ROLE, [menuId('user')], []);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().msg).toBe('只能授予自己拥有的菜单和权限');
    const apiTooMuch = await grant(clerk, TEMP_ROLE, [], [scopeId('user:write')]);
    expect(apiTooMuch.statusCode).toBe(400);
    // Nor can they widen their own role.
    expect((await grant(clerk, CLERK_ROLE, [], [scopeId('post:write')])).statusCode).toBe(400);
    const held = await grant(clerk, TEMP_ROLE, [menuId('post')], [scopeId('role:read')], [DATA_SCOPE]);
    expect(held.statusCode, held.body).toBe(200);
  });

  it('keeps the grants outside the granter’s reach and shows them only to the administrator', async () => {
    // dept (menu) was granted to temp by the administrator; the clerk does not hold it.
    const asAdmin = await keys(admin, TEMP_ROLE);
    expect(asAdmin.menu).toEqual(sorted([menuId('dept'), menuId('post')]));
    expect(asAdmin.apiScope).toEqual([scopeId('role:read')]);
    expect(await keys(clerk, TEMP_ROLE)).toEqual({
      menu: [menuId('post')],
      dataScope: [DATA_SCOPE],
      apiScope: [scopeId('role:read')],
    });
    expect((await grant(clerk, TEMP_ROLE, [], [])).statusCode).toBe(200);
    expect(await keys(admin, TEMP_ROLE)).toEqual({ menu: [menuId('dept')], dataScope: [], apiScope: [] });
  });

  it('gives the grant-tree of the caller: everything for the administrator, the held menus for others', async () => {
    const flat = (nodes: { id: string; children?: unknown[] }[]): string[] =>
      nodes.flatMap((n) => [n.id, ...flat((n.children ?? []) as { id: string }[])]);
    const all = (await get(admin, '/api/blade-system/menu/grant-tree')).json().data.menu;
    expect(flat(all).length).toBe(SEED_MENUS.length);
    const trees = (await get(clerk, '/api/blade-system/menu/grant-tree')).json().data;
    expect(Object.keys(trees).sort()).toEqual(['apiScope', 'dataScope', 'menu']);
    const mine = trees.menu;
    expect(sorted(flat(mine))).toEqual(
      sorted([menuId('system'), menuId('post'), menuId('post_add'), menuId('role'), menuId('role_setting')]),
    );
    expect(mine[0]).toMatchObject({
      id: menuId('system'),
      title: '系统管理',
      key: menuId('system'),
      hasChildren: true,
    });
    const apiTree = (await get(clerk, '/api/blade-system/menu/grant-api-scope-tree')).json().data;
    expect(trees.apiScope).toEqual(apiTree);
    expect(sorted(flat(apiTree))).toEqual(
      sorted([
        menuId('system'),
        menuId('post'),
        scopeId('post:read'),
        menuId('authority'),
        menuId('role'),
        scopeId('role:read'),
        scopeId('role:grant'),
      ]),
    );
    const dataTree = (await get(admin, '/api/blade-system/menu/grant-data-scope-tree')).json().data;
    expect(dataTree).toEqual([
      {
        id: menuId('system'),
        parentId: '0',
        title: '系统管理',
        key: menuId('system'),
        value: menuId('system'),
        hasChildren: true,
        children: [
          {
            id: menuId('user'),
            parentId: menuId('system'),
            title: '用户管理',
            key: menuId('user'),
            value: menuId('user'),
            hasChildren: true,
            children: [
              {
                id: DATA_SCOPE,
                parentId: menuId('user'),
                title: '本人数据',
                key: DATA_SCOPE,
                value: DATA_SCOPE,
                hasChildren: false,
              },
            ],
          },
        ],
      },
    ]);
  });
});

describe('role tree, tree-by-id and submit rules', () => {
  const flat = (nodes: { id: string; children?: unknown[] }[]): string[] =>
    nodes.flatMap((n) => [n.id, ...flat((n.children ?? []) as { id: string }[])]);

  it('gives the picker tree of the caller’s tenant; tenantId may name another only for the administrator', async () => {
    const mine = (await get(admin, '/api/blade-system/role/tree')).json().data;
    expect(flat(mine)).toContain(ROLE_IDS.hr);
    expect(mine.find((n: { id: string }) => n.id === ROLE_IDS.user)).toMatchObject({
      title: '用户',
      key: ROLE_IDS.user,
      value: ROLE_IDS.user,
      hasChildren: true,
    });
    const other = (await get(admin, '/api/blade-system/role/tree?tenantId=222222')).json().data;
    expect(flat(other)).toEqual([FOREIGN_ROLE]);
    expect((await get(foreigner, '/api/blade-system/role/tree?tenantId=000000')).statusCode).toBe(403);
    expect(flat((await get(foreigner, '/api/blade-system/role/tree?tenantId=222222')).json().data)).toEqual([
      FOREIGN_ROLE,
    ]);
    expect((await get(admin, '/api/blade-system/role/tree?tenantId=%27x%27')).statusCode).toBe(400);
  });

  it('shows the administrator role to the administrator only', async () => {
    await grant(admin, CLERK_ROLE, [], ['role:read', 'role:write', 'role:grant'].map(scopeId));
    expect(flat((await get(admin, '/api/blade-system/role/tree')).json().data)).toContain(ROLE_IDS.administrator);
    expect(flat((await get(clerk, '/api/blade-system/role/tree')).json().data)).not.toContain(ROLE_IDS.administrator);
  });

  it('tree-by-id leaves out the role and everything below it', async () => {
    const ids = flat((await get(admin, `/api/blade-system/role/tree-by-id?roleId=${ROLE_IDS.user}`)).json().data);
    expect(ids).toContain(CLERK_ROLE);
    for (const gone of [ROLE_IDS.user, ROLE_IDS.hr, ROLE_IDS.manager, ROLE_IDS.boss]) expect(ids).not.toContain(gone);
    expect((await get(admin, '/api/blade-system/role/tree-by-id')).statusCode).toBe(400);
    expect((await get(admin, `/api/blade-system/role/tree-by-id?roleId=${FOREIGN_ROLE}`)).statusCode).toBe(404);
  });

  it('refuses the administrator alias outside the platform tenant and to non-administrators', async () => {
    const foreign = await post(foreigner, '/api/blade-system/role/submit', {
      roleName: '超管',
      roleAlias: 'administrator',
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().msg).toBe('角色别名 administrator 为平台超级管理员保留');
    const rename = await post(foreigner, '/api/blade-system/role/submit', {
      id: FOREIGN_ROLE,
      roleAlias: 'Administrator',
    });
    expect(rename.statusCode).toBe(400);
    expect(
      (await post(clerk, '/api/blade-system/role/submit', { roleName: 'x', roleAlias: 'administrator' })).statusCode,
    ).toBe(400);
    expect(
      (await post(clerk, '/api/blade-system/role/submit', { id: ROLE_IDS.administrator, roleName: '改名' })).statusCode,
    ).toBe(403);
    const ok = await post(foreigner, '/api/blade-system/role/submit', { roleName: '质检', roleAlias: 'qa' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a parent that is the role itself, below it, or not a role of the tenant', async () => {
    const self = await post(admin, '/api/blade-system/role/submit', { id: ROLE_IDS.user, parentId: ROLE_IDS.user });
    expect(self.statusCode).toBe(400);
    expect(self.json().msg).toBe('上级角色不能是自己或自己的下级');
    const below = await post(admin, '/api/blade-system/role/submit', { id: ROLE_IDS.user, parentId: ROLE_IDS.hr });
    expect(below.json().msg).toBe('上级角色不能是自己或自己的下级');
    const foreign = await post(admin, '/api/blade-system/role/submit', { id: TEMP_ROLE, parentId: FOREIGN_ROLE });
    expect(foreign.json().msg).toBe('上级角色不存在');
    const fine = await post(admin, '/api/blade-system/role/submit', { id: TEMP_ROLE, parentId: ROLE_IDS.user });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('refuses to remove a role still assigned to users, and removes the grants of a removed role', async () => {
    const used = await post(admin, `/api/blade-system/role/remove?ids=${CLERK_ROLE}`);
    expect(used.statusCode).toBe(400);
    expect(used.json().msg).toBe('角色「文员」仍分配给用户,请先解除用户的角色配置');
    const administrator = await post(admin, `/api/blade-system/role/remove?ids=${ROLE_IDS.administrator}`);
    expect(administrator.statusCode).toBe(400);
    expect((await grant(admin, TEMP_ROLE, [menuId('post')], [scopeId('post:read')])).statusCode).toBe(200);
    const removed = await post(admin, `/api/blade-system/role/remove?ids=${TEMP_ROLE}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await t.ctx.db.select().from(roleMenu).where(eq(roleMenu.roleId, TEMP_ROLE))).toEqual([]);
    expect(await t.ctx.db.select().from(roleScope).where(eq(roleScope.roleId, TEMP_ROLE))).toEqual([]);
  });
});
