import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthMessages,
  AuthMessagesEn,
  FAMILY_TOKEN_PATH,
  SignInLimitMessages,
  TokenErrorCode,
  type FamilyAuthInfo,
} from '@mes/contracts';
import { loginLog, user } from '../src/platform/db/schema';
import { setParam } from './support/params';
import { ADMIN_PASSWORD, basic, createTestApp, md5, type TestApp } from './support/test-app';

/**
 * SpringBlade 3.7.1's token route (issue 30, point 9), as its console Saber 3.7.1 calls it: the
 * parameters in the query string, the password as typed, the client in the Basic header, the
 * reply in the envelope. The checks are `/oauth/token`'s: one set of limits for both routes, the
 * same revocation and session ends.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FROM = '192.0.2.10';

/** One call as Saber 3.7.1 makes it (`request({url, method: 'post', params})`). */
function family(params: Record<string, string>, options: { headers?: Record<string, string>; from?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `${FAMILY_TOKEN_PATH}?${new URLSearchParams(params).toString()}`,
    remoteAddress: options.from ?? FROM,
    headers: { authorization: basic(), ...options.headers },
  });
}

const signInParams = (account: string, password: string, extra: Record<string, string> = {}) => ({
  tenantId: '000000',
  account,
  password,
  type: 'account',
  grantType: 'password',
  ...extra,
});

const refreshParams = (refreshToken: string) => ({ grantType: 'refresh_token', refreshToken, scope: 'all' });

const info = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/blade-user/info', headers: { 'blade-auth': `bearer ${token}` } });

async function signedIn(account = 'admin', password = ADMIN_PASSWORD): Promise<FamilyAuthInfo> {
  const res = await family(signInParams(account, password));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: FamilyAuthInfo }>().data;
}

/** A user of tenant 000000 with the administrator's password and role. */
async function addUser(id: string, account: string): Promise<void> {
  const [admin] = await t.ctx.db.select().from(user).where(eq(user.account, 'admin'));
  await t.ctx.db.insert(user).values({
    id,
    tenantId: '000000',
    account,
    name: account,
    realName: account.toUpperCase(),
    password: admin!.password,
    roleId: admin!.roleId,
  });
}

describe('password grant', () => {
  it('signs in with the password as typed and answers AuthInfo in the envelope', async () => {
    const res = await family(signInParams('admin', ADMIN_PASSWORD));
    expect(res.statusCode).toBe(200);
    const body = res.json<{ code: number; success: boolean; data: FamilyAuthInfo; msg: string }>();
    expect(body).toMatchObject({ code: 200, success: true });
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'accessToken',
        'account',
        'authority',
        'avatar',
        'expiresIn',
        'license',
        'oauthId',
        'refreshToken',
        'tenantId',
        'tokenType',
        'userId',
        'userName',
      ].sort(),
    );
    expect(body.data).toMatchObject({
      tokenType: 'bearer',
      tenantId: '000000',
      userId: '1000000000000000601',
      account: 'admin',
      userName: '管理员',
      authority: 'administrator',
      expiresIn: 3600,
    });
    expect((await info(body.data.accessToken)).statusCode).toBe(200);
  });

  it('takes the md5 our own web app sends, and the parameters in a form body', async () => {
    expect((await family(signInParams('admin', md5(ADMIN_PASSWORD)))).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'POST',
      url: FAMILY_TOKEN_PATH,
      remoteAddress: FROM,
      headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(signInParams('admin', ADMIN_PASSWORD)).toString(),
    });
    expect(res.statusCode).toBe(200);
  });

  it('takes grantType password when none is sent, and the tenant 000000 when none is sent', async () => {
    const res = await family({ account: 'admin', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.tenantId).toBe('000000');
  });

  it('refuses a wrong password in the envelope, in the caller’s language, and logs the attempt', async () => {
    const res = await family(signInParams('admin', 'not the password'), { from: '192.0.2.11' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, success: false, data: null, msg: AuthMessages.badCredentials });
    const en = await family(signInParams('nobody', 'whatever'), {
      from: '192.0.2.11',
      headers: { 'accept-language': 'en' },
    });
    expect(en.json()).toEqual({ code: 400, success: false, data: null, msg: AuthMessagesEn.badCredentials });
    await t.ctx.logs.flush();
    const logged = await t.ctx.db.select().from(loginLog).where(eq(loginLog.account, 'nobody'));
    expect(logged.length).toBeGreaterThan(0);
  });

  it('refuses a missing password, an unknown client and a grant it does not serve', async () => {
    const missing = await family({ tenantId: '000000', account: 'admin', grantType: 'password' });
    expect(missing.json()).toMatchObject({ code: 400, msg: AuthMessages.missingPassword });
    const client = await family(signInParams('admin', ADMIN_PASSWORD), {
      headers: { authorization: basic('saber', 'wrong') },
    });
    expect(client.statusCode).toBe(401);
    expect(client.json()).toMatchObject({ code: 401, success: false, msg: AuthMessages.unknownClient });
    const social = await family({ grantType: 'social', source: 'github', code: 'x', state: 'y' });
    expect(social.json()).toMatchObject({ code: 400, msg: AuthMessages.unsupportedGrant });
  });
});

