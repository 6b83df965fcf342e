import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { nextId } from '../src/platform/db/ids';
import { dataScope, dept, role, roleScope, user } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { DEPT_IDS, POST_IDS, ROLE_IDS, SEED_MENUS } from '../src/seed/seed-data';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, md5, type TestApp } from './support/test-app';

/**
 * Data scope applies to what a user picks, not only to what they read: a caller whose data
 * scope on departments is "department and children" (the east branch) may give a user only
 * departments of that subtree, and put a department only below one of them.
 */
let t: TestApp;
let admin: string;
let scout: string;

const EAST_TEAM = '9601';
const SOUTH_TEAM = '9602';
const OUT_OF_SCOPE_DEPT = '所属部门不在您的数据权限范围内';
const OUT_OF_SCOPE_PARENT = '上级机构不在您的数据权限范围内';
const screen = (code: string) => SEED_MENUS.find((m) => m.code === code)?.id as string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  await t.ctx.db.insert(dept).values([
    {
      id: EAST_TEAM,
      parentId: DEPT_IDS.east,
      ancestors: `0,${DEPT_IDS.company},${DEPT_IDS.east}`,
      deptName: '常州一组',
      fullName: '常州一组',
    },
    {
      id: SOUTH_TEAM,
      parentId: DEPT_IDS.south,
      ancestors: `0,${DEPT_IDS.company},${DEPT_IDS.south}`,
      deptName: '南方一组',
      fullName: '南方一组',
    },
  ]);
  const roleId = nextId();
  await t.ctx.db.insert(role).values({ id: roleId, roleName: 'picker', roleAlias: 'picker' });
  scout = await signInWithScopes(t, {
    account: 'picker',
    roleId,
    codes: ['user:read', 'user:write', 'dept:read', 'dept:write'],
    deptId: DEPT_IDS.east,
  });
  const scopeId = nextId();
  await t.ctx.db.insert(dataScope).values({
    id: scopeId,
    menuId: screen('dept'),
    resourceCode: 'dept',
    scopeName: 'dept 4',
    scopeType: 4,
    scopeValue: '',
  });
  await t.ctx.db.insert(roleScope).values({ id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId, roleId });
  await t.ctx.grants.changed();
});
afterAll(() => t.close());

const post = (url: string, payload: Record<string, unknown>, token = scout) =>
  t.as(token, { method: 'POST', url, payload });
const newUser = (account: string, deptId: string) => ({
  account,
  password: md5(`${account}#Pass1`),
  name: account,
  realName: account,
  roleId: ROLE_IDS.user,
  deptId,
  postId: POST_IDS.ceo,
});
const userByAccount = async (account: string) =>
  (await t.ctx.db.select().from(user).where(eq(user.account, account)))[0];
const deptByName = async (deptName: string) =>
  (await t.ctx.db.select().from(dept).where(eq(dept.deptName, deptName)))[0];

describe('departments a restricted caller gives a user', () => {
  it('refuses a department outside the caller’s data scope, and stores nothing', async () => {
    const res = await post('/api/blade-user/submit', newUser('southie', DEPT_IDS.south));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(OUT_OF_SCOPE_DEPT);
    expect(await userByAccount('southie')).toBeUndefined();
  });

  it('refuses a list with one department outside the scope', async () => {
    const res = await post('/api/blade-user/submit', newUser('mixed', `${EAST_TEAM},${SOUTH_TEAM}`));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(OUT_OF_SCOPE_DEPT);
    expect(await userByAccount('mixed')).toBeUndefined();
  });

  it('accepts departments within the scope', async () => {
    const res = await post('/api/blade-user/submit', newUser('eastie', `${DEPT_IDS.east},${EAST_TEAM}`));
    expect(res.json(), res.body).toMatchObject({ success: true });
    expect((await userByAccount('eastie'))?.deptId).toBe(`${DEPT_IDS.east},${EAST_TEAM}`);
  });

  it('refuses moving a user to a department outside the scope; the user is unchanged', async () => {
    const id = (await userByAccount('eastie'))?.id as string;
    const res = await post('/api/blade-user/submit', { id, deptId: DEPT_IDS.south });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(OUT_OF_SCOPE_DEPT);
    expect((await userByAccount('eastie'))?.deptId).toBe(`${DEPT_IDS.east},${EAST_TEAM}`);
  });

  it('keeps a department the user already had, even one outside the scope', async () => {
    const id = (
      await post('/api/blade-user/submit', newUser('twohomes', `${DEPT_IDS.east},${DEPT_IDS.south}`), admin)
    ).json().data as string;
    const res = await post('/api/blade-user/submit', {
      id,
      realName: '两地',
      deptId: `${DEPT_IDS.east},${DEPT_IDS.south}`,
    });
    expect(res.json(), res.body).toMatchObject({ success: true });
    expect((await userByAccount('twohomes'))?.realName).toBe('两地');
  });

  it('leaves an unrestricted caller free to pick any department of the tenant', async () => {
    const res = await post('/api/blade-user/submit', newUser('adminpick', DEPT_IDS.south), admin);
    expect(res.json(), res.body).toMatchObject({ success: true });
  });
});

describe('the parent a restricted caller gives a department', () => {
  const newDept = (deptName: string, parentId: string) => ({
    deptName,
    fullName: deptName,
    parentId,
    deptCategory: 2,
    sort: 1,
  });

  it('refuses a parent outside the scope, and stores nothing', async () => {
    const res = await post('/api/blade-system/dept/submit', newDept('南方二组', DEPT_IDS.south));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(OUT_OF_SCOPE_PARENT);
    expect(await deptByName('南方二组')).toBeUndefined();
  });

  it('refuses the top level, which no department scope covers', async () => {
    const res = await post('/api/blade-system/dept/submit', newDept('新公司', '0'));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(OUT_OF_SCOPE_PARENT);
    expect(await deptByName('新公司')).toBeUndefined();
  });

  it('accepts a parent within the scope', async () => {
    const res = await post('/api/blade-system/dept/submit', newDept('常州二组', DEPT_IDS.east));
    expect(res.json(), res.body).toMatchObject({ success: true });
    expect((await deptByName('常州二组'))?.parentId).toBe(DEPT_IDS.east);
  });

  it('refuses moving a department below one outside the scope; it stays where it was', async () => {
    const res = await post('/api/blade-system/dept/submit', { id: EAST_TEAM, parentId: SOUTH_TEAM });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(OUT_OF_SCOPE_PARENT);
    expect((await deptByName('常州一组'))?.parentId).toBe(DEPT_IDS.east);
  });

  it('leaves an unrestricted caller free to pick any parent', async () => {
    const res = await post('/api/blade-system/dept/submit', newDept('南方三组', DEPT_IDS.south), admin);
    expect(res.json(), res.body).toMatchObject({ success: true });
  });
});
