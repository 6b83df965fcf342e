import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QrSession, TokenResponse } from '@mes/contracts';
import { QR_TTL_MS } from '../src/modules/auth/qr/qr-session';
import { param } from '../src/platform/db/schema';
import { signInWithScopes } from './support/scoped-user';
import { basic, createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;
let adminUserId: string;
let colleague: string;
let otherTenantAdmin: string;

beforeAll(async () => {
  t = await createTestApp();
  const signedIn = await t.signIn();
  admin = signedIn.access_token;
  adminUserId = signedIn.user_id;
  colleague = await signInWithScopes(t, { account: 'qrmate', codes: [] });
  const created = await t.as(admin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId: '200001', tenantName: '扫码租户', linkman: 'ops' },
  });
  expect(created.statusCode).toBe(200);
  const [pw] = await t.ctx.db.select().from(param).where(eq(param.paramKey, 'tenant.default.password'));
  otherTenantAdmin = (await t.signIn('admin', pw?.paramValue ?? '', '200001')).access_token;
}, 120_000);
afterAll(() => t.close());

async function newCode(query = 'tenantId=000000', headers: Record<string, string> = {}): Promise<QrSession> {
  const res = await t.app.inject({ method: 'GET', url: `/api/blade-auth/oauth/qrcode?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as QrSession;
}

const status = async (qr: { code: string; state: string }) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/blade-auth/oauth/qrcode/status?code=${qr.code}&state=${qr.state}`,
  });
  return { statusCode: res.statusCode, body: res.json() };
};

const act = (token: string, action: 'scan' | 'confirm' | 'cancel', code: string) =>
  t.as(token, { method: 'POST', url: `/api/blade-auth/oauth/qrcode/${action}`, payload: { code } });

const qrLogin = (qr: { code: string; state: string }, tenantId = '000000') =>
  t.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/qrlogin',
    headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ tenantId, code: qr.code, state: qr.state, grant_type: 'qr' }).toString(),
  });

