import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@mes/contracts';
import { socialSource, user, userOauth } from '../src/platform/db/schema';
import { OAuthTestServer } from './support/oauth-test-server';
import { ADMIN_PASSWORD, basic, createTestApp, md5, type TestApp } from './support/test-app';
import { allowLoopback, openRegistration } from './support/params';

let t: TestApp;
let admin: string;
let provider: OAuthTestServer;

const CLIENT_ID = 'mes-client-0001';
const CLIENT_SECRET = 'provider-secret-value';
const CALLBACK = 'http://localhost:80/oauth/callback';

beforeAll(async () => {
  t = await createTestApp();
  await allowLoopback(t);
  await openRegistration(t);
  admin = (await t.signIn()).access_token;
  provider = await new OAuthTestServer({ [CLIENT_ID]: CLIENT_SECRET }).start();
  const base = provider.baseUrl;
  await addSource({
    source: 'corp',
    name: '企业账号',
    category: 'oidc',
    authorizeUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    userInfoUrl: `${base}/userinfo`,
  });
  await addSource({
    source: 'github',
    name: 'GitHub',
    category: 'github',
    authorizeUrl: `${base}/login/oauth/authorize`,
    tokenUrl: `${base}/login/oauth/access_token`,
    userInfoUrl: `${base}/user`,
  });
  await addSource({
    source: 'gitee',
    name: 'Gitee',
    category: 'gitee',
    authorizeUrl: `${base}/oauth/authorize`,
    tokenUrl: `${base}/oauth/token`,
    userInfoUrl: `${base}/api/v5/user`,
  });
}, 120_000);
afterAll(async () => {
  await provider.stop();
  await t.close();
});

async function addSource(fields: Record<string, string>, clientSecret = CLIENT_SECRET) {
  const res = await t.as(admin, {
    method: 'POST',
    url: '/api/blade-resource/social/submit',
    payload: { clientId: CLIENT_ID, clientSecret, ...fields },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as string;
}

/** What the sign-in page does: ask for the authorize URL, let the provider approve, come back. */
async function visitProvider(source: string, tenantId = '000000') {
  const render = await t.app.inject({
    method: 'GET',
    url: `/api/blade-auth/oauth/render/${source}?tenantId=${tenantId}`,
  });
  expect(render.statusCode, render.body).toBe(200);
  const { url, state } = render.json().data as { url: string; state: string };
  const back = await provider.authorize(url);
  expect(back.state).toBe(state);
  return { url: new URL(url), code: back.code, state, redirect: back.redirect };
}

const socialGrant = (source: string, code: string, state: string, tenantId = '000000') =>
  t.token({ tenantId, source, code, state, grant_type: 'social', scope: 'all' });

const link = (params: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/social/link',
    headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ tenantId: '000000', ...params }).toString(),
  });

