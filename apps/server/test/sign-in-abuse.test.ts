import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthMessages, SignInLimitMessages, TokenErrorCode } from '@mes/contracts';
import { MAX_WAIT_MS } from '../src/modules/auth/sign-in-limits';
import { SocialMessages } from '../src/modules/auth/social/social-session';
import { oauthClient } from '../src/platform/db/schema';
import { hashClientSecret } from '../src/platform/auth/passwords';
import { setParam } from './support/params';
import { ADMIN_PASSWORD, basic, createTestApp, md5, type TestApp } from './support/test-app';

/**
 * Sign-in abuse (issue 11, point 5): password spraying from one address, the account limit that
 * asks for a captcha instead of locking the owner out, captcha mode, and the client address
 * behind trusted proxies only.
 */
const ATTACKER = '203.0.113.7';
const OWNER = '198.51.100.9';
const TOKEN = '/api/blade-auth/oauth/token';
const WINDOW_MS = 30 * 60_000;

interface Attempt {
  account?: string;
  password?: string;
  from?: string;
  grant?: 'password' | 'captcha';
  captcha?: { key: string; code: string };
  headers?: Record<string, string>;
}

function attempt(t: TestApp, a: Attempt) {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: basic(),
    'tenant-id': '000000',
    ...a.headers,
  };
  if (a.captcha) Object.assign(headers, { 'captcha-key': a.captcha.key, 'captcha-code': a.captcha.code });
  return t.app.inject({
    method: 'POST',
    url: TOKEN,
    remoteAddress: a.from ?? ATTACKER,
    headers,
    payload: new URLSearchParams({
      tenantId: '000000',
      username: a.account ?? 'admin',
      password: md5(a.password ?? 'wrong'),
      grant_type: a.grant ?? (a.captcha ? 'captcha' : 'password'),
      scope: 'all',
    }).toString(),
  });
}

