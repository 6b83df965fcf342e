import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthClient } from '../src/platform/db/schema';
import { ADMIN_PASSWORD, basic, createTestApp, md5, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
});
afterAll(() => t.close());

const get = (url: string) => t.as(admin, { method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url, payload });
const API = '/api/blade-system/client';

const signInWith = (clientId: string, secret: string) =>
  t.token(
    { tenantId: '000000', username: 'admin', password: md5(ADMIN_PASSWORD), grant_type: 'password', scope: 'all' },
    { authorization: basic(clientId, secret) },
  );
const storedSecret = async (id: string) =>
  (await t.ctx.db.select({ s: oauthClient.clientSecret }).from(oauthClient).where(eq(oauthClient.id, id)))[0]?.s;

describe('oauth clients', () => {
  let id: string;

  it('requires a secret when adding and stores only its hash', async () => {
    const missing = await post(`${API}/submit`, { clientId: 'mes_app' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('请输入应用密钥');
    const res = await post(`${API}/submit`, { clientId: 'mes_app', clientSecret: 'first_secret_value' });
    expect(res.json()).toMatchObject({ success: true });
    id = res.json().data;
    const stored = await storedSecret(id);
    expect(stored).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(stored).not.toContain('first_secret_value');
    expect((await signInWith('mes_app', 'first_secret_value')).statusCode).toBe(200);
  });

  it('never sends the secret back', async () => {
    const list = (await get(`${API}/list?size=100`)).json().data.records;
    expect(list.length).toBeGreaterThanOrEqual(3);
    for (const row of list) expect(row).not.toHaveProperty('clientSecret');
    const detail = (await get(`${API}/detail?id=${id}`)).json().data;
    expect(detail).toMatchObject({ clientId: 'mes_app' });
    expect(detail).not.toHaveProperty('clientSecret');
    const exported = await get(`${API}/export?clientId=mes_app`);
    expect(exported.statusCode).toBe(200);
    expect(exported.rawPayload.includes(Buffer.from('sha256:'))).toBe(false);
  });

  it('keeps the secret when an update leaves it empty', async () => {
    const before = await storedSecret(id);
    const res = await post(`${API}/submit`, { id, clientSecret: '', accessTokenValidity: 7200 });
    expect(res.json()).toMatchObject({ success: true });
    expect(await storedSecret(id)).toBe(before);
    const signedIn = await signInWith('mes_app', 'first_secret_value');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().expires_in).toBe(7200);
  });

  it('hashes a new secret on update; the old one stops working', async () => {
    await post(`${API}/submit`, { id, clientSecret: 'second_secret_value' });
    expect((await signInWith('mes_app', 'second_secret_value')).statusCode).toBe(200);
    expect((await signInWith('mes_app', 'first_secret_value')).statusCode).toBe(401);
  });
});
