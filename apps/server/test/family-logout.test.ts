import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthMessages,
  FAMILY_CLIENT_LOGOUT_PATH,
  FAMILY_LOGOUT_PATH,
  FAMILY_TOKEN_PATH,
  type FamilyAuthInfo,
} from '@mes/contracts';
import { ADMIN_PASSWORD, basic, createTestApp, type TestApp } from './support/test-app';

/**
 * The family's sign-out (issue 30): Saber 3.7.1 posts `/blade-auth/logout` (no `/api`, no body)
 * with its Basic and Blade-Auth headers; SpringBlade 4.x serves it as `/api/blade-auth/logout`.
 * Either path ends the session as `/oauth/logout` does, and answers in SpringBlade's shape.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function familySignIn(): Promise<FamilyAuthInfo> {
  const params = new URLSearchParams({ tenantId: '000000', account: 'admin', password: ADMIN_PASSWORD });
  const res = await t.app.inject({
    method: 'POST',
    url: `${FAMILY_TOKEN_PATH}?${params.toString()}`,
    headers: { authorization: basic() },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: FamilyAuthInfo }>().data;
}

/** The call as Saber 3.7.1 makes it: `request({url, method: 'post'})`. */
const logout = (url: string, token?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: basic(), ...(token === undefined ? {} : { 'blade-auth': `bearer ${token}` }) },
  });

const info = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/blade-user/info', headers: { 'blade-auth': `bearer ${token}` } });

const refresh = (refreshToken: string) =>
  t.app.inject({
    method: 'POST',
    url: `${FAMILY_TOKEN_PATH}?${new URLSearchParams({ grantType: 'refresh_token', refreshToken }).toString()}`,
    headers: { authorization: basic() },
  });

describe.each([FAMILY_CLIENT_LOGOUT_PATH, FAMILY_LOGOUT_PATH])('POST %s', (path) => {
  it('ends the session: its access token and its refresh token are refused at once', async () => {
    const session = await familySignIn();
    const out = await logout(path, session.accessToken);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ code: 200, success: true, data: { code: '200', msg: '操作成功' }, msg: '操作成功' });
    expect((await info(session.accessToken)).statusCode).toBe(401);
    const again = await refresh(session.refreshToken);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ code: 401, success: false, msg: AuthMessages.invalidRefreshToken });
  });

  it('leaves the user’s other sessions signed in', async () => {
    const first = await familySignIn();
    const second = await familySignIn();
    expect((await logout(path, first.accessToken)).statusCode).toBe(200);
    expect((await info(second.accessToken)).statusCode).toBe(200);
  });

  it('answers 401 in the envelope without a session, with garbage, and a second time', async () => {
    const session = await familySignIn();
    await logout(path, session.accessToken);
    for (const token of [undefined, 'not.a.jwt', session.accessToken]) {
      const res = await logout(path, token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 401, success: false, data: null });
    }
  });
});

it('a session signed in on /oauth/token ends on the family’s route as well', async () => {
  const session = await t.signIn();
  expect((await logout(FAMILY_CLIENT_LOGOUT_PATH, session.access_token)).statusCode).toBe(200);
  expect((await info(session.access_token)).statusCode).toBe(401);
});