/** A captcha as a person solves it: the code is read where only the server keeps it. */
async function solvedCaptcha(t: TestApp): Promise<{ key: string; code: string }> {
  const { key } = (await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' })).json<{ key: string }>();
  return { key, code: (await t.ctx.store.get(`captcha:${key}`)) ?? '' };
}

/** Moves the clock to the start of a failure window, so no window boundary falls inside a test. */
const startOfWindow = (t: TestApp, windowMs = WINDOW_MS) =>
  t.clock.advance(windowMs - (t.clock.now() % windowMs) + 1000);

const codeOf = (res: { json: () => { error_code?: number } }) => res.json().error_code;
const captchaNeeded = {
  error_code: TokenErrorCode.captchaRequired,
  error_description: SignInLimitMessages.captchaAfterFailures,
};

describe('password spraying from one address', () => {
  // A day's window: the test moves the clock through the growing waits without the count fading.
  const DAY_MS = 24 * 60 * 60_000;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await setParam(t, 'account.failWindowMinutes', '1440');
    startOfWindow(t, DAY_MS);
  });
  afterAll(() => t.close());

  it('40 accounts from one address: past 20 failures no password is checked, other addresses are not slowed', async () => {
    const replies = [];
    for (let i = 0; i < 40; i++) replies.push(await attempt(t, { account: `user${i}`, password: 'Spring2024!' }));
    for (const res of replies.slice(0, 19)) expect(res.json().error_description).toBe(AuthMessages.badCredentials);
    expect(replies[19]?.json()).toEqual({
      error_code: TokenErrorCode.captchaRequired,
      error_description: SignInLimitMessages.badCredentialsCaptchaNext,
    });
    // Either waiting (429) or asked for the captcha (428): never a password check.
    for (const res of replies.slice(20)) expect([428, 429]).toContain(codeOf(res));

    // Another address: passwords are checked, the right one signs in.
    const wrong = await attempt(t, { account: 'user1', from: OWNER });
    expect(wrong.json()).toEqual({ error_code: 400, error_description: AuthMessages.badCredentials });
    expect((await attempt(t, { password: ADMIN_PASSWORD, from: OWNER })).statusCode).toBe(200);
  });

  it('past its limit an address waits after each failure, doubling up to 15 minutes; the right password still signs in', async () => {
    t.clock.advance(2000); // the 1 s wait of the 20th failure
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const failed = await attempt(t, { account: `user${i}`, captcha: await solvedCaptcha(t) });
      expect(failed.json().error_description).toBe(SignInLimitMessages.badCredentialsCaptchaNext);
      const wait = 2 ** (i + 1); // seconds: the 21st failure waits 2 s, the 22nd 4 s, ...
      // Asked again at once (checked only where the wait is long enough not to pass meanwhile).
      if (wait >= 8) {
        const early = await attempt(t, { account: `user${i}`, captcha: await solvedCaptcha(t) });
        expect(early.statusCode).toBe(429);
        expect(early.json()).toEqual({
          error_code: TokenErrorCode.tooManyAttempts,
          error_description: SignInLimitMessages.tooManyAttempts,
        });
        waits.push(Number(early.headers['retry-after']));
      }
      t.clock.advance(Math.min(wait * 1000, MAX_WAIT_MS));
    }
    // 8, 16, ... 512 s, then the 15-minute ceiling (less the moment between two requests).
    const expected = [8, 16, 32, 64, 128, 256, 512, 900, 900, 900];
    expect(waits).toHaveLength(expected.length);
    waits.forEach((w, i) => {
      expect(w).toBeLessThanOrEqual(expected[i]!);
      expect(w).toBeGreaterThanOrEqual(expected[i]! - 2);
    });

    expect((await attempt(t, { password: ADMIN_PASSWORD })).json()).toEqual(captchaNeeded);
    const signedIn = await attempt(t, { password: ADMIN_PASSWORD, captcha: await solvedCaptcha(t) });
    expect(signedIn.statusCode).toBe(200);
    // Signing in to an account of its own does not reset the address's count.
    expect((await attempt(t, { password: ADMIN_PASSWORD })).json()).toEqual(captchaNeeded);
  });

  it('the address is free again one window after its last failures', async () => {
    t.clock.advance(2 * DAY_MS);
    expect((await attempt(t, { password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });
});

describe('failure limit of one account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    startOfWindow(t);
  });
  afterAll(() => t.close());

  it('after account.failCount failures the attacker’s address needs the captcha; the owner signs in at once', async () => {
    for (let i = 0; i < 5; i++) await attempt(t, {});
    expect((await attempt(t, { password: ADMIN_PASSWORD })).json()).toEqual(captchaNeeded);
    // The owner elsewhere is not touched by the attacker's failures.
    expect((await attempt(t, { password: ADMIN_PASSWORD, from: OWNER })).statusCode).toBe(200);
    // The attacker's address still needs the captcha for this account (only for this one).
    expect((await attempt(t, { password: ADMIN_PASSWORD })).json()).toEqual(captchaNeeded);
    expect((await attempt(t, { account: 'nobody' })).json().error_description).toBe(AuthMessages.badCredentials);
    // With a captcha the right password signs in from the attacker's address too.
    expect((await attempt(t, { password: ADMIN_PASSWORD, captcha: await solvedCaptcha(t) })).statusCode).toBe(200);
    expect((await attempt(t, { password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });

  it('a wrong or missing captcha does not get past the limit', async () => {
    for (let i = 0; i < 5; i++) await attempt(t, {});
    const wrong = await attempt(t, {
      password: ADMIN_PASSWORD,
      captcha: { key: (await solvedCaptcha(t)).key, code: 'zzzz' },
    });
    expect(wrong.json()).toEqual({ error_code: 400, error_description: AuthMessages.badCaptcha });
    const missing = await attempt(t, { password: ADMIN_PASSWORD, grant: 'captcha' });
    expect(missing.json().error_description).toBe(AuthMessages.badCaptcha);
    expect((await attempt(t, { password: ADMIN_PASSWORD })).json()).toEqual(captchaNeeded);
  });

  it('the administrators’ unlock forgets the failures from every address', async () => {
    const { unlockAccount } = await import('../src/modules/auth/sign-in');
    await unlockAccount(t.ctx, '000000', 'admin');
    expect((await attempt(t, { password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });

  it('parallel guesses cannot all slip under the limit', async () => {
    const replies = await Promise.all(
      Array.from({ length: 12 }, () => attempt(t, { account: 'burst', from: '192.0.2.44' })),
    );
    const checked = replies.filter((r) => r.json().error_description !== SignInLimitMessages.captchaAfterFailures);
    expect(checked.length).toBeLessThanOrEqual(5);
  });

  it('failures from many addresses past account.accountFailCount need the captcha from every address', async () => {
    await setParam(t, 'account.accountFailCount', '8');
    const addresses = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'];
    for (const from of addresses) for (let i = 0; i < 2; i++) await attempt(t, { account: 'carol', from });
    expect((await attempt(t, { account: 'carol', from: OWNER })).json()).toEqual(captchaNeeded);
    // Other accounts are not affected; the right password with a captcha signs in.
    expect((await attempt(t, { account: 'dave', from: OWNER })).json().error_description).toBe(
      AuthMessages.badCredentials,
    );
    expect((await attempt(t, { password: ADMIN_PASSWORD, from: OWNER })).statusCode).toBe(200);
  });
});

describe('captcha mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await setParam(t, 'account.captchaMode', 'true');
  });
  afterAll(() => t.close());

  const options = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/sign-in-options' })).json();

  it('tells the sign-in page', async () => {
    expect(await options()).toMatchObject({ success: true, data: { captchaMode: true } });
  });

  it('refuses the password grant, even the right password, and lets the captcha grant in', async () => {
    expect((await attempt(t, { password: ADMIN_PASSWORD })).json()).toEqual({
      error_code: TokenErrorCode.captchaRequired,
      error_description: SignInLimitMessages.captchaRequired,
    });
    expect((await attempt(t, { password: ADMIN_PASSWORD, captcha: await solvedCaptcha(t) })).statusCode).toBe(200);
  });

  it('no client skips it', async () => {
    await t.ctx.db.insert(oauthClient).values({
      id: '9300',
      clientId: 'robot',
      clientSecret: hashClientSecret('robot_secret'),
      authorizedGrantTypes: 'password',
      accessTokenValidity: 600,
      refreshTokenValidity: 3600,
    });
    const res = await attempt(t, {
      password: ADMIN_PASSWORD,
      headers: { authorization: basic('robot', 'robot_secret') },
    });
    expect(res.json().error_code).toBe(TokenErrorCode.captchaRequired);
  });

  it('the social link proves a password: it needs the captcha too', async () => {
    const link = (headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/blade-auth/oauth/social/link',
        headers: { authorization: basic(), 'tenant-id': '000000', ...headers },
        payload: { tenantId: '000000', oauthId: 'no-such-ticket', account: 'admin', password: md5(ADMIN_PASSWORD) },
      });
    expect((await link()).json()).toEqual({
      error_code: TokenErrorCode.captchaRequired,
      error_description: SignInLimitMessages.captchaRequired,
    });
    expect((await link({ 'captcha-key': 'x', 'captcha-code': 'y' })).json().error_description).toBe(
      AuthMessages.badCaptcha,
    );
    // With a solved captcha the call goes on to the ticket.
    const c = await solvedCaptcha(t);
    expect((await link({ 'captcha-key': c.key, 'captcha-code': c.code })).json().error_description).toBe(
      SocialMessages.badTicket.zh,
    );
  });

  it('is off when the param says so', async () => {
    await setParam(t, 'account.captchaMode', 'false');
    expect(await options()).toMatchObject({ data: { captchaMode: false } });
    expect((await attempt(t, { password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });
});

describe('client address behind a proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ appOptions: { trustProxy: ['127.0.0.1'] } });
    await setParam(t, 'account.ipFailCount', '3');
    startOfWindow(t);
  });
  afterAll(() => t.close());

  const spray = (from: string, forwarded: (i: number) => string | undefined, n = 3) =>
    (async () => {
      const replies = [];
      for (let i = 0; i < n; i++) {
        const xff = forwarded(i);
        replies.push(await attempt(t, { account: `x${i}`, from, headers: xff ? { 'x-forwarded-for': xff } : {} }));
      }
      return replies;
    })();
  const checked = (res: { json: () => { error_description?: string } }) =>
    res.json().error_description === AuthMessages.badCredentials;

  it('a forged X-Forwarded-For from an untrusted peer does not change the counted address', async () => {
    await spray('10.9.9.9', (i) => `1.1.1.${i}`);
    const next = await attempt(t, { account: 'y', from: '10.9.9.9', headers: { 'x-forwarded-for': '1.1.1.99' } });
    expect([428, 429]).toContain(codeOf(next));
  });

  it('from a trusted proxy the forwarded address is the one counted', async () => {
    await spray('127.0.0.1', () => '203.0.113.50');
    const same = await attempt(t, { account: 'y', from: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.50' } });
    expect([428, 429]).toContain(codeOf(same));
    // Another client behind the same proxy, and the proxy's own address, are not slowed.
    const other = await attempt(t, { account: 'y', from: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.51' } });
    expect(checked(other)).toBe(true);
    expect(checked(await attempt(t, { account: 'y', from: '127.0.0.1' }))).toBe(true);
  });

  it('counts an IPv6 client by its /64 network', async () => {
    await spray('2001:db8:1:2::1', () => undefined);
    const sameNetwork = await attempt(t, { account: 'y', from: '2001:db8:1:2:ffff::9' });
    expect([428, 429]).toContain(codeOf(sameNetwork));
    expect(checked(await attempt(t, { account: 'y', from: '2001:db8:1:3::1' }))).toBe(true);
  });
});
