import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/auth/passwords';
import { dataScope, dept, user } from '../src/platform/db/schema';
import { DEPT_IDS, SEED_API_SCOPES, SEED_MENUS } from '../src/seed/seed-data';
import { createTestApp, md5, type TestApp } from './support/test-app';

/**
 * Data scopes (CONTRACT.md: 1 all, 2 own, 3 own department, 4 department and children,
 * 5 custom) on the user page (owner column `id`, departments in the list column `dept_id`) and
 * on the department list (owner `create_user`, department `id`).
 */
let t: TestApp;
let admin: string;
let scout: string;
let roleId: string;

const EAST_TEAM = '9301';
const SCOUT_MADE = '9302';
const SCOUT = '9401';
const scopeCode = (code: string) => SEED_API_SCOPES.find((s) => s.resourceCode === code)?.id as string;
const screen = (code: string) => SEED_MENUS.find((m) => m.code === code)?.id as string;

/** Scope ids by resource and type; type 5 names the south branch. */
const scopes: Record<string, Record<number, string>> = { user: {}, dept: {} };

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const created = await t.as(admin, {
    method: 'POST',
    url: '/api/blade-system/role/submit',
    payload: { roleName: '巡检', roleAlias: 'scout', sort: 9 },
  });
  roleId = created.json().data;
  await t.ctx.db.insert(dept).values([
    {
      id: EAST_TEAM,
      parentId: DEPT_IDS.east,
      ancestors: `0,${DEPT_IDS.company},${DEPT_IDS.east}`,
      deptName: '常州一组',
      fullName: '常州一组',
    },
    {
      id: SCOUT_MADE,
      parentId: DEPT_IDS.south,
      ancestors: `0,${DEPT_IDS.company},${DEPT_IDS.south}`,
      deptName: '巡检站',
      fullName: '巡检站',
      createUser: SCOUT,
    },
  ]);
  const someone = (id: string, account: string, deptId: string) => ({
    id,
    account,
    name: account,
    realName: account,
    password: 'not-used',
    roleId: '1000000000000000202',
    deptId,
  });
  await t.ctx.db.insert(user).values([
    { ...someone(SCOUT, 'scout', DEPT_IDS.east), roleId, password: await hashPassword(md5('scout-pass')) },
    someone('9402', 'head', DEPT_IDS.company),
    someone('9403', 'east', DEPT_IDS.east),
    // Two departments: inside the east subtree and in the south branch.
    someone('9404', 'team', `${EAST_TEAM},${DEPT_IDS.south}`),
    someone('9405', 'south', DEPT_IDS.south),
  ]);
  for (const resourceCode of ['user', 'dept']) {
    for (const scopeType of [1, 2, 3, 4, 5]) {
      const id = `95${resourceCode === 'user' ? 1 : 2}${scopeType}`;
      await t.ctx.db.insert(dataScope).values({
        id,
        menuId: screen(resourceCode),
        resourceCode,
        scopeName: `${resourceCode} ${scopeType}`,
        scopeType,
        scopeValue: scopeType === 5 ? DEPT_IDS.south : '',
      });
      (scopes[resourceCode] as Record<number, string>)[scopeType] = id;
    }
  }
  scout = (await t.signIn('scout', 'scout-pass')).access_token;
});
afterAll(() => t.close());

