import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInLimitMessages, TokenErrorCode } from '@mes/contracts';
import { unlockAccount } from '../src/modules/auth/sign-in';
import { UserAdminMessages } from '../src/modules/user/user-admin-rules';
import { hashPassword } from '../src/platform/auth/passwords';
import { nextId } from '../src/platform/db/ids';
import { dept, post, role, roleScope, tenant, user } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { DEPT_IDS, POST_IDS, ROLE_IDS, SEED_API_SCOPES } from '../src/seed/seed-data';
import { createTestApp, md5, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;

/** A second tenant, inserted directly: its admin role holds every `user:*` API scope. */
const T2 = {
  tenantId: '200001',
  role: '2000000000000000201',
  dept: '2000000000000000301',
  post: '2000000000000000401',
  admin: '2000000000000000601',
  password: 'Tenant2#pass',
};
let t2Admin: string;

const EAST_TEAM = '1000000000000000310';

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const db = t.ctx.db;
  await db.insert(tenant).values({ id: nextId(), tenantId: T2.tenantId, tenantName: '二号租户', linkman: '李四' });
  await db
    .insert(role)
    .values({ id: T2.role, tenantId: T2.tenantId, parentId: '0', roleName: '管理员', roleAlias: 'admin', sort: 1 });
  await db.insert(dept).values({
    id: T2.dept,
    tenantId: T2.tenantId,
    parentId: '0',
    ancestors: '0',
    deptName: '二号公司',
    fullName: '二号公司',
  });
  await db.insert(post).values({ id: T2.post, tenantId: T2.tenantId, postCode: 'boss', postName: '老板', category: 1 });
  await db.insert(user).values({
    id: T2.admin,
    tenantId: T2.tenantId,
    account: 'admin',
    name: '管理员',
    realName: '管理员',
    password: await hashPassword(md5(T2.password)),
    roleId: T2.role,
    deptId: T2.dept,
  });
  await db.insert(roleScope).values(
    SEED_API_SCOPES.filter((s) => s.resourceCode.startsWith('user:')).map((s) => ({
      id: nextId(),
      scopeCategory: ScopeCategory.API,
      scopeId: s.id,
      roleId: T2.role,
    })),
  );
  // A team below the east branch, to see that a department's page includes its children.
  await db.insert(dept).values({
    id: EAST_TEAM,
    parentId: DEPT_IDS.east,
    ancestors: `0,${DEPT_IDS.company},${DEPT_IDS.east}`,
    deptName: '装配组',
    fullName: '常州分公司装配组',
    deptCategory: 3,
  });
  t2Admin = (await t.signIn('admin', T2.password, T2.tenantId)).access_token;
});
afterAll(() => t.close());

const get = (url: string, token = admin) => t.as(token, { method: 'GET', url });
const post_ = (url: string, payload: Record<string, unknown> = {}, token = admin) =>
  t.as(token, { method: 'POST', url, payload });
const form = (url: string, params: Record<string, string>, token = admin) =>
  t.as(token, {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(params).toString(),
  });

const newUser = (account: string, extra: Record<string, unknown> = {}) => ({
  account,
  password: md5(`${account}#Pass1`),
  name: account,
  realName: account.slice(0, 10),
  roleId: ROLE_IDS.user,
  deptId: DEPT_IDS.east,
  postId: POST_IDS.ceo,
  sex: 1,
  ...extra,
});

async function add(account: string, extra: Record<string, unknown> = {}, token = admin): Promise<string> {
  const res = await post_('/api/blade-user/submit', newUser(account, extra), token);
  expect(res.json(), res.body).toMatchObject({ success: true, msg: '新增成功' });
  return res.json().data as string;
}

const storedUser = async (id: string) => (await t.ctx.db.select().from(user).where(eq(user.id, id)))[0];
const signInStatus = async (account: string, password: string, tenantId = '000000') =>
  (
    await t.token({
      tenantId,
      username: account,
      password: md5(password),
      grant_type: 'password',
      scope: 'all',
    })
  ).statusCode;

/** Ids of the users the tests add, filled in as they go. */
const ids = { alice: '', t2alice: '', bob: '', carol: '', dave: '', erin: '', temp: '', temp2: '' };