describe('QR sign-in session', () => {
  it('hands out a code, its secret state, a confirm link and an SVG image', async () => {
    const qr = await newCode();
    expect(qr.expiresIn).toBe(QR_TTL_MS / 1000);
    expect(qr.link).toBe(`http://localhost:80/qr-confirm?code=${qr.code}`);
    expect(qr.image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.image.split(',')[1] ?? '', 'base64').toString()).toContain('<svg');
    // The state is not in the link: whoever sees the QR code cannot poll or sign in with it.
    expect(qr.link).not.toContain(qr.state);
    expect(await status(qr)).toMatchObject({ statusCode: 200, body: { data: { status: 'waiting' } } });
    expect((await status({ code: qr.code, state: 'x'.repeat(43) })).body.msg).toBe('二维码无效');
  });

  it('links to the origin the page names only when it is this host', async () => {
    const https = await newCode(`tenantId=000000&origin=${encodeURIComponent('https://localhost')}`, {
      host: 'localhost',
    });
    expect(https.link.startsWith('https://localhost/qr-confirm?code=')).toBe(true);
    const foreign = await newCode(`tenantId=000000&origin=${encodeURIComponent('https://evil.example')}`);
    expect(foreign.link.startsWith('http://localhost:80/qr-confirm')).toBe(true);
  });

  it('refuses a tenant that does not exist', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/qrcode?tenantId=999999' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('未获得用户的租户信息');
  });

  it('signs in as the user who confirmed, once, after scan and confirm', async () => {
    const qr = await newCode();
    expect((await qrLogin(qr)).json().error_description).toBe('二维码尚未确认');

    const scanned = await act(admin, 'scan', qr.code);
    expect(scanned.statusCode).toBe(200);
    expect(scanned.json().data).toMatchObject({ status: 'scanned', tenantId: '000000' });
    expect(scanned.json().data.requestTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await status(qr)).body.data.status).toBe('scanned');
    expect((await qrLogin(qr)).json().error_description).toBe('二维码尚未确认');

    expect((await act(admin, 'confirm', qr.code)).json().data.status).toBe('confirmed');
    expect((await status(qr)).body.data.status).toBe('confirmed');

    // The code alone is not enough, nor the state of another tenant.
    expect((await qrLogin({ code: qr.code, state: 'y'.repeat(43) })).json().error_description).toBe('二维码无效');
    expect((await qrLogin(qr, '200001')).json().error_description).toBe('二维码无效');

    const ok = await qrLogin(qr);
    expect(ok.statusCode).toBe(200);
    const body = ok.json<TokenResponse>();
    expect(body).toMatchObject({ token_type: 'bearer', user_id: adminUserId, account: 'admin', tenant_id: '000000' });
    const info = await t.as(body.access_token, { method: 'GET', url: '/api/blade-auth/oauth/user-info' });
    expect(info.json().data.account).toBe('admin');

    const again = await qrLogin(qr);
    expect(again.statusCode).toBe(400);
    expect(again.json().error_description).toBe('二维码无效');
  });

  it('also answers grant_type=qr at the token endpoint', async () => {
    const qr = await newCode();
    await act(colleague, 'confirm', qr.code);
    const res = await t.token({ tenantId: '000000', code: qr.code, state: qr.state, grant_type: 'qr' });
    expect(res.statusCode).toBe(200);
    expect(res.json<TokenResponse>().account).toBe('qrmate');
  });

  it('expires codes nobody confirmed in time', async () => {
    const qr = await newCode();
    await act(admin, 'scan', qr.code);
    t.clock.advance(QR_TTL_MS + 1000);
    expect((await status(qr)).body.data).toEqual({ status: 'expired', expiresIn: 0 });
    const confirm = await act(admin, 'confirm', qr.code);
    expect(confirm.statusCode).toBe(400);
    expect(confirm.json().msg).toBe('二维码已过期');
    expect((await qrLogin(qr)).json().error_description).toBe('二维码已过期');
  });

  it('gives a confirmed code time to sign in even at the end of its life', async () => {
    const qr = await newCode();
    t.clock.advance(QR_TTL_MS - 1000);
    await act(admin, 'confirm', qr.code);
    t.clock.advance(5000);
    expect((await qrLogin(qr)).statusCode).toBe(200);
  });

  it('stops at a cancelled code', async () => {
    const qr = await newCode();
    await act(admin, 'scan', qr.code);
    expect((await act(admin, 'cancel', qr.code)).json().data.status).toBe('cancelled');
    expect((await status(qr)).body.data.status).toBe('cancelled');
    expect((await act(admin, 'confirm', qr.code)).json().msg).toBe('二维码已取消');
    expect((await qrLogin(qr)).json().error_description).toBe('二维码已取消');
  });

  it('is confirmed only by the user who scanned it, of the code’s tenant', async () => {
    const qr = await newCode();
    const foreign = await act(otherTenantAdmin, 'scan', qr.code);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().msg).toBe('该二维码属于其他租户,无法确认');
    await act(admin, 'scan', qr.code);
    const other = await act(colleague, 'confirm', qr.code);
    expect(other.json().msg).toBe('二维码已被其他用户扫描');
    expect((await status(qr)).body.data.status).toBe('scanned');
  });

  it('needs a signed-in user to scan, confirm or cancel', async () => {
    const qr = await newCode();
    for (const action of ['scan', 'confirm', 'cancel']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/blade-auth/oauth/qrcode/${action}`,
        payload: { code: qr.code },
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await act(admin, 'confirm', 'not-a-code')).json().msg).toBe('二维码无效');
  });

  it('refuses a QR sign-in without client credentials', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/qrlogin',
      payload: { tenantId: '000000', code: 'a'.repeat(24), state: 'b'.repeat(43), grant_type: 'qr' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error_description).toBe('客户端认证失败');
  });
});

describe('visit QR code', () => {
  it('draws the tenant visit link, or a link it is given, as a PNG', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/blade-holiday/visit/qrcode' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.link).toBe('http://localhost:80/visit?tenantId=000000');
    const png = Buffer.from(String(res.json().data.image).split(',')[1] ?? '', 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');

    const path = await t.as(admin, { method: 'GET', url: '/api/blade-holiday/visit/qrcode?link=/visit/form%3Fid%3D1' });
    expect(path.json().data.link).toBe('http://localhost:80/visit/form?id=1');
    const full = await t.as(admin, {
      method: 'GET',
      url: `/api/blade-holiday/visit/qrcode?link=${encodeURIComponent('https://mes.example.com/v?a=1')}`,
    });
    expect(full.json().data.link).toBe('https://mes.example.com/v?a=1');
  });

  it('refuses links that are not http(s), odd sizes and anonymous callers', async () => {
    for (const link of ['javascript:alert(1)', '//evil.example/x', 'ftp://x']) {
      const res = await t.as(admin, {
        method: 'GET',
        url: `/api/blade-holiday/visit/qrcode?link=${encodeURIComponent(link)}`,
      });
      expect(res.statusCode, link).toBe(400);
      expect(res.json().msg).toBe('访问链接应以 http:// 或 https:// 开头,或为本站路径');
    }
    const size = await t.as(admin, { method: 'GET', url: '/api/blade-holiday/visit/qrcode?size=5000' });
    expect(size.json().msg).toBe('二维码尺寸应为 128 到 1024 之间的整数');
    expect((await t.app.inject({ method: 'GET', url: '/api/blade-holiday/visit/qrcode' })).statusCode).toBe(401);
  });
});
