import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/auth/passwords';
import { errorLog, user } from '../src/platform/db/schema';
import { ROLE_IDS } from '../src/seed/seed-data';
import { createTestApp, md5, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;
let adminId: string;

const UPLOAD = '/api/blade-log/error/upload';

const entry = (n: number) => ({
  type: 'error',
  message: `boom ${n}`,
  stack: `Error: boom ${n}\n    at https://mes.example/assets/index.js:1:${n}`,
  info: 'window.onerror index.js:1:1',
  url: `https://mes.example/wel/index?n=${n}`,
  time: new Date(2026, 10, 22, 9, 30, 15).getTime(),
});

const upload = (payload: unknown, token = admin) =>
  t.as(token, { method: 'POST', url: UPLOAD, payload: payload as Record<string, unknown> });

const stored = async () => (await t.ctx.db.select({ n: count() }).from(errorLog))[0]?.n ?? 0;

beforeAll(async () => {
  t = await createTestApp();
  const signedIn = await t.signIn();
  admin = signedIn.access_token;
  adminId = signedIn.user_id;
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.ctx.db.delete(errorLog);
});

describe('POST /api/blade-log/error/upload', () => {
  it('stores each entry with the uploader’s tenant, account, id, user agent and address', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: UPLOAD,
      headers: { 'user-agent': 'Mozilla/5.0 e2e-agent' },
      payload: [entry(1), { ...entry(2), time: '2026-11-22 09:31:00', stack: undefined, info: undefined }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 200, success: true });

    const rows = await t.ctx.db.select().from(errorLog).orderBy(errorLog.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      tenantId: '000000',
      createBy: 'admin',
      createUser: adminId,
      serviceId: 'mes-web',
      exceptionName: 'ClientError',
      requestUri: 'https://mes.example/wel/index?n=1',
      message: 'boom 1',
      stackTrace: entry(1).stack,
      methodName: 'window.onerror index.js:1:1',
      userAgent: 'Mozilla/5.0 e2e-agent',
      time: '2026-11-22 09:30:15',
      method: '',
    });
    expect(rows[0]?.remoteIp).not.toBe('');
    expect(rows[0]?.createTime).toBeInstanceOf(Date);
    expect(rows[1]).toMatchObject({ message: 'boom 2', stackTrace: '', methodName: '', time: '2026-11-22 09:31:00' });
  });

  it('stores under the tenant and account of whoever uploads', async () => {
    await t.ctx.db.insert(user).values({
      id: '7101',
      tenantId: '000000',
      account: 'bob',
      password: await hashPassword(md5('bob-pass')),
      roleId: ROLE_IDS.user,
      deptId: '1000000000000000302',
    });
    const bob = (await t.signIn('bob', 'bob-pass')).access_token;
    expect((await upload([entry(3)], bob)).statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(errorLog).where(eq(errorLog.createBy, 'bob'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.createUser).toBe('7101');
  });

  it('accepts an empty list and stores nothing', async () => {
    expect((await upload([])).statusCode).toBe(200);
    expect(await stored()).toBe(0);
  });

  it('needs a signed-in caller', async () => {
    const res = await t.app.inject({ method: 'POST', url: UPLOAD, payload: [entry(1)] });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401, msg: '请求未授权' });
    expect(await stored()).toBe(0);
  });

  it.each([
    ['an object instead of a list', { logs: [entry(1)] }, '本地日志必须是数组'],
    ['101 entries', Array.from({ length: 101 }, (_, i) => entry(i)), '本地日志一次最多上传100条'],
    ['an oversized message', [entry(1), { ...entry(2), message: 'x'.repeat(2001) }], '第2条日志的内容(message)过长'],
    ['an oversized stack', [{ ...entry(1), stack: 'x'.repeat(8001) }], '第1条日志的堆栈(stack)过长'],
    ['an oversized address', [{ ...entry(1), url: `https://x/${'a'.repeat(2000)}` }], '第1条日志的地址(url)过长'],
    ['a number as message', [{ ...entry(1), message: 42 }], '第1条日志的内容(message)格式不正确'],
    ['a missing message', [{ type: 'error' }], '第1条日志缺少内容(message)'],
    ['an object as time', [{ ...entry(1), time: { at: 1 } }], '第1条日志的时间(time)格式不正确'],
    ['a string entry', ['boom'], '第1条日志必须是对象'],
  ])('refuses %s with 400 and stores nothing', async (_name, payload, msg) => {
    const res = await upload(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, success: false });
    expect(res.json<{ msg: string }>().msg).toContain(msg);
    expect(await stored()).toBe(0);
  });

  it('stores exactly 100 entries, the most one upload may carry', async () => {
    const res = await upload(Array.from({ length: 100 }, (_, i) => entry(i)));
    expect(res.statusCode).toBe(200);
    expect(await stored()).toBe(100);
  });
});
