import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserStatus, type TokenResponse } from '@mes/contracts';
import { param, role, tenant, user } from '../src/platform/db/schema';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, md5, type TestApp } from './support/test-app';
import { openRegistration } from './support/params';

let t: TestApp;
let admin: string;
let tenantPassword: string;

beforeAll(async () => {
  t = await createTestApp();
  await openRegistration(t);
  admin = (await t.signIn()).access_token;
  const [pw] = await t.ctx.db.select().from(param).where(eq(param.paramKey, 'tenant.default.password'));
  tenantPassword = pw?.paramValue ?? '';
}, 120_000);
afterAll(() => t.close());

const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/blade-user/register-guest', payload });

const guest = (account: string, extra: Record<string, unknown> = {}) => ({
  tenantId: '000000',
  name: '访客',
  account,
  password: md5(`${account}#Pass1`),
  oauthId: '',
  ...extra,
});

async function userRow(account: string, tenantId = '000000') {
  const [row] = await t.ctx.db
    .select()
    .from(user)
    .where(and(eq(user.tenantId, tenantId), eq(user.account, account), eq(user.isDeleted, 0)));
  return row;
}

const signInAs = (account: string, tenantId = '000000') =>
  t.token({ tenantId, username: account, password: md5(`${account}#Pass1`), grant_type: 'password', scope: 'all' });

const audit = (token: string, action: 'pass' | 'refuse', query: string) =>
  t.as(token, { method: 'POST', url: `/api/blade-user/audit-${action}?${query}` });

describe('guest registration', () => {
  it('creates a pending account without role that cannot sign in yet', async () => {
    const res = await register(guest('visitor1'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, msg: '注册申请已提交,请耐心等待管理员通过!' });
    const row = await userRow('visitor1');
    expect(row).toMatchObject({ status: UserStatus.pending, roleId: '', name: '访客', realName: '访客' });
    expect(row?.password).not.toContain(md5('visitor1#Pass1'));

    const pending = await signInAs('visitor1');
    expect(pending.statusCode).toBe(400);
    expect(pending.json().error_description).toBe('账号正在等待管理员审核');
    // Only the right password learns that the account is pending.
    const wrong = await t.token({
      tenantId: '000000',
      username: 'visitor1',
      password: md5('x'),
      grant_type: 'password',
    });
    expect(wrong.json().error_description).toBe('用户名或密码不正确');
  });

  it('takes a plain-text password as the BladeX console sends it, stored as its md5', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/register-guest',
      payload: { ...guest('plainpw'), password: 'Plain#123' },
    });
    expect(res.statusCode).toBe(200);
    const [userRole] = await t.ctx.db
      .select({ id: role.id })
      .from(role)
      .where(and(eq(role.tenantId, '000000'), eq(role.roleAlias, 'user')));
    await t.ctx.db
      .update(user)
      .set({ status: UserStatus.active, roleId: userRole?.id ?? '' })
      .where(eq(user.account, 'plainpw'));
    // Signing in sends the md5 of the typed text, as our page does: the same password.
    const session = await t.signIn('plainpw', 'Plain#123');
    expect(session.account).toBe('plainpw');
  });

  it('takes the form as a form body too, and the account as the name when none is given', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/register-guest',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...guest('visitor2'), name: '' }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(await userRow('visitor2')).toMatchObject({ name: 'visitor2', realName: '' });
  });

  it('checks the form in the dialog’s order with the same messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...guest('x'), tenantId: '' }, '请先输入租户编号'],
      [{ ...guest('x'), tenantId: '../etc' }, '租户编号格式不正确'],
      [{ ...guest('x'), account: ' ' }, '请先输入账号名称'],
      [{ ...guest('x'), password: '' }, '请先输入密码'],
      [guest('bad account!'), '账号只能包含字母、数字和 _ . @ -'],
      [{ ...guest('x'), name: '一个非常非常长的用户姓名' }, '用户姓名最长 10 个字符'],
    ];
    for (const [payload, msg] of cases) {
      const res = await register(payload);
      expect(res.statusCode, msg).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
  });

  it('does not tell whether the tenant or the account exists', async () => {
    const fresh = await register(guest('enum1'));
    expect(fresh.statusCode).toBe(200);
    expect(await userRow('enum1')).toBeDefined();
    const replies = [
      await register(guest('admin')),
      await register(guest('enum1')),
      await register(guest('enum2', { tenantId: '999999' })),
      await register(guest('enum3', { tenantId: 'zz9' })),
    ];
    for (const res of replies) {
      expect(res.statusCode).toBe(fresh.statusCode);
      expect(res.headers['content-type']).toBe(fresh.headers['content-type']);
      expect(res.body).toBe(fresh.body);
    }
    // Nothing was stored or changed for the existing accounts.
    expect((await userRow('admin'))?.status).toBe(UserStatus.active);
    expect(await userRow('enum2', '999999')).toBeUndefined();
  });

  it('is closed unless account.registerUser is true', async () => {
    await t.ctx.db.update(param).set({ paramValue: 'false' }).where(eq(param.paramKey, 'account.registerUser'));
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/blade-user/register-guest/enabled' })).json().data).toBe(
        false,
      );
      const res = await register(guest('closed1'));
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe('注册功能已关闭');
      expect(await userRow('closed1')).toBeUndefined();
    } finally {
      await t.ctx.db.update(param).set({ paramValue: 'true' }).where(eq(param.paramKey, 'account.registerUser'));
    }
    const open = await t.app.inject({ method: 'GET', url: '/api/blade-user/register-guest/enabled' });
    expect(open.json()).toMatchObject({ success: true, data: true });
  });

  it('respects the tenant’s account quota without saying so', async () => {
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-system/tenant/submit',
      payload: { tenantId: '300001', tenantName: '配额租户', linkman: 'ops' },
    });
    expect(created.statusCode, created.body).toBe(200);
    await t.ctx.db.update(tenant).set({ accountNumber: 1 }).where(eq(tenant.tenantId, '300001'));
    const res = await register(guest('quota1', { tenantId: '300001' }));
    expect(res.json()).toMatchObject({ success: true, msg: '注册申请已提交,请耐心等待管理员通过!' });
    expect(await userRow('quota1', '300001')).toBeUndefined();
    await t.ctx.db.update(tenant).set({ accountNumber: -1 }).where(eq(tenant.tenantId, '300001'));
  });
});