describe('one set of sign-in limits for both routes', () => {
  const oauth = (password: string, from: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      remoteAddress: from,
      headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        tenantId: '000000',
        username: 'limited',
        password: md5(password),
        grant_type: 'password',
      }).toString(),
    });

  beforeAll(() => addUser('9301', 'limited'));

  it('failures through /oauth/token count on /token: past the limit the right password needs the captcha', async () => {
    const from = '192.0.2.20';
    // account.failCount (5) from one address: four on the one route, the fifth on the other.
    for (let i = 0; i < 4; i++) expect((await oauth('wrong', from)).statusCode).toBe(400);
    const fifth = await family(signInParams('limited', 'wrong'), { from });
    expect(fifth.json()).toMatchObject({ code: TokenErrorCode.captchaRequired, success: false });
    const right = await family(signInParams('limited', ADMIN_PASSWORD), { from });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({
      code: TokenErrorCode.captchaRequired,
      success: false,
      data: null,
      msg: SignInLimitMessages.captchaAfterFailures,
    });
    // The family's captcha route and grant, as Saber sends them.
    const captcha = await t.app.inject({ method: 'GET', url: '/api/blade-auth/captcha' });
    expect(captcha.json()).toMatchObject({ code: 200, success: true });
    const { key, image } = captcha.json<{ data: { key: string; image: string } }>().data;
    expect(image).toMatch(/^data:image\/svg\+xml;base64,/);
    const code = (await t.ctx.store.get(`captcha:${key}`)) ?? '';
    const solved = await family(signInParams('limited', ADMIN_PASSWORD, { grantType: 'captcha' }), {
      from,
      headers: { 'captcha-key': key, 'captcha-code': code },
    });
    expect(solved.statusCode, solved.body).toBe(200);
    expect(solved.json().data.account).toBe('limited');
  });

  it('a wrong captcha is refused on /token as on /oauth/token', async () => {
    const res = await family(signInParams('limited', ADMIN_PASSWORD, { grantType: 'captcha' }), {
      from: '192.0.2.21',
      headers: { 'captcha-key': 'nope', 'captcha-code': 'abcd' },
    });
    expect(res.json()).toMatchObject({ code: 400, msg: AuthMessages.badCaptcha });
  });

  it('an address past account.ipFailCount waits on both routes (429 with Retry-After)', async () => {
    const from = '192.0.2.30';
    await setParam(t, 'account.ipFailCount', '3');
    try {
      for (let i = 0; i < 3; i++) await oauth('wrong', from);
      const waiting = await family(signInParams('admin', ADMIN_PASSWORD), { from });
      expect(waiting.statusCode).toBe(429);
      expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
      expect(waiting.json()).toMatchObject({ code: TokenErrorCode.tooManyAttempts, success: false });
    } finally {
      await setParam(t, 'account.ipFailCount', '20');
    }
  });

  it('captcha mode asks the password grant of /token for a captcha', async () => {
    await setParam(t, 'account.captchaMode', 'true');
    try {
      const res = await family(signInParams('admin', ADMIN_PASSWORD), { from: '192.0.2.40' });
      expect(res.json()).toMatchObject({
        code: TokenErrorCode.captchaRequired,
        msg: SignInLimitMessages.captchaRequired,
      });
    } finally {
      await setParam(t, 'account.captchaMode', 'false');
    }
  });
});

describe('refresh grant', () => {
  it('trades the refresh token for a new pair as Saber 3.7.1 asks (grantType, refreshToken, scope)', async () => {
    const first = await signedIn();
    const res = await family(refreshParams(first.refreshToken));
    expect(res.statusCode, res.body).toBe(200);
    const next = res.json<{ data: FamilyAuthInfo }>().data;
    expect(next).toMatchObject({ tokenType: 'bearer', account: 'admin', tenantId: '000000' });
    expect(next.accessToken).not.toBe(first.accessToken);
    expect((await info(next.accessToken)).statusCode).toBe(200);
    // As on /oauth/token, the refreshed-away session ends: its access token and its refresh token.
    expect((await info(first.accessToken)).statusCode).toBe(401);
    const again = await family(refreshParams(first.refreshToken));
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ code: 401, success: false, data: null, msg: AuthMessages.invalidRefreshToken });
  });

  it('a session signed out is refused with 401, which signs the family’s client out', async () => {
    const session = await signedIn();
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/logout',
      headers: { 'blade-auth': `bearer ${session.accessToken}` },
    });
    expect(out.statusCode).toBe(200);
    const res = await family(refreshParams(session.refreshToken));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401, success: false, msg: AuthMessages.invalidRefreshToken });
  });

  it('a session ended by a password reset is refused', async () => {
    await addUser('9302', 'resetme');
    const session = await signedIn('resetme');
    const admin = await signedIn();
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/reset-password?userIds=9302',
      headers: { 'blade-auth': `bearer ${admin.accessToken}` },
    });
    expect(reset.statusCode).toBe(200);
    const res = await family(refreshParams(session.refreshToken));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(401);
  });

  it('refuses an access token, garbage and nothing as a refresh token', async () => {
    const session = await signedIn();
    for (const token of [session.accessToken, 'not-a-token', '']) {
      const res = await family(refreshParams(token));
      expect(res.json()).toMatchObject({ code: 401, success: false, msg: AuthMessages.invalidRefreshToken });
    }
  });

  it('the pairs of both routes are the same tokens: /oauth/token refreshes a pair /token issued', async () => {
    const session = await signedIn();
    const res = await t.token({ grant_type: 'refresh_token', refresh_token: session.refreshToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().account).toBe('admin');
  });
});