describe('adding, reading and editing users', () => {
  it('adds a user, storing argon2id of the md5 the web sends', async () => {
    ids.alice = await add('alice');
    const row = await storedUser(ids.alice);
    expect(row?.password).toMatch(/^\$argon2id\$/);
    expect(row?.tenantId).toBe('000000');
    expect(await signInStatus('alice', 'alice#Pass1')).toBe(200);
  });

  it('takes a password in plain text (BladeX clients send it so) as its md5, as sign-in does', async () => {
    const res = await post_('/api/blade-user/submit', newUser('plainpw', { password: 'plain#Pass1' }));
    expect(res.json(), res.body).toMatchObject({ success: true, msg: '新增成功' });
    const row = await storedUser(res.json().data as string);
    expect(row?.password).toMatch(/^\$argon2id\$/);
    expect(await signInStatus('plainpw', 'plain#Pass1')).toBe(200);
    // Gone again, so that the lists below see only the users they expect.
    expect((await post_(`/api/blade-user/remove?ids=${res.json().data as string}`)).statusCode).toBe(200);
    const missing = await post_('/api/blade-user/submit', newUser('nopw', { password: '' }));
    expect(missing.json().msg).toBe('请输入密码');
  });

  it('returns the detail with names and never the password', async () => {
    const res = await get(`/api/blade-user/detail?id=${ids.alice}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: ids.alice,
      account: 'alice',
      roleName: '用户',
      deptName: '常州分公司',
      postName: '首席执行官',
      userTypeName: 'WEB',
      sexName: '男',
      tenantName: '管理组',
      userExt: '',
    });
    expect(data).not.toHaveProperty('password');
  });

  it('keeps accounts unique within a tenant, but not across tenants', async () => {
    const again = await post_('/api/blade-user/submit', newUser('alice'));
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe('当前用户已存在');
    ids.t2alice = await add('alice', { roleId: T2.role, deptId: T2.dept, postId: T2.post }, t2Admin);
    expect((await storedUser(ids.t2alice))?.tenantId).toBe(T2.tenantId);
  });

  it('refuses roles, departments and posts of another tenant', async () => {
    for (const [field, value, message] of [
      ['roleId', `${ROLE_IDS.user},${T2.role}`, UserAdminMessages.foreignRole.zh],
      ['deptId', T2.dept, UserAdminMessages.foreignDept.zh],
      ['postId', T2.post, UserAdminMessages.foreignPost.zh],
    ] as const) {
      const res = await post_('/api/blade-user/submit', newUser('mallory', { [field]: value }));
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(message);
      const edit = await post_('/api/blade-user/submit', { id: ids.alice, [field]: value });
      expect(edit.json().msg).toBe(message);
    }
    const unknown = await post_('/api/blade-user/submit', newUser('mallory', { roleId: '42' }));
    expect(unknown.json().msg).toBe(UserAdminMessages.foreignRole.zh);
    const [n] = await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(user)
      .where(eq(user.account, 'mallory'));
    expect(n?.n).toBe(0);
  });

  it('edits declared fields; the password and tenant are not changed by submit', async () => {
    const before = await storedUser(ids.alice);
    const res = await post_('/api/blade-user/submit', {
      id: ids.alice,
      realName: '爱丽丝',
      password: md5('changed'),
      tenantId: T2.tenantId,
      postId: `${POST_IDS.ceo},1000000000000000402`,
    });
    expect(res.json()).toMatchObject({ success: true, msg: '更新成功' });
    const after = await storedUser(ids.alice);
    expect(after).toMatchObject({ realName: '爱丽丝', tenantId: '000000', password: before?.password });
    const detail = (await get(`/api/blade-user/detail?id=${ids.alice}`)).json().data;
    expect(detail.postName).toBe('首席执行官,首席运营官');
  });

  it('update is submit for an existing user', async () => {
    const missing = await post_('/api/blade-user/update', { realName: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('缺少必要的请求参数: id');
    const res = await post_('/api/blade-user/update', { id: ids.alice, name: 'Alice' });
    expect(res.json()).toMatchObject({ success: true, msg: '更新成功' });
    expect((await storedUser(ids.alice))?.name).toBe('Alice');
    const badType = await post_('/api/blade-user/update', { id: ids.alice, userType: 9 });
    expect(badType.json().msg).toBe(UserAdminMessages.badUserType.zh);
    const foreign = await post_('/api/blade-user/update', { id: ids.t2alice, name: 'x' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().msg).toBe('数据不存在或无权访问');
  });

  it('gives 404 for the detail of another tenant’s user, except to the platform, which reads every tenant', async () => {
    for (const url of [`/api/blade-user/detail?id=${ids.alice}`, `/api/blade-user/platform-detail?id=${ids.alice}`]) {
      const res = await get(url, t2Admin);
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe('数据不存在或无权访问');
    }
    const platform = await get(`/api/blade-user/detail?id=${ids.t2alice}`);
    expect(platform.json().data).toMatchObject({ id: ids.t2alice, tenantId: T2.tenantId, tenantName: '二号租户' });
  });
});

describe('the page', () => {
  beforeAll(async () => {
    ids.bob = await add('bob', { deptId: DEPT_IDS.south, sex: 2 });
    ids.carol = await add('carol', { deptId: DEPT_IDS.company, roleId: `${ROLE_IDS.hr},${ROLE_IDS.boss}` });
    ids.dave = await add('dave', { deptId: EAST_TEAM });
    ids.erin = await add('erin', { deptId: `${DEPT_IDS.south},${EAST_TEAM}` });
  });

  const accounts = async (query: string, token = admin) => {
    const res = await get(`/api/blade-user/page?size=100&${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.records as { account: string }[]).map((r) => r.account).sort();
  };

  it('lists a department with every department below it', async () => {
    expect(await accounts(`deptId=${DEPT_IDS.company}`)).toEqual(['admin', 'alice', 'bob', 'carol', 'dave', 'erin']);
    expect(await accounts(`deptId=${DEPT_IDS.east}`)).toEqual(['alice', 'dave', 'erin']);
    expect(await accounts(`deptId=${EAST_TEAM}`)).toEqual(['dave', 'erin']);
    expect(await accounts(`deptId=${DEPT_IDS.south}`)).toEqual(['bob', 'erin']);
    // Another tenant's department shows nothing, not its users.
    expect(await accounts(`deptId=${T2.dept}`)).toEqual([]);
    expect(await accounts(`deptId=${T2.dept}`, t2Admin)).toEqual(['admin', 'alice']);
  });

  it('gives the total of the department filter', async () => {
    const page = (await get(`/api/blade-user/page?current=1&size=2&deptId=${DEPT_IDS.east}`)).json().data;
    expect(page).toMatchObject({ total: 3, size: 2, current: 1, pages: 2 });
    expect(page.records.map((r: { account: string }) => r.account)).toEqual(['alice', 'dave']);
  });

  it('combines the department with the declared filters', async () => {
    expect(await accounts(`deptId=${DEPT_IDS.company}&account=a`)).toEqual(['admin', 'alice', 'carol', 'dave']);
    expect(await accounts('realName=爱丽')).toEqual(['alice']);
    expect(await accounts('userType=1&account_equal=bob')).toEqual(['bob']);
    expect(await accounts('userType=2')).toEqual([]);
  });

  it('refuses a malformed department and undeclared filters', async () => {
    expect((await get('/api/blade-user/page?deptId=1;drop')).statusCode).toBe(400);
    expect((await get('/api/blade-user/page?password=x')).statusCode).toBe(400);
    expect((await get('/api/blade-user/page?roleId=1')).statusCode).toBe(400);
  });

  it('decorates the rows with names and sends no password', async () => {
    const records = (await get('/api/blade-user/page?size=100')).json().data.records as Record<string, unknown>[];
    const byAccount = new Map(records.map((r) => [r.account, r]));
    expect(byAccount.get('carol')).toMatchObject({ roleName: '人事,老板', deptName: '机械集团', sexName: '男' });
    expect(byAccount.get('bob')).toMatchObject({ deptName: '苏州分公司', sexName: '女', userTypeName: 'WEB' });
    expect(byAccount.get('erin')).toMatchObject({ deptName: '苏州分公司,装配组', tenantName: '管理组' });
    expect(records.every((r) => !('password' in r))).toBe(true);
  });

  it('shows a renamed role, department, post or tenant on the next page, names being cached', async () => {
    const carol = async () =>
      (
        (await get('/api/blade-user/page?size=100&account_equal=carol')).json().data.records as Record<
          string,
          unknown
        >[]
      )[0];
    expect(await carol()).toMatchObject({ roleName: '人事,老板', deptName: '机械集团', postName: '首席执行官' });
    const rename = async (url: string, detailUrl: string, field: string, value: string) => {
      const row = (await get(detailUrl)).json().data as Record<string, unknown>;
      const res = await post_(url, { ...row, [field]: value });
      expect(res.json(), res.body).toMatchObject({ success: true });
      return () => post_(url, { ...row, [field]: row[field] });
    };
    const undo = [
      await rename(
        '/api/blade-system/role/submit',
        `/api/blade-system/role/detail?id=${ROLE_IDS.boss}`,
        'roleName',
        '董事长',
      ),
      await rename(
        '/api/blade-system/dept/submit',
        `/api/blade-system/dept/detail?id=${DEPT_IDS.company}`,
        'deptName',
        '机械集团总部',
      ),
      await rename(
        '/api/blade-system/post/submit',
        `/api/blade-system/post/detail?id=${POST_IDS.ceo}`,
        'postName',
        '总经理',
      ),
    ];
    expect(await carol()).toMatchObject({ roleName: '人事,董事长', deptName: '机械集团总部', postName: '总经理' });
    for (const restore of undo) expect((await restore()).statusCode).toBe(200);
    expect(await carol()).toMatchObject({ roleName: '人事,老板', deptName: '机械集团', postName: '首席执行官' });
    // Another tenant's page is not affected by, nor does it affect, this tenant's names.
    const t2 = (await get('/api/blade-user/page?size=100&account_equal=admin', t2Admin)).json().data.records[0];
    expect(t2).toMatchObject({ roleName: '管理员', deptName: '二号公司', tenantName: '二号租户' });
  });
});

describe('removing users', () => {
  it('refuses to remove the signed-in user', async () => {
    const me = '1000000000000000601';
    const res = await post_(`/api/blade-user/remove?ids=${me},${ids.bob}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(UserAdminMessages.removeSelf.zh);
    expect((await get(`/api/blade-user/detail?id=${ids.bob}`)).statusCode).toBe(200);
  });

  it('refuses another tenant’s ids and removes nothing', async () => {
    const res = await post_(`/api/blade-user/remove?ids=${ids.bob},${ids.t2alice}`);
    expect(res.statusCode).toBe(404);
    expect((await storedUser(ids.bob))?.isDeleted).toBe(0);
    expect((await storedUser(ids.t2alice))?.isDeleted).toBe(0);
  });

  it('removes, and the account may then be used again', async () => {
    ids.temp = await add('temp');
    const res = await post_('/api/blade-user/remove', { ids: ids.temp });
    expect(res.json()).toMatchObject({ success: true, msg: '删除成功' });
    expect((await get(`/api/blade-user/detail?id=${ids.temp}`)).statusCode).toBe(404);
    expect(await signInStatus('temp', 'temp#Pass1')).toBe(400);
    ids.temp2 = await add('temp');
  });
});

describe('the tenant account quota', () => {
  it('refuses adding past tenant.accountNumber and allows it again when unlimited', async () => {
    // The second tenant has its admin and alice: a quota of 3 leaves one place.
    await t.ctx.db.update(tenant).set({ accountNumber: 3 }).where(eq(tenant.tenantId, T2.tenantId));
    await add('bob', { roleId: T2.role, deptId: T2.dept, postId: '' }, t2Admin);
    const full = await post_(
      '/api/blade-user/submit',
      newUser('carol', { roleId: T2.role, deptId: T2.dept, postId: '' }),
      t2Admin,
    );
    expect(full.statusCode).toBe(400);
    expect(full.json().msg).toBe('当前租户已到最大账号额度');
    // Editing is not adding.
    const edit = await post_('/api/blade-user/submit', { id: ids.t2alice, realName: 'A' }, t2Admin);
    expect(edit.json().success).toBe(true);
    await t.ctx.db.update(tenant).set({ accountNumber: -1 }).where(eq(tenant.tenantId, T2.tenantId));
    await add('carol', { roleId: T2.role, deptId: T2.dept, postId: '' }, t2Admin);
  });
});

describe('grant', () => {
  it('sets the roles of the users, from a form body or the query string', async () => {
    const res = await form('/api/blade-user/grant', {
      userIds: `${ids.alice},${ids.bob}`,
      roleIds: `${ROLE_IDS.hr},${ROLE_IDS.manager}`,
    });
    expect(res.json(), res.body).toMatchObject({ success: true });
    expect((await storedUser(ids.alice))?.roleId).toBe(`${ROLE_IDS.hr},${ROLE_IDS.manager}`);
    expect((await get(`/api/blade-user/detail?id=${ids.bob}`)).json().data.roleName).toBe('人事,经理');
    const q = await post_(`/api/blade-user/grant?userIds=${ids.bob}&roleIds=${ROLE_IDS.user}`);
    expect(q.json().success).toBe(true);
    expect((await storedUser(ids.bob))?.roleId).toBe(ROLE_IDS.user);
  });

  it('refuses users and roles of another tenant and changes nothing', async () => {
    const foreignUser = await post_(
      `/api/blade-user/grant?userIds=${ids.alice},${ids.t2alice}&roleIds=${ROLE_IDS.user}`,
    );
    expect(foreignUser.statusCode).toBe(404);
    const foreignRole = await post_(`/api/blade-user/grant?userIds=${ids.alice}&roleIds=${T2.role}`);
    expect(foreignRole.statusCode).toBe(400);
    expect(foreignRole.json().msg).toBe(UserAdminMessages.foreignRole.zh);
    const fromT2 = await post_(`/api/blade-user/grant?userIds=${ids.alice}&roleIds=${T2.role}`, {}, t2Admin);
    expect(fromT2.statusCode).toBe(404);
    expect((await storedUser(ids.alice))?.roleId).toBe(`${ROLE_IDS.hr},${ROLE_IDS.manager}`);
  });

  it('needs both lists', async () => {
    const res = await post_(`/api/blade-user/grant?userIds=${ids.alice}`);
    expect(res.json().msg).toBe('缺少必要的请求参数: roleIds');
    const bad = await post_(`/api/blade-user/grant?userIds=abc&roleIds=${ROLE_IDS.user}`);
    expect(bad.statusCode).toBe(400);
    const tooMany = Array.from({ length: 60 }, (_, i) => String(1000000000000000000n + BigInt(i))).join(',');
    const long = await post_('/api/blade-user/grant', { userIds: ids.alice, roleIds: tooMany });
    expect(long.statusCode).toBe(400);
  });
});

describe('reset-password', () => {
  it('sets account.initPassword (123456), and the old password stops working', async () => {
    expect(await signInStatus('bob', 'bob#Pass1')).toBe(200);
    const res = await form('/api/blade-user/reset-password', { userIds: `${ids.bob},${ids.carol}` });
    expect(res.json(), res.body).toMatchObject({ success: true });
    expect(await signInStatus('bob', '123456')).toBe(200);
    expect(await signInStatus('carol', '123456')).toBe(200);
    expect(await signInStatus('bob', 'bob#Pass1')).toBe(400);
  });

  it('refuses another tenant’s user and leaves every password as it was', async () => {
    const before = (await storedUser(ids.dave))?.password;
    const res = await post_(`/api/blade-user/reset-password?userIds=${ids.dave},${T2.admin}`);
    expect(res.statusCode).toBe(404);
    expect((await storedUser(ids.dave))?.password).toBe(before);
    expect(await signInStatus('admin', T2.password, T2.tenantId)).toBe(200);
  });
});

describe('update-platform', () => {
  it('sets the user type and extension, shown by platform-detail', async () => {
    const res = await form('/api/blade-user/update-platform', {
      userId: ids.dave,
      userType: '2',
      userExt: '{"deviceId":"A-1"}',
    });
    expect(res.json(), res.body).toMatchObject({ success: true });
    const detail = (await get(`/api/blade-user/platform-detail?id=${ids.dave}`)).json().data;
    expect(detail).toMatchObject({ userType: 2, userTypeName: 'APP', userExt: '{"deviceId":"A-1"}' });
    expect(detail).not.toHaveProperty('password');
    const cleared = await post_(`/api/blade-user/update-platform?userId=${ids.dave}&userType=3&userExt=`);
    expect(cleared.json().success).toBe(true);
    expect(await storedUser(ids.dave)).toMatchObject({ userType: 3, userExt: '' });
  });

  it('validates the type against user_type and the extension as JSON of at most 2000 characters', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ userId: ids.dave, userType: '9' }, UserAdminMessages.badUserType.zh],
      [{ userId: ids.dave, userType: 'x' }, UserAdminMessages.badUserType.zh],
      [{ userId: ids.dave }, UserAdminMessages.badUserType.zh],
      [{ userId: ids.dave, userType: '1', userExt: 'not json' }, UserAdminMessages.userExtNotJson.zh],
      [
        { userId: ids.dave, userType: '1', userExt: JSON.stringify({ a: 'x'.repeat(2000) }) },
        UserAdminMessages.userExtTooLong.zh,
      ],
      [{ userType: '1' }, '缺少必要的请求参数: userId'],
    ];
    for (const [params, message] of cases) {
      const res = await form('/api/blade-user/update-platform', params);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(message);
    }
    expect(await storedUser(ids.dave)).toMatchObject({ userType: 3, userExt: '' });
  });

  it('refuses another tenant’s user', async () => {
    const res = await form('/api/blade-user/update-platform', { userId: T2.admin, userType: '2' });
    expect(res.statusCode).toBe(404);
    expect((await storedUser(T2.admin))?.userType).toBe(1);
  });
});

describe('unlock', () => {
  const lock = async (account: string) => {
    for (let i = 0; i < 5; i++) await signInStatus(account, 'wrong');
    const res = await t.token({
      tenantId: '000000',
      username: account,
      password: md5('123456'),
      grant_type: 'password',
      scope: 'all',
    });
    // After the failure limit the right password needs the captcha (never a flat refusal).
    expect(res.json()).toEqual({
      error_code: TokenErrorCode.captchaRequired,
      error_description: SignInLimitMessages.captchaAfterFailures,
    });
  };

  it('lifts the lock by user id', async () => {
    await lock('carol');
    const res = await form('/api/blade-user/unlock', { userIds: ids.carol });
    expect(res.json(), res.body).toMatchObject({ success: true });
    expect(await signInStatus('carol', '123456')).toBe(200);
  });

  it('lifts the lock by account', async () => {
    await lock('carol');
    const res = await post_('/api/blade-user/unlock?accounts=carol');
    expect(res.json().success).toBe(true);
    expect(await signInStatus('carol', '123456')).toBe(200);
  });

  it('refuses another tenant’s user and keeps its lock', async () => {
    for (let i = 0; i < 5; i++) await signInStatus('admin', 'wrong', T2.tenantId);
    const res = await post_(`/api/blade-user/unlock?userIds=${T2.admin}`);
    expect(res.statusCode).toBe(404);
    expect(await signInStatus('admin', T2.password, T2.tenantId)).toBe(400);
    await unlockAccount(t.ctx, T2.tenantId, 'admin');
    expect(await signInStatus('admin', T2.password, T2.tenantId)).toBe(200);
  });

  it('needs ids or accounts', async () => {
    const res = await post_('/api/blade-user/unlock');
    expect(res.json().msg).toBe('缺少必要的请求参数: userIds');
  });
});

describe('who may call', () => {
  it('a user without user API scopes gets 403 on every user administration route', async () => {
    // bob has role `user`, which is granted no API scopes.
    const bob = (await t.signIn('bob', '123456')).access_token;
    const calls = [
      get('/api/blade-user/page', bob),
      get(`/api/blade-user/detail?id=${ids.bob}`, bob),
      get(`/api/blade-user/platform-detail?id=${ids.bob}`, bob),
      post_('/api/blade-user/submit', newUser('eve'), bob),
      post_('/api/blade-user/update', { id: ids.bob, name: 'x' }, bob),
      post_(`/api/blade-user/remove?ids=${ids.alice}`, {}, bob),
      post_(`/api/blade-user/grant?userIds=${ids.bob}&roleIds=${ROLE_IDS.administrator}`, {}, bob),
      post_(`/api/blade-user/reset-password?userIds=1000000000000000601`, {}, bob),
      post_(`/api/blade-user/update-platform?userId=${ids.bob}&userType=2`, {}, bob),
      post_(`/api/blade-user/unlock?userIds=${ids.bob}`, {}, bob),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode).toBe(403);
    expect((await storedUser(ids.bob))?.roleId).toBe(ROLE_IDS.user);
  });

  it('only the administrator may act on administrator accounts or hand out the administrator role', async () => {
    // A manager granted user:read/grant/reset, but not the administrator role.
    const granted = SEED_API_SCOPES.filter((s) =>
      ['user:read', 'user:write', 'user:grant', 'user:reset'].includes(s.resourceCode),
    );
    await t.ctx.db.insert(roleScope).values(
      granted.map((s) => ({
        id: nextId(),
        scopeCategory: ScopeCategory.API,
        scopeId: s.id,
        roleId: ROLE_IDS.manager,
      })),
    );
    await t.ctx.grants.changed();
    const alice = (await t.signIn('alice', 'alice#Pass1')).access_token;
    const me = '1000000000000000601';
    const reset = await post_(`/api/blade-user/reset-password?userIds=${me}`, {}, alice);
    expect(reset.statusCode).toBe(403);
    const grant = await post_(
      `/api/blade-user/grant?userIds=${ids.alice}&roleIds=${ROLE_IDS.administrator}`,
      {},
      alice,
    );
    expect(grant.statusCode).toBe(403);
    const addAdmin = await post_('/api/blade-user/submit', newUser('eve', { roleId: ROLE_IDS.administrator }), alice);
    expect(addAdmin.statusCode).toBe(403);
    // Ordinary users are fine.
    const ok = await post_(`/api/blade-user/reset-password?userIds=${ids.dave}`, {}, alice);
    expect(ok.json().success).toBe(true);
    expect(await signInStatus('admin', 'Admin#12345')).toBe(200);
  });
});

describe('at 100,000 users', () => {
  it('pages a department with its children quickly', async () => {
    // Spread the users over the company, a branch and the team below it.
    await t.ctx.db.execute(sql`
      insert into blade_user (id, tenant_id, account, name, real_name, password, role_id, dept_id, post_id, user_type, is_deleted, status)
      select 3000000000000000000 + g, '000000', 'bulk' || g, 'bulk', 'bulk', 'x', ${ROLE_IDS.user},
        (array[${DEPT_IDS.company}, ${DEPT_IDS.south}, ${EAST_TEAM}, ${`${DEPT_IDS.east},${DEPT_IDS.south}`}])[1 + g % 4],
        ${POST_IDS.ceo}, 1, 0, 1
      from generate_series(1, 100000) g`);
    await t.ctx.db.execute(sql`analyze blade_user`);
    await t.ctx.totals.changed('user', '000000');
    const timed = async (url: string) => {
      const start = performance.now();
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      return { ms: performance.now() - start, page: res.json().data };
    };
    const first = await timed(`/api/blade-user/page?current=1&size=10&deptId=${DEPT_IDS.east}`);
    // 50,000 bulk users, plus alice, dave, erin and temp of the earlier tests.
    expect(first.page.total).toBe(50000 + 4);
    expect(first.page.records).toHaveLength(10);
    expect(first.page.records[0].deptName).not.toBe('');
    const later = await timed(`/api/blade-user/page?current=200&size=10&deptId=${DEPT_IDS.east}&account=bulk`);
    const all = await timed('/api/blade-user/page?current=1&size=10');
    console.info(
      `page by dept: first ${first.ms.toFixed(0)} ms, later ${later.ms.toFixed(0)} ms; all ${all.ms.toFixed(0)} ms`,
    );
    expect(first.ms).toBeLessThan(2000);
    expect(later.ms).toBeLessThan(2000);
    expect(all.ms).toBeLessThan(2000);
  }, 60_000);
});
