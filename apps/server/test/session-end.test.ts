import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@mes/contracts';
import { hashPassword } from '../src/platform/auth/passwords';
import { nextId } from '../src/platform/db/ids';
import { dept, role, tenant, user } from '../src/platform/db/schema';
import { DEPT_IDS } from '../src/seed/seed-data';
import { grantApiScopes } from './support/scoped-user';
import { startSecondProcess, type SecondProcess } from './support/second-process';
import { basic, createTestApp, md5, type TestApp } from './support/test-app';

/**
 * Every case changes an account through process A and sees the session refused by process B,
 * a second server on the same database (as a second API process would be), as soon as the
 * change notice arrives.
 */

let a: TestApp;
let b: SecondProcess;
let admin: string;
/** A user of the platform tenant no case touches: their session must outlive every case. */
let bystander: TokenResponse;

/** A role that may read posts, and one that may not. */
const READER_ROLE = '1000000000000009001';
const PLAIN_ROLE = '1000000000000009002';

beforeAll(async () => {
  a = await createTestApp();
  b = await startSecondProcess(a);
  admin = (await a.signIn()).access_token;
  await a.ctx.db.insert(role).values([
    { id: READER_ROLE, tenantId: '000000', roleName: '岗位查看', roleAlias: 'post_reader' },
    { id: PLAIN_ROLE, tenantId: '000000', roleName: '普通', roleAlias: 'plain' },
  ]);
  await grantApiScopes(a, READER_ROLE, ['post:read']);
  await addUser('bystander');
  bystander = await a.signIn('bystander', passwordOf('bystander'));
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const passwordOf = (account: string) => `${account}#Pass1`;
const on = (app: FastifyInstance, token: string, options: InjectOptions): Promise<LightMyRequestResponse> =>
  app.inject({ ...options, headers: { ...options.headers, 'blade-auth': `bearer ${token}` } });
const info = (app: FastifyInstance, token: string) => on(app, token, { method: 'GET', url: '/api/blade-user/info' });
const posts = (app: FastifyInstance, token: string) =>
  on(app, token, { method: 'GET', url: '/api/blade-system/post/list' });
const adminCall = (url: string) => on(a.app, admin, { method: 'POST', url });

/** The refresh grant on process B (refresh tokens are checked against the database itself). */
const refresh = (refreshToken: string, tenantId = '000000') =>
  b.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(), 'tenant-id': tenantId },
    payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, tenantId }).toString(),
  });

/** Polls until the status is the one expected (the notice travels between processes), or gives up. */
async function statusOn(expected: number, request: () => Promise<LightMyRequestResponse>): Promise<number> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const status = (await request()).statusCode;
    if (status === expected) return status;
    await new Promise((r) => setTimeout(r, 20));
  }
  return (await request()).statusCode;
}

/**
 * Adds a user through the user administration the way a BladeX client does (the typed password
 * in plain text), with the plain role unless told otherwise; returns its id.
 */
async function addUser(account: string, roleId = PLAIN_ROLE): Promise<string> {
  const res = await on(a.app, admin, {
    method: 'POST',
    url: '/api/blade-user/submit',
    payload: {
      account,
      password: passwordOf(account),
      name: account,
      realName: account,
      roleId,
      deptId: DEPT_IDS.east,
    },
  });
  expect(res.json(), res.body).toMatchObject({ success: true });
  return res.json().data as string;
}

/** A fresh user, signed in, whose session both processes have already seen. */
async function signedInUser(account: string, roleId = PLAIN_ROLE) {
  const id = await addUser(account, roleId);
  const session = await a.signIn(account, passwordOf(account));
  expect((await info(a.app, session.access_token)).statusCode).toBe(200);
  expect((await info(b.app, session.access_token)).statusCode).toBe(200);
  return { id, session };
}

/** The session is refused on both processes, and its refresh token with it. */
async function expectEnded(session: TokenResponse, tenantId = '000000') {
  expect((await info(a.app, session.access_token)).statusCode).toBe(401);
  expect(await statusOn(401, () => info(b.app, session.access_token))).toBe(401);
  const again = await refresh(session.refresh_token, tenantId);
  expect(again.statusCode).toBe(400);
}

async function expectBystanderSignedIn() {
  expect((await info(a.app, bystander.access_token)).statusCode).toBe(200);
  expect((await info(b.app, bystander.access_token)).statusCode).toBe(200);
}

