import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthMessages } from '@mes/contracts';
import { basic, createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const userInfo = (token: string) => t.as(token, { method: 'GET', url: '/api/blade-user/info' });
const refresh = (refreshToken: string, client = basic()) =>
  t.token({ grant_type: 'refresh_token', refresh_token: refreshToken, tenantId: '000000' }, { authorization: client });

describe('access tokens', () => {
  it('a fresh token is accepted; the JWT carries the contract claims', async () => {
    const s = await t.signIn();
    expect((await userInfo(s.access_token)).statusCode).toBe(200);
    const claims = decodeJwt(s.access_token);
    expect(claims).toMatchObject({
      tenant_id: '000000',
      user_id: s.user_id,
      dept_id: s.dept_id,
      role_id: s.role_id,
      account: 'admin',
      client_id: 'saber',
      token_type: 'access_token',
    });
    expect(claims.exp).toBeTypeOf('number');
  });

  it('an expired token gets 401', async () => {
    const app = await createTestApp();
    try {
      const s = await app.signIn();
      // Expiry is in whole seconds from the issue time: move to one second before it, whatever
      // the sub-second part of the clock was and however long the sign-in took.
      const exp = decodeJwt(s.access_token).exp! * 1000;
      expect(exp - app.clock.now()).toBeGreaterThan(3590_000);
      app.clock.advance(exp - 1000 - app.clock.now());
      expect((await app.as(s.access_token, { method: 'GET', url: '/api/blade-user/info' })).statusCode).toBe(200);
      app.clock.advance(2_000);
      const res = await app.as(s.access_token, { method: 'GET', url: '/api/blade-user/info' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 401, success: false, data: null, msg: '请求未授权' });
    } finally {
      await app.close();
    }
  });

  it('a token signed with another secret (another installation) gets 401', async () => {
    const other = await createTestApp();
    try {
      const foreign = await other.signIn();
      expect((await userInfo(foreign.access_token)).statusCode).toBe(401);
      const claims = decodeJwt((await t.signIn()).access_token);
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('guess'));
      expect((await userInfo(forged)).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('a tampered token gets 401', async () => {
    const s = await t.signIn();
    const [h, p, sig] = s.access_token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    payload.role_name = 'administrator,boss';
    payload.user_id = '1';
    const tampered = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
    expect((await userInfo(tampered)).statusCode).toBe(401);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect((await userInfo(unsigned)).statusCode).toBe(401);
  });

  it('a token without the password stamp (issued before sessions carried one) gets 401', async () => {
    const s = await t.signIn();
    const { stamp, ...claims } = decodeJwt(s.access_token);
    expect(stamp).toBeTypeOf('string');
    const resign = (payload: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(t.jwtSecret));
    expect((await userInfo(await resign({ ...claims, stamp }))).statusCode).toBe(200);
    expect((await userInfo(await resign(claims))).statusCode).toBe(401);
    expect((await userInfo(await resign({ ...claims, stamp: 'not-the-stamp' }))).statusCode).toBe(401);
  });

  it('a refresh token is not an access token', async () => {
    const s = await t.signIn();
    expect((await userInfo(s.refresh_token)).statusCode).toBe(401);
  });

  it.each([
    ['no header', {}],
    ['an empty bearer', { 'blade-auth': 'bearer ' }],
    ['garbage', { 'blade-auth': 'bearer not.a.jwt' }],
    ['the Authorization header instead', { authorization: 'Bearer x' }],
  ])('every protected route answers 401 with %s', async (_what, headers) => {
    for (const [method, url] of [
      ['GET', '/api/blade-user/info'],
      ['GET', '/api/blade-auth/oauth/user-info'],
      ['GET', '/api/blade-auth/oauth/logout'],
      ['POST', '/api/blade-auth/oauth/logout'],
      ['GET', '/api/blade-auth/oauth/clear-cache'],
      ['GET', '/api/blade-system/menu/routes'],
      ['GET', '/api/blade-system/menu/buttons'],
      ['GET', '/api/blade-system/dict/dictionary?code=sex'],
      ['GET', '/api/blade-system/dict/parent-list'],
      ['GET', '/api/no-such-route'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().code).toBe(401);
    }
  });
});

describe('logout', () => {
  it.each(['GET', 'POST'] as const)('%s logout ends the access token and its refresh token at once', async (method) => {
    const s = await t.signIn();
    const out = await t.as(s.access_token, {
      method,
      url: '/api/blade-auth/oauth/logout',
      ...(method === 'POST' ? { payload: { reason: 'bye' } } : {}),
    });
    expect(out.statusCode).toBe(200);
    expect((await userInfo(s.access_token)).statusCode).toBe(401);
    const again = await refresh(s.refresh_token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error_description).toBe(AuthMessages.invalidRefreshToken);
  });

  it('logging out one session leaves the others signed in', async () => {
    const a = await t.signIn();
    const b = await t.signIn();
    await t.as(a.access_token, { method: 'GET', url: '/api/blade-auth/oauth/logout' });
    expect((await userInfo(b.access_token)).statusCode).toBe(200);
  });
});

describe('refresh_token grant', () => {
  it('issues a new pair; the refreshed-away tokens stop working', async () => {
    const s = await t.signIn();
    const res = await refresh(s.refresh_token);
    expect(res.statusCode).toBe(200);
    const next = res.json();
    expect(next.access_token).not.toBe(s.access_token);
    expect(next.account).toBe('admin');
    expect((await userInfo(next.access_token)).statusCode).toBe(200);
    expect((await userInfo(s.access_token)).statusCode).toBe(401);
    expect((await refresh(s.refresh_token)).statusCode).toBe(400);
  });

  it('refuses an access token, garbage, another client, or an expired refresh token', async () => {
    const s = await t.signIn();
    expect((await refresh(s.access_token)).statusCode).toBe(400);
    expect((await refresh('garbage')).statusCode).toBe(400);
    expect((await refresh('')).statusCode).toBe(400);
    const other = await refresh(s.refresh_token, basic('sword', 'sword_secret'));
    expect(other.statusCode).toBe(400);
    expect(other.json().error_description).toBe(AuthMessages.invalidRefreshToken);

    const app = await createTestApp();
    try {
      const old = await app.signIn();
      app.clock.advance(604_800_000 + 1000);
      const res = await app.token({ grant_type: 'refresh_token', refresh_token: old.refresh_token });
      expect(res.statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });

  it('refuses a refresh token for another tenant than the one asked for', async () => {
    const s = await t.signIn();
    const res = await t.token({ grant_type: 'refresh_token', refresh_token: s.refresh_token, tenantId: '123456' });
    expect(res.statusCode).toBe(400);
  });
});

describe('clear-cache', () => {
  it('answers success for a signed-in user', async () => {
    const s = await t.signIn();
    const res = await t.as(s.access_token, { method: 'GET', url: '/api/blade-auth/oauth/clear-cache' });
    expect(res.json()).toMatchObject({ code: 200, success: true });
  });
});