async function grant(...dataScopeIds: string[]) {
  const res = await t.as(admin, {
    method: 'POST',
    url: '/api/blade-system/role/grant',
    query: {
      roleIds: roleId,
      menuIds: '',
      dataScopeIds: dataScopeIds.join(','),
      apiScopeIds: [scopeCode('user:read'), scopeCode('dept:read')].join(','),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const accounts = async () => {
  const res = await t.as(scout, { method: 'GET', url: '/api/blade-user/page?size=100' });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json().data as { total: number; records: { account: string }[] };
  expect(page.total).toBe(page.records.length);
  return page.records.map((r) => r.account).sort();
};
const deptIds = async () => {
  const res = await t.as(scout, { method: 'GET', url: '/api/blade-system/dept/page?current=1&size=100' });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.records as { id: string }[]).map((r) => r.id).sort();
};
const userDetail = (id: string) => t.as(scout, { method: 'GET', url: `/api/blade-user/detail?id=${id}` });
const deptDetail = (id: string) => t.as(scout, { method: 'GET', url: `/api/blade-system/dept/detail?id=${id}` });

const everyone = ['admin', 'east', 'head', 'scout', 'south', 'team'];
const allDepts = [DEPT_IDS.company, DEPT_IDS.east, DEPT_IDS.south, EAST_TEAM, SCOUT_MADE].sort();

describe('data scopes on the user page', () => {
  it('without a data scope shows every user of the tenant', async () => {
    await grant();
    expect(await accounts()).toEqual(everyone);
  });

  it('1 all shows every user', async () => {
    await grant(scopes.user?.[1] as string);
    expect(await accounts()).toEqual(everyone);
  });

  it('2 own shows only the caller; another user’s detail is 404', async () => {
    await grant(scopes.user?.[2] as string);
    expect(await accounts()).toEqual(['scout']);
    expect((await userDetail(SCOUT)).statusCode).toBe(200);
    const other = await userDetail('9405');
    expect(other.statusCode).toBe(404);
    expect(other.json().msg).toBe('数据不存在或无权访问');
  });

  it('3 own department shows the users of the caller’s department', async () => {
    await grant(scopes.user?.[3] as string);
    expect(await accounts()).toEqual(['east', 'scout']);
    expect((await userDetail('9404')).statusCode).toBe(404);
  });

  it('4 department and children adds the departments below', async () => {
    await grant(scopes.user?.[4] as string);
    expect(await accounts()).toEqual(['east', 'scout', 'team']);
    expect((await userDetail('9404')).statusCode).toBe(200);
    expect((await userDetail('9402')).statusCode).toBe(404);
  });

  it('5 custom shows the users of the chosen departments (any of a user’s departments)', async () => {
    await grant(scopes.user?.[5] as string);
    expect(await accounts()).toEqual(['south', 'team']);
    expect((await userDetail(SCOUT)).statusCode).toBe(404);
  });

  it('several scopes widen each other', async () => {
    await grant(scopes.user?.[2] as string, scopes.user?.[5] as string);
    expect(await accounts()).toEqual(['scout', 'south', 'team']);
  });

  it('applies to the total of a list read before the grant changed (no stale count)', async () => {
    await grant(scopes.user?.[2] as string);
    expect(await accounts()).toEqual(['scout']);
    await grant(scopes.user?.[1] as string);
    expect(await accounts()).toEqual(everyone);
  });
});

describe('data scopes on the department list', () => {
  it('1 all shows every department', async () => {
    await grant(scopes.dept?.[1] as string);
    expect(await deptIds()).toEqual(allDepts);
  });

  it('2 own shows the departments the caller created', async () => {
    await grant(scopes.dept?.[2] as string);
    expect(await deptIds()).toEqual([SCOUT_MADE]);
    expect((await deptDetail(DEPT_IDS.east)).statusCode).toBe(404);
  });

  it('3 own department shows the caller’s department', async () => {
    await grant(scopes.dept?.[3] as string);
    expect(await deptIds()).toEqual([DEPT_IDS.east]);
  });

  it('4 department and children adds the departments below it', async () => {
    await grant(scopes.dept?.[4] as string);
    expect(await deptIds()).toEqual([DEPT_IDS.east, EAST_TEAM].sort());
    expect((await deptDetail(EAST_TEAM)).statusCode).toBe(200);
    expect((await deptDetail(DEPT_IDS.south)).statusCode).toBe(404);
  });

  it('5 custom shows the chosen departments', async () => {
    await grant(scopes.dept?.[5] as string);
    expect(await deptIds()).toEqual([DEPT_IDS.south]);
  });

  it('a user-page scope does not restrict departments', async () => {
    await grant(scopes.user?.[2] as string);
    expect(await deptIds()).toEqual(allDepts);
  });
});