describe('a session ends when its account changes, on every process', () => {
  it('user removed', async () => {
    const { id, session } = await signedInUser('removed1');
    expect((await adminCall(`/api/blade-user/remove?ids=${id}`)).statusCode).toBe(200);
    await expectEnded(session);
    await expectBystanderSignedIn();
  });

  it('password reset by an administrator', async () => {
    const { id, session } = await signedInUser('reset1');
    expect((await adminCall(`/api/blade-user/reset-password?userIds=${id}`)).statusCode).toBe(200);
    await expectEnded(session);
    await expectBystanderSignedIn();
    // The reset password signs in (123456 unless the parameter says otherwise).
    expect((await a.signIn('reset1', '123456')).user_id).toBe(id);
  });

  it('password changed by the user: every other session ends, the changing one goes on', async () => {
    await signedInUser('changer1');
    const other = await a.signIn('changer1', passwordOf('changer1'));
    const changing = await a.signIn('changer1', passwordOf('changer1'));
    expect((await info(b.app, other.access_token)).statusCode).toBe(200);
    expect((await info(b.app, changing.access_token)).statusCode).toBe(200);
    const query = new URLSearchParams({
      oldPassword: md5(passwordOf('changer1')),
      newPassword: md5('Changed#Pass2'),
      newPassword1: md5('Changed#Pass2'),
    });
    const res = await on(a.app, changing.access_token, {
      method: 'POST',
      url: `/api/blade-user/update-password?${query.toString()}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(other);
    expect((await info(a.app, changing.access_token)).statusCode).toBe(200);
    expect((await info(b.app, changing.access_token)).statusCode).toBe(200);
    const next = await refresh(changing.refresh_token);
    expect(next.statusCode, next.body).toBe(200);
    expect((await info(b.app, next.json<TokenResponse>().access_token)).statusCode).toBe(200);
    await expectBystanderSignedIn();
  });

  it('password changed by the user from another session: the session that changed it before ends', async () => {
    await signedInUser('changer2');
    const first = await a.signIn('changer2', passwordOf('changer2'));
    const second = await a.signIn('changer2', passwordOf('changer2'));
    const change = (token: string, from: string, to: string) =>
      on(b.app, token, {
        method: 'POST',
        url: `/api/blade-user/update-password?${new URLSearchParams({ oldPassword: md5(from), newPassword: md5(to), newPassword1: md5(to) }).toString()}`,
      });
    expect((await change(first.access_token, passwordOf('changer2'), 'Step#One1')).statusCode).toBe(200);
    expect(await statusOn(401, () => info(a.app, second.access_token))).toBe(401);
    const third = await a.signIn('changer2', 'Step#One1');
    expect((await change(third.access_token, 'Step#One1', 'Step#Two2')).statusCode).toBe(200);
    expect(await statusOn(401, () => info(a.app, first.access_token))).toBe(401);
    expect((await info(b.app, first.access_token)).statusCode).toBe(401);
    expect((await info(b.app, third.access_token)).statusCode).toBe(200);
  });

  it('roles changed: the rights of the old role are gone at once, the session goes on with the new ones', async () => {
    const { id, session } = await signedInUser('granted1', READER_ROLE);
    expect((await posts(b.app, session.access_token)).statusCode).toBe(200);
    expect((await adminCall(`/api/blade-user/grant?userIds=${id}&roleIds=${PLAIN_ROLE}`)).statusCode).toBe(200);
    expect((await posts(a.app, session.access_token)).statusCode).toBe(403);
    expect(await statusOn(403, () => posts(b.app, session.access_token))).toBe(403);
    expect((await info(b.app, session.access_token)).statusCode).toBe(200);
    // And given back through the user edit (the engine's submit): the right returns at once.
    const edit = await on(a.app, admin, {
      method: 'POST',
      url: '/api/blade-user/update',
      payload: { id, roleId: `${PLAIN_ROLE},${READER_ROLE}` },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await statusOn(200, () => posts(b.app, session.access_token))).toBe(200);
    await expectBystanderSignedIn();
  });

  it('user disabled outside the server (no route disables a user): refused within the safety-net minute', async () => {
    const { id, session } = await signedInUser('disabled1');
    await a.ctx.db.update(user).set({ status: 0 }).where(eq(user.id, id));
    a.clock.advance(61_000);
    await expectEnded(session);
    await expectBystanderSignedIn();
  });
});

describe('a session ends when its tenant is removed or expires', () => {
  /** A tenant with one user, inserted directly; returns the tenant row id and the user's session. */
  async function tenantWithUser(tenantId: string) {
    const tenantRow = nextId();
    const roleId = nextId();
    const deptId = nextId();
    await a.ctx.db.insert(tenant).values({ id: tenantRow, tenantId, tenantName: `租户${tenantId}`, linkman: '李四' });
    await a.ctx.db.insert(role).values({ id: roleId, tenantId, roleName: '管理员', roleAlias: 'admin' });
    await a.ctx.db
      .insert(dept)
      .values({ id: deptId, tenantId, parentId: '0', ancestors: '0', deptName: '公司', fullName: '公司' });
    await a.ctx.db.insert(user).values({
      id: nextId(),
      tenantId,
      account: 'admin',
      name: '管理员',
      realName: '管理员',
      password: await hashPassword(md5('Tenant#pass1')),
      roleId,
      deptId,
    });
    const session = await a.signIn('admin', 'Tenant#pass1', tenantId);
    expect((await info(a.app, session.access_token)).statusCode).toBe(200);
    expect((await info(b.app, session.access_token)).statusCode).toBe(200);
    return { tenantRow, session };
  }

  it('tenant removed', async () => {
    const { tenantRow, session } = await tenantWithUser('300001');
    expect((await adminCall(`/api/blade-system/tenant/remove?ids=${tenantRow}`)).statusCode).toBe(200);
    await expectEnded(session, '300001');
    await expectBystanderSignedIn();
  });

  it('tenant expiry moved into the past', async () => {
    const { tenantRow, session } = await tenantWithUser('300002');
    const setting = new URLSearchParams({ ids: tenantRow, accountNumber: '-1', expireTime: '2000-01-01 00:00:00' });
    const res = await adminCall(`/api/blade-system/tenant/setting?${setting.toString()}`);
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(session, '300002');
    await expectBystanderSignedIn();
  });

  it('tenant expiry reached while signed in, with no write at all', async () => {
    const { tenantRow, session } = await tenantWithUser('300003');
    const soon = new Date(a.clock.now() + 120_000);
    await a.ctx.db.update(tenant).set({ expireTime: soon }).where(eq(tenant.id, tenantRow));
    a.clock.advance(61_000); // past the safety net, so both processes have read the expiry
    expect((await info(b.app, session.access_token)).statusCode).toBe(200);
    a.clock.advance(60_000);
    await expectEnded(session, '300003');
  });
});
