import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthMessages, SignInLimitMessages, TokenErrorCode, type TokenResponse } from '@mes/contracts';
import { oauthClient, tenant, user } from '../src/platform/db/schema';
import { hashClientSecret } from '../src/platform/auth/passwords';
import { ADMIN_PASSWORD, basic, createTestApp, md5, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const passwordGrant = (username: string, password: string, extra: Record<string, string> = {}) => ({
  tenantId: '000000',
  username,
  password: md5(password),
  grant_type: 'password',
  scope: 'all',
  ...extra,
});

describe('password sign-in', () => {
  it('returns the OAuth success JSON of the contract', async () => {
    const res = await t.token(passwordGrant('admin', ADMIN_PASSWORD));
    expect(res.statusCode).toBe(200);
    const body = res.json<TokenResponse>();
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      tenant_id: '000000',
      user_id: '1000000000000000601',
      account: 'admin',
      user_name: '管理员',
      real_name: '管理员',
      role_name: 'administrator',
      detail: { type: 'web' },
    });
    for (const key of [
      'access_token',
      'refresh_token',
      'dept_id',
      'post_id',
      'role_id',
      'oauth_id',
      'avatar',
      'license',
    ]) {
      expect(body).toHaveProperty(key);
    }
    expect(typeof body.user_id).toBe('string');
  });

  it('accepts the parameters in the query string too', async () => {
    const q = new URLSearchParams(passwordGrant('admin', ADMIN_PASSWORD)).toString();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?${q}`,
      headers: { authorization: basic() },
    });
    expect(res.statusCode).toBe(200);
  });

  it('stores argon2id of the md5, never the password or its md5', async () => {
    const [row] = await t.ctx.db.select().from(user).where(eq(user.account, 'admin'));
    expect(row?.password).toMatch(/^\$argon2id\$/);
    expect(row?.password).not.toContain(md5(ADMIN_PASSWORD));
  });

  it('refuses a wrong password and an unknown account with the same message', async () => {
    const wrong = await t.token(passwordGrant('admin', 'not the password'));
    const unknown = await t.token(passwordGrant('nobody', 'whatever'));
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error_code: 400, error_description: AuthMessages.badCredentials });
    }
  });

  it('refuses an unknown tenant', async () => {
    const res = await t.token(passwordGrant('admin', ADMIN_PASSWORD, { tenantId: '999999' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe(AuthMessages.badCredentials);
  });

  it('refuses sign-in to an expired tenant', async () => {
    await t.ctx.db
      .insert(tenant)
      .values({ id: '9100', tenantId: '555555', tenantName: 'expired', expireTime: new Date(Date.now() - 1000) });
    await t.ctx.db.insert(user).values({
      id: '9101',
      tenantId: '555555',
      account: 'ops',
      password: (await t.ctx.db.select().from(user).where(eq(user.account, 'admin')))[0]!.password,
      roleId: '1',
    });
    const res = await t.token(passwordGrant('ops', ADMIN_PASSWORD, { tenantId: '555555' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe(AuthMessages.tenantExpired);
  });

  it('takes the tenant from the Tenant-Id header when the parameter is absent', async () => {
    const { tenantId: _omit, ...params } = passwordGrant('admin', ADMIN_PASSWORD);
    const res = await t.token(params, { 'tenant-id': '555555' });
    expect(res.json().error_description).toBe(AuthMessages.badCredentials);
    const ok = await t.token(params, { 'tenant-id': '000000' });
    expect(ok.statusCode).toBe(200);
  });
});

describe('client authentication', () => {
  it.each([
    ['a wrong client secret', basic('saber', 'wrong')],
    ['an unknown client', basic('nobody', 'saber_secret')],
    ['a malformed header', 'Basic !!!'],
    ['a bearer header', 'Bearer abc'],
  ])('answers 401 for %s', async (_what, authorization) => {
    const res = await t.token(passwordGrant('admin', ADMIN_PASSWORD), { authorization });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error_code: 401, error_description: AuthMessages.unknownClient });
  });

  it('answers 401 without the Basic header', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(passwordGrant('admin', ADMIN_PASSWORD)).toString(),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error_description).toBe(AuthMessages.unknownClient);
  });

  it('answers 401 for a grant type the client does not allow', async () => {
    await t.ctx.db.insert(oauthClient).values({
      id: '9200',
      clientId: 'kiosk',
      clientSecret: hashClientSecret('kiosk_secret'),
      authorizedGrantTypes: 'captcha',
      accessTokenValidity: 600,
      refreshTokenValidity: 3600,
    });
    const res = await t.token(passwordGrant('admin', ADMIN_PASSWORD), {
      authorization: basic('kiosk', 'kiosk_secret'),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error_description).toBe(AuthMessages.grantNotAllowed);
  });

  it('answers 400 for an unknown grant type', async () => {
    const res = await t.token(passwordGrant('admin', ADMIN_PASSWORD, { grant_type: 'implicit' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe(AuthMessages.unsupportedGrant);
  });

  it('a disabled client cannot sign in', async () => {
    await t.ctx.db.update(oauthClient).set({ status: 0 }).where(eq(oauthClient.clientId, 'kiosk'));
    const res = await t.token(passwordGrant('admin', ADMIN_PASSWORD, { grant_type: 'captcha' }), {
      authorization: basic('kiosk', 'kiosk_secret'),
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('captcha sign-in', () => {
  async function captcha(): Promise<{ key: string; code: string; image: string }> {
    const res = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
    expect(res.statusCode).toBe(200);
    const { key, image } = res.json<{ key: string; image: string }>();
    // The code is only in the store; the test reads it there, as a person reads the image.
    const code = (await t.ctx.store.get(`captcha:${key}`)) ?? '';
    return { key, code, image };
  }
  const captchaGrant = () => passwordGrant('admin', ADMIN_PASSWORD, { grant_type: 'captcha' });

  it('returns a key and an SVG data URL', async () => {
    const c = await captcha();
    expect(c.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(c.image.split(',')[1]!, 'base64').toString()).toContain('<svg');
  });

  it('signs in with the right code, case-insensitively', async () => {
    const c = await captcha();
    const res = await t.token(captchaGrant(), { 'captcha-key': c.key, 'captcha-code': c.code.toUpperCase() });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a missing, wrong, reused or expired code', async () => {
    const missing = await t.token(captchaGrant());
    const c1 = await captcha();
    const wrong = await t.token(captchaGrant(), { 'captcha-key': c1.key, 'captcha-code': 'zzzz' });
    // A wrong guess uses the code up: the right code no longer works either.
    const afterWrong = await t.token(captchaGrant(), { 'captcha-key': c1.key, 'captcha-code': c1.code });
    const c2 = await captcha();
    const first = await t.token(captchaGrant(), { 'captcha-key': c2.key, 'captcha-code': c2.code });
    const reused = await t.token(captchaGrant(), { 'captcha-key': c2.key, 'captcha-code': c2.code });
    const c3 = await captcha();
    t.clock.advance(5 * 60 * 1000 + 1000);
    const expired = await t.token(captchaGrant(), { 'captcha-key': c3.key, 'captcha-code': c3.code });
    expect(first.statusCode).toBe(200);
    for (const res of [missing, wrong, afterWrong, reused, expired]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error_description).toBe(AuthMessages.badCaptcha);
    }
  });
});

describe('failure limit of an account', () => {
  it('after account.failCount failures asks for the captcha instead of refusing the right password', async () => {
    const app = await createTestApp();
    try {
      const results: unknown[] = [];
      for (let i = 0; i < 5; i++) results.push((await app.token(passwordGrant('admin', 'wrong'))).json());
      expect(results.slice(0, 4)).toEqual(
        Array(4).fill({ error_code: 400, error_description: AuthMessages.badCredentials }),
      );
      // The failure that reaches the limit says so: the next try needs the captcha.
      expect(results[4]).toEqual({
        error_code: TokenErrorCode.captchaRequired,
        error_description: SignInLimitMessages.badCredentialsCaptchaNext,
      });
      const withoutCaptcha = await app.token(passwordGrant('admin', ADMIN_PASSWORD));
      expect(withoutCaptcha.statusCode).toBe(400);
      expect(withoutCaptcha.json()).toEqual({
        error_code: TokenErrorCode.captchaRequired,
        error_description: SignInLimitMessages.captchaAfterFailures,
      });
      const key = (await app.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' })).json().key;
      const code = (await app.ctx.store.get(`captcha:${key}`)) ?? '';
      const res = await app.token(passwordGrant('admin', ADMIN_PASSWORD, { grant_type: 'captcha' }), {
        'captcha-key': key,
        'captcha-code': code,
      });
      expect(res.statusCode).toBe(200);
      // The success forgot the failures: the password grant works again.
      expect((await app.token(passwordGrant('admin', ADMIN_PASSWORD))).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('a success resets the count of consecutive failures', async () => {
    const app = await createTestApp();
    try {
      for (let i = 0; i < 4; i++) await app.token(passwordGrant('admin', 'wrong'));
      expect((await app.token(passwordGrant('admin', ADMIN_PASSWORD))).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) await app.token(passwordGrant('admin', 'wrong'));
      expect((await app.token(passwordGrant('admin', ADMIN_PASSWORD))).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('signed-in user', () => {
  it('user-info returns the user and role aliases', async () => {
    const session = await t.signIn();
    const res = await t.as(session.access_token, { method: 'GET', url: '/api/blade-auth/oauth/user-info' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 200,
      success: true,
      msg: '操作成功',
      data: { account: 'admin', tenantId: '000000', roles: ['administrator'], roleName: 'administrator' },
    });
  });

  it('blade-user/info returns the profile with names and never the password', async () => {
    const session = await t.signIn();
    const res = await t.as(session.access_token, { method: 'GET', url: '/api/blade-user/info' });
    const data = res.json().data;
    expect(data).toMatchObject({
      account: 'admin',
      roleName: '超级管理员',
      deptName: '机械集团',
      tenantName: '管理组',
    });
    expect(data).not.toHaveProperty('password');
    expect(data.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});
