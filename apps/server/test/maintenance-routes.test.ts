import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOPICS, tenantTopic } from '../src/platform/cache/change-feed';
import { param } from '../src/platform/db/schema';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/** Maintenance routes get least privilege: clear-cache needs its API scope, the API map a session. */
let t: TestApp;
let platformAdmin: string;
let tenantAdmin: string;
const published: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  platformAdmin = (await t.signIn()).access_token;
  const created = await t.as(platformAdmin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId: '200001', tenantName: '维护租户', linkman: 'ops' },
  });
  expect(created.statusCode).toBe(200);
  const [row] = await t.ctx.db.select().from(param).where(eq(param.paramKey, 'tenant.default.password'));
  tenantAdmin = (await t.signIn('admin', row?.paramValue ?? '', '200001')).access_token;
  t.ctx.changes.subscribe((topic) => published.push(topic));
}, 120_000);
afterAll(() => t.close());

const clearCache = (token: string) => t.as(token, { method: 'GET', url: '/api/blade-auth/oauth/clear-cache' });

describe('clear-cache', () => {
  it('is refused to a signed-in user whose roles lack the 清除缓存 scope', async () => {
    const plain = await signInWithScopes(t, { account: 'nocache', codes: ['post:read'] });
    const res = await clearCache(plain);
    expect(res.statusCode).toBe(403);
  });

  it('lets a tenant administrator clear only their own tenant', async () => {
    published.length = 0;
    const res = await clearCache(tenantAdmin);
    expect(res.json()).toMatchObject({ code: 200, success: true });
    // Heard locally and again through LISTEN/NOTIFY, among late echoes of earlier writes: its
    // own tenant's topic, never everything and never another tenant's.
    expect(published).toContain(tenantTopic('200001'));
    const wider = published.filter((t) => t === ALL_TOPICS || (t.startsWith('tenant:') && t !== tenantTopic('200001')));
    expect(wider).toEqual([]);
  });

  it('lets the platform administrator clear everything', async () => {
    published.length = 0;
    const res = await clearCache(platformAdmin);
    expect(res.statusCode).toBe(200);
    expect(published).toContain(ALL_TOPICS);
  });

  it('is granted to a role through the seeded role:cache scope', async () => {
    const holder = await signInWithScopes(t, { account: 'cacher', codes: ['role:cache'] });
    expect((await clearCache(holder)).statusCode).toBe(200);
  });
});

describe('API documentation', () => {
  it('is hidden from anonymous callers by default', async () => {
    for (const url of ['/api/docs', '/api/docs/json', '/api/docs/static/index.html', '/%61pi/docs/json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.body).not.toContain('blade-system');
    }
  });

  it('is served to a signed-in caller', async () => {
    const res = await t.as(tenantAdmin, { method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
  });

  it('is open to everyone with API_DOCS=on', async () => {
    const open = await createTestApp({ appOptions: { apiDocs: true } });
    try {
      const res = await open.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('/api/blade-system/post/list');
    } finally {
      await open.close();
    }
  });
});