describe('provider settings', () => {
  it('lists a tenant’s providers publicly without any credential', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/social/sources?tenantId=000000' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { source: 'corp', name: '企业账号', category: 'oidc' },
      { source: 'gitee', name: 'Gitee', category: 'gitee' },
      { source: 'github', name: 'GitHub', category: 'github' },
    ]);
    const list = await t.as(admin, { method: 'GET', url: '/api/blade-resource/social/list' });
    expect(list.body).not.toContain(CLIENT_SECRET);
    expect(list.body).not.toContain(CLIENT_ID);
  });

  it('keeps the secret sealed at rest', async () => {
    const [row] = await t.ctx.db.select().from(socialSource).where(eq(socialSource.source, 'corp'));
    expect(row?.clientSecret.startsWith('enc:v1:')).toBe(true);
  });

  it('refuses a provider that could not work', async () => {
    const noSecret = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-resource/social/submit',
      payload: { source: 'nosecret', name: 'x', category: 'github', clientId: 'id' },
    });
    expect(noSecret.json().msg).toBe('请输入 Client Secret');
    const noUrls = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-resource/social/submit',
      payload: { source: 'nourls', name: 'x', category: 'oidc', clientId: 'id', clientSecret: 's' },
    });
    expect(noUrls.json().msg).toBe('请输入授权地址');
  });

  it('sends the browser to the provider with a fresh state and the web callback', async () => {
    const render = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/render/corp?tenantId=000000' });
    const data = render.json().data as { url: string; state: string; expiresIn: number };
    const url = new URL(data.url);
    expect(url.origin + url.pathname).toBe(`${provider.baseUrl}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: CALLBACK,
      scope: 'openid profile email',
      state: data.state,
      code_challenge_method: 'S256',
    });
    expect(data.expiresIn).toBe(600);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/render/nothere?tenantId=000000' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe('第三方登录来源不存在或未启用');
  });
});

describe('social sign-in (OpenID Connect)', () => {
  it('asks a first-time user to link, then links an existing account and signs in', async () => {
    provider.user = { id: 'sub-admin', login: 'boss', name: '老板', email: 'boss@example.com', avatar: '' };
    const first = await visitProvider('corp');
    const refused = await socialGrant('corp', first.code, first.state);
    expect(refused.statusCode).toBe(400);
    const body = refused.json();
    expect(body.error_description).toBe('该第三方账号尚未绑定系统账号,请绑定已有账号或注册新账号');
    expect(body).toMatchObject({ source: 'corp', username: 'boss', nickname: '老板' });
    expect(typeof body.oauth_id).toBe('string');
    // The server authenticated with client_secret_basic and proved PKCE.
    const seen = provider.tokenRequests.at(-1);
    expect(seen?.authorization.startsWith('Basic ')).toBe(true);
    expect(seen?.form.code_verifier).toBeTruthy();
    expect(seen?.form.client_secret).toBeUndefined();

    const wrong = await link({ oauthId: body.oauth_id, account: 'admin', password: md5('nope') });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error_description).toBe('用户名或密码不正确');
    const bad = await link({ oauthId: 'z'.repeat(43), account: 'admin', password: md5(ADMIN_PASSWORD) });
    expect(bad.json().error_description).toBe('第三方账号信息已失效,请重新发起第三方登录');

    const linked = await link({ oauthId: body.oauth_id, account: 'admin', password: md5(ADMIN_PASSWORD) });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json<TokenResponse>()).toMatchObject({ account: 'admin', token_type: 'bearer' });
    const [row] = await t.ctx.db.select().from(userOauth).where(eq(userOauth.uuid, 'sub-admin'));
    expect(row).toMatchObject({ source: 'corp', username: 'boss', userId: linked.json().user_id });
    expect(linked.json().oauth_id).toBe(row?.id);
    // The ticket is used up.
    const reuse = await link({ oauthId: body.oauth_id, account: 'admin', password: md5(ADMIN_PASSWORD) });
    expect(reuse.json().error_description).toBe('第三方账号信息已失效,请重新发起第三方登录');

    const second = await visitProvider('corp');
    const signedIn = await socialGrant('corp', second.code, second.state);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json<TokenResponse>()).toMatchObject({ account: 'admin', oauth_id: row?.id });
  });

  it('uses a state once, and only for the tenant and source it was issued for', async () => {
    provider.user = { id: 'sub-admin', login: 'boss', name: '老板', email: '', avatar: '' };
    const visit = await visitProvider('corp');
    expect((await socialGrant('corp', visit.code, visit.state)).statusCode).toBe(200);
    const replay = await socialGrant('corp', visit.code, visit.state);
    expect(replay.json().error_description).toBe('登录状态无效或已过期,请重新发起第三方登录');

    const other = await visitProvider('corp');
    expect((await socialGrant('github', other.code, other.state)).json().error_description).toBe(
      '登录状态无效或已过期,请重新发起第三方登录',
    );
    // The failed attempt used the state up: the right source cannot reuse it either.
    expect((await socialGrant('corp', other.code, other.state)).json().error_description).toBe(
      '登录状态无效或已过期,请重新发起第三方登录',
    );
    const forged = await socialGrant('corp', 'abc', 'q'.repeat(43));
    expect(forged.json().error_description).toBe('登录状态无效或已过期,请重新发起第三方登录');
    const missing = await t.token({ tenantId: '000000', source: 'corp', state: 'x', grant_type: 'social' });
    expect(missing.json().error_description).toBe('缺少第三方登录参数: code');
  });

  it('says what the provider refused', async () => {
    const visit = await visitProvider('corp');
    const res = await socialGrant('corp', 'not-the-code', visit.state);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_description).toBe('第三方授权失败: The code is incorrect or expired');
  });
});

describe('GitHub- and Gitee-shaped providers', () => {
  it('signs in through GitHub once the account is linked', async () => {
    provider.user = { id: '583231', login: 'octocat', name: 'The Octocat', email: '', avatar: 'https://a/1.png' };
    const first = await visitProvider('github');
    expect(first.url.searchParams.get('scope')).toBe('read:user user:email');
    expect(first.url.searchParams.has('code_challenge')).toBe(false);
    const refused = await socialGrant('github', first.code, first.state);
    expect(refused.json().username).toBe('octocat');
    const seen = provider.tokenRequests.at(-1);
    expect(seen?.form).toMatchObject({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uri: CALLBACK });

    const linked = await link({ oauthId: refused.json().oauth_id, account: 'admin', password: md5(ADMIN_PASSWORD) });
    expect(linked.statusCode).toBe(200);
    const again = await visitProvider('github');
    const res = await socialGrant('github', again.code, again.state);
    expect(res.statusCode).toBe(200);
    const [row] = await t.ctx.db
      .select()
      .from(userOauth)
      .where(and(eq(userOauth.source, 'github'), eq(userOauth.uuid, '583231')));
    expect(row).toMatchObject({ username: 'octocat', nickname: 'The Octocat', avatar: 'https://a/1.png' });
  });

  it('reports GitHub’s 200-with-error replies as refusals', async () => {
    const visit = await visitProvider('github');
    const res = await socialGrant('github', 'wrong', visit.state);
    expect(res.json().error_description).toBe('第三方授权失败: The code is incorrect or expired');
  });

  it('reads a Gitee user through its v5 API', async () => {
    provider.user = { id: '77', login: 'gitee-user', name: '码云用户', email: 'g@example.com', avatar: '' };
    const visit = await visitProvider('gitee');
    expect(visit.url.searchParams.get('scope')).toBe('user_info');
    const res = await socialGrant('gitee', visit.code, visit.state);
    expect(res.json()).toMatchObject({ username: 'gitee-user', nickname: '码云用户', source: 'gitee' });
    expect(provider.tokenRequests.at(-1)?.form.grant_type).toBe('authorization_code');
  });

  it('says so when the provider cannot be reached or the secret is wrong', async () => {
    const dead = 'http://127.0.0.1:9/token';
    await addSource({
      source: 'dead',
      name: 'dead',
      category: 'oidc',
      authorizeUrl: `${provider.baseUrl}/authorize`,
      tokenUrl: dead,
      userInfoUrl: dead,
    });
    const visit = await visitProvider('dead');
    const res = await socialGrant('dead', visit.code, visit.state);
    expect(res.json().error_description).toBe('第三方登录服务无法访问,请稍后再试');

    await addSource(
      {
        source: 'badsecret',
        name: 'bad',
        category: 'gitee',
        authorizeUrl: `${provider.baseUrl}/oauth/authorize`,
        tokenUrl: `${provider.baseUrl}/oauth/token`,
        userInfoUrl: `${provider.baseUrl}/api/v5/user`,
      },
      'not-the-secret',
    );
    const bad = await visitProvider('badsecret');
    const refused = await socialGrant('badsecret', bad.code, bad.state);
    expect(refused.json().error_description).toBe('第三方授权失败: Client authentication failed');
  });
});

describe('first-time social users who register as guests', () => {
  it('registers a pending account linked to the provider account; it signs in once approved', async () => {
    provider.user = { id: 'sub-guest', login: 'newbie', name: '新人', email: '', avatar: '' };
    const visit = await visitProvider('corp');
    const ticket = (await socialGrant('corp', visit.code, visit.state)).json().oauth_id as string;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/register-guest',
      payload: { tenantId: '000000', name: '新人', account: 'newbie', password: md5('Newbie#1'), oauthId: ticket },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const [guest] = await t.ctx.db.select().from(user).where(eq(user.account, 'newbie'));
    const [row] = await t.ctx.db.select().from(userOauth).where(eq(userOauth.uuid, 'sub-guest'));
    expect(row?.userId).toBe(guest?.id);

    const pending = await visitProvider('corp');
    expect((await socialGrant('corp', pending.code, pending.state)).json().error_description).toBe(
      '账号正在等待管理员审核',
    );
    const approve = await t.as(admin, { method: 'POST', url: `/api/blade-user/audit-pass?ids=${guest?.id}` });
    expect(approve.statusCode, approve.body).toBe(200);
    const approved = await visitProvider('corp');
    const res = await socialGrant('corp', approved.code, approved.state);
    expect(res.statusCode).toBe(200);
    expect(res.json<TokenResponse>()).toMatchObject({ account: 'newbie', role_name: 'user' });
  });

  it('refuses a registration naming a ticket that is not valid', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/register-guest',
      payload: { tenantId: '000000', account: 'tkt', password: md5('x'), oauthId: 'n'.repeat(43) },
    });
    expect(res.json().msg).toBe('第三方账号信息已失效,请重新发起第三方登录');
    expect(await t.ctx.db.select().from(user).where(eq(user.account, 'tkt'))).toEqual([]);
  });
});
