import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLog, operationLog } from '../src/platform/db/schema';
import { createTestApp, type TestApp } from './support/test-app';

/** `API_LOG=off` stops the API log and nothing else (each test file runs in its own process). */
let t: TestApp;
let admin: string;

beforeAll(async () => {
  process.env.API_LOG = 'off';
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
});
afterAll(async () => {
  await t.close();
  delete process.env.API_LOG;
});

describe('API_LOG=off', () => {
  it('records no API requests, while the operation log still records changes', async () => {
    expect(t.ctx.logs.apiLogEnabled).toBe(false);
    await t.as(admin, { method: 'GET', url: '/api/blade-system/post/list' });
    const saved = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-system/post/submit',
      payload: { category: 1, postCode: 'off1', postName: '关闭日志' },
    });
    expect(saved.statusCode).toBe(200);
    await t.ctx.logs.flush();
    expect(await t.ctx.db.select().from(apiLog)).toEqual([]);
    expect((await t.ctx.db.select().from(operationLog)).map((r) => r.operation)).toEqual(['add']);
  });
});