describe('approval', () => {
  it('lists pending users by status for the user screen', async () => {
    await register(guest('listed1'));
    const res = await t.as(admin, { method: 'GET', url: '/api/blade-user/page?status=0&size=100' });
    const accounts = (res.json().data.records as { account: string; status: number }[]).map((r) => r.account);
    expect(accounts).toContain('listed1');
    expect(accounts).not.toContain('admin');
  });

  it('approves with the tenant’s user role by default; the guest then signs in', async () => {
    await register(guest('approve1'));
    const row = await userRow('approve1');
    const res = await audit(admin, 'pass', `ids=${row?.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const signedIn = await signInAs('approve1');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json<TokenResponse>().role_name).toBe('user');
    // An active account is not pending any more.
    expect((await audit(admin, 'pass', `ids=${row?.id}`)).json().msg).toBe('只能审核待审核的用户');
  });

  it('gives the roles and department the approver picks', async () => {
    await register(guest('approve2'));
    const row = await userRow('approve2');
    const [hr] = await t.ctx.db
      .select()
      .from(role)
      .where(and(eq(role.tenantId, '000000'), eq(role.roleAlias, 'hr')));
    const dept = (await t.as(admin, { method: 'GET', url: '/api/blade-system/dept/list' })).json().data[0].id as string;
    const res = await audit(admin, 'pass', `ids=${row?.id}&roleIds=${hr?.id}&deptId=${dept}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await userRow('approve2')).toMatchObject({ status: UserStatus.active, roleId: hr?.id, deptId: dept });
  });

  it('refuses: the account is removed and its name may register again', async () => {
    await register(guest('refuse1'));
    const row = await userRow('refuse1');
    expect((await audit(admin, 'refuse', `ids=${row?.id}`)).statusCode).toBe(200);
    expect(await userRow('refuse1')).toBeUndefined();
    expect((await signInAs('refuse1')).json().error_description).toBe('用户名或密码不正确');
    expect((await register(guest('refuse1'))).statusCode).toBe(200);
    const admins = await userRow('admin');
    expect((await audit(admin, 'refuse', `ids=${admins?.id}`)).json().msg).toBe('只能审核待审核的用户');
  });

  it('needs the user:audit scope and cannot hand out the administrator role', async () => {
    await register(guest('approve3'));
    const row = await userRow('approve3');
    const plain = await signInWithScopes(t, { account: 'noaudit', codes: [] });
    expect((await audit(plain, 'pass', `ids=${row?.id}`)).statusCode).toBe(403);

    const auditor = await signInWithScopes(t, { account: 'auditor', codes: ['user:audit'] });
    const [administrator] = await t.ctx.db
      .select()
      .from(role)
      .where(and(eq(role.tenantId, '000000'), eq(role.roleAlias, 'administrator')));
    const res = await audit(auditor, 'pass', `ids=${row?.id}&roleIds=${administrator?.id}`);
    expect(res.statusCode).toBe(403);
    expect((await userRow('approve3'))?.status).toBe(UserStatus.pending);
    expect((await audit(auditor, 'pass', `ids=${row?.id}`)).statusCode).toBe(200);
  });

  it('acts only on the caller’s tenant, and asks for a role where the tenant has no user role', async () => {
    await register(guest('approve4'));
    const row = await userRow('approve4');
    const tenantAdmin = (await t.signIn('admin', tenantPassword, '300001')).access_token;
    const foreign = await audit(tenantAdmin, 'pass', `ids=${row?.id}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().msg).toBe('请为通过审核的用户选择角色');
    const [tenantRole] = await t.ctx.db.select().from(role).where(eq(role.tenantId, '300001'));
    const named = await audit(tenantAdmin, 'pass', `ids=${row?.id}&roleIds=${tenantRole?.id}`);
    expect(named.statusCode).toBe(404);
    expect((await audit(tenantAdmin, 'refuse', `ids=${row?.id}`)).statusCode).toBe(404);
    expect((await userRow('approve4'))?.status).toBe(UserStatus.pending);

    await register(guest('tguest', { tenantId: '300001' }));
    const own = await userRow('tguest', '300001');
    expect((await audit(tenantAdmin, 'pass', `ids=${own?.id}`)).json().msg).toBe('请为通过审核的用户选择角色');
    expect((await audit(tenantAdmin, 'pass', `ids=${own?.id}&roleIds=${tenantRole?.id}`)).statusCode).toBe(200);
    expect((await signInAs('tguest', '300001')).statusCode).toBe(200);
  });

  it('asks for ids', async () => {
    const res = await audit(admin, 'pass', '');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('缺少必要的请求参数: ids');
  });
});
