import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authText } from '@mes/contracts';
import { OAuthError } from '../src/modules/auth/oauth-error';
import { withSignInLog, type SignInParams } from '../src/modules/log/login-log';
import { apiLog, errorLog, loginLog, operationLog, param, usualLog } from '../src/platform/db/schema';
import { nextId } from '../src/platform/db/ids';
import { ADMIN_PASSWORD, createTestApp, md5, type TestApp } from './support/test-app';

/**
 * The logs as a client and an administrator rely on them: what each request, error, event,
 * sign-in and change leaves behind, what the log routes answer, and retention.
 */
let t: TestApp;
let admin: string;
let adminId: string;

const DAY = 24 * 60 * 60 * 1000;

async function get(url: string, token = admin) {
  const res = await t.as(token, { method: 'GET', url });
  return { status: res.statusCode, body: res.json() };
}

async function post(url: string, payload: Record<string, unknown> = {}, token = admin) {
  const res = await t.as(token, { method: 'POST', url, payload });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  t = await createTestApp({
    beforeReady(app) {
      // A route that fails the way a bug does, to see what the client and the error log get.
      app.post('/api/test-only/boom', { config: { anyUser: true } }, async () => {
        throw new TypeError('kaboom in the handler');
      });
      // The token endpoint's sign-in log, as auth-routes wires it: a sign-in that succeeds for
      // the password `good` and is refused otherwise.
      app.post('/api/test-only/token', { config: { public: true } }, async (request, reply) => {
        const params = request.body as SignInParams & { password?: string };
        try {
          return await withSignInLog(t.ctx, request, params, async () => {
            if (params.password !== 'good') throw new OAuthError(400, authText('badCredentials'));
            return { account: params.username, user_id: '42', tenant_id: params.tenantId, access_token: 'x' };
          });
        } catch (e) {
          if (e instanceof OAuthError) return reply.code(e.status).send(e.toBody());
          throw e;
        }
      });
    },
  });
  const signedIn = await t.signIn();
  admin = signedIn.access_token;
  adminId = signedIn.user_id;
});
afterAll(() => t.close());

describe('API log', () => {
  it('records a signed-in request: tenant, user, method, URI, parameters, status, time, address, agent, host', async () => {
    await t.as(admin, {
      method: 'GET',
      url: '/api/blade-system/post/list?postName=apilog-probe&current=1',
      headers: { 'user-agent': 'logs-test-agent' },
    });
    await t.ctx.logs.flush();
    const [row] = await t.ctx.db.select().from(apiLog).where(eq(apiLog.requestUri, '/api/blade-system/post/list'));
    expect(row).toMatchObject({
      tenantId: '000000',
      createBy: 'admin',
      createUser: adminId,
      method: 'GET',
      status: 200,
      type: '1',
      userAgent: 'logs-test-agent',
      methodClass: '/api/blade-system/post/list',
      serviceId: 'mes-server',
    });
    expect(JSON.parse(row?.params ?? '')).toEqual({ query: { postName: 'apilog-probe', current: '1' } });
    expect(row?.time).toBeGreaterThanOrEqual(0);
    expect(row?.remoteIp).not.toBe('');
    expect(row?.serverHost).not.toBe('');
    expect(row?.createTime).toBeInstanceOf(Date);
  });

  it('keeps tabs, newlines, backslashes and Chinese in the row exactly as sent (the COPY text escapes)', async () => {
    const probe = 'copy\\probe\t列\n行\r\\N 消毒';
    await post('/api/blade-system/post/submit', { postName: probe, remark: '\\N' });
    await t.as(admin, {
      method: 'GET',
      url: `/api/blade-system/post/list?postName=${encodeURIComponent(probe)}`,
      headers: { 'user-agent': 'agent\\with\\backslashes 中文' },
    });
    await t.ctx.logs.flush();
    const rows = await t.ctx.db
      .select({ params: apiLog.params, agent: apiLog.userAgent, uri: apiLog.requestUri })
      .from(apiLog)
      .where(eq(apiLog.requestUri, '/api/blade-system/post/list'));
    const listed = rows.find((row) => row.agent.startsWith('agent'));
    expect(listed?.agent).toBe('agent\\with\\backslashes 中文');
    expect(JSON.parse(listed?.params ?? '{}')).toEqual({ query: { postName: probe } });
    const submits = await t.ctx.db
      .select({ params: apiLog.params })
      .from(apiLog)
      .where(eq(apiLog.requestUri, '/api/blade-system/post/submit'));
    const submitted = submits.find((row) => row.params.includes('copy'));
    expect(JSON.parse(submitted?.params ?? '{}').body).toMatchObject({ postName: probe, remark: '\\N' });
  });

  it('masks passwords, tokens, secrets and keys in the query and in nested bodies', async () => {
    await t.token({ tenantId: '000000', username: 'admin', password: md5('wrong-one'), grant_type: 'password' });
    await post('/api/blade-system/post/submit', {
      postName: 'x',
      nested: { deep: { secretKey: 'nested-secret-value', list: [{ apiToken: 'list-token-value' }] } },
    });
    await t.as(admin, { method: 'GET', url: '/api/blade-system/post/list?access_token=query-token-value' });
    await t.ctx.logs.flush();
    const rows = await t.ctx.db.select({ params: apiLog.params, uri: apiLog.requestUri }).from(apiLog);
    const all = JSON.stringify(rows);
    for (const secret of [md5('wrong-one'), 'nested-secret-value', 'list-token-value', 'query-token-value'])
      expect(all).not.toContain(secret);
    const token = rows.find((r) => r.uri === '/api/blade-auth/oauth/token');
    expect(JSON.parse(token?.params ?? '{}').body).toMatchObject({ username: 'admin', password: '******' });
  });

  it('records refusals with their status, anonymous ones under the platform, and skips the health probe', async () => {
    await t.app.inject({ method: 'GET', url: '/api/blade-system/post/list', headers: { 'tenant-id': '100009' } });
    await get('/api/blade-system/no-such-route');
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.ctx.logs.flush();
    const rows = await t.ctx.db.select().from(apiLog);
    expect(rows.find((r) => r.status === 401 && r.requestUri === '/api/blade-system/post/list')).toMatchObject({
      tenantId: '000000',
      createBy: '',
      type: '2',
    });
    expect(rows.find((r) => r.requestUri === '/api/blade-system/no-such-route')).toMatchObject({ status: 404 });
    expect(rows.some((r) => r.requestUri === '/api/health')).toBe(false);
  });

  it('lists and shows the rows through /api/blade-log/api, filtered by URI, user, status and time', async () => {
    const list = await get('/api/blade-log/api/list?requestUri=post/list&createBy=admin&status=200&size=50');
    expect(list.status).toBe(200);
    const records = list.body.data.records as { id: string; requestUri: string; status: number }[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.requestUri.includes('post/list') && r.status === 200)).toBe(true);
    const future = await get('/api/blade-log/api/list?createTime_dategt=2999-01-01 00:00:00');
    expect(future.body.data.total).toBe(0);
    const detail = await get(`/api/blade-log/api/detail?id=${records[0]?.id}`);
    expect(detail.body.data).toMatchObject({ id: records[0]?.id, requestUri: records[0]?.requestUri });
  });
});

describe('error log', () => {
  it('answers an unhandled error with a generic message and an id, and keeps the details under that id', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/test-only/boom?x=1',
      payload: { name: 'n', password: 'never-logged' },
      headers: { 'user-agent': 'boom-agent' },
    });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toMatchObject({ code: 500, success: false, data: null });
    const m = /^服务器异常,请联系管理员\(错误编号 (\d+)\)$/.exec(body.msg as string);
    expect(m).not.toBeNull();
    expect(res.body).not.toContain('kaboom');
    expect(res.body).not.toContain('logs.test');

    await t.ctx.logs.flush();
    const detail = await get(`/api/blade-log/error/detail?id=${m?.[1]}`);
    expect(detail.body.data).toMatchObject({
      exceptionName: 'TypeError',
      message: 'kaboom in the handler',
      method: 'POST',
      requestUri: '/api/test-only/boom',
      userAgent: 'boom-agent',
      createBy: 'admin',
      serviceId: 'mes-server',
    });
    expect(detail.body.data.stackTrace).toContain('kaboom in the handler');
    expect(detail.body.data.fileName).toContain('logs.test.ts');
    expect(detail.body.data.lineNumber).toBeGreaterThan(0);
    expect(detail.body.data.params).toContain('"x":"1"');
    expect(detail.body.data.params).not.toContain('never-logged');
  });

  it('lists uploaded client errors beside server errors, with the uploader’s context', async () => {
    await post('/api/blade-log/error/upload', [
      { type: 'error', message: 'client boom', url: 'https://x/wel' },
    ] as never);
    const list = await get('/api/blade-log/error/list?exceptionName=ClientError');
    expect(list.body.data.records[0]).toMatchObject({
      message: 'client boom',
      createBy: 'admin',
      serviceId: 'mes-web',
    });
  });
});

describe('usual log', () => {
  it('records business events of the system modules with who did them', async () => {
    await post('/api/blade-system/tenant/submit', { tenantId: '200001', tenantName: '事件租户', linkman: 'ops' });
    await post(`/api/blade-user/unlock?userIds=${adminId}`);
    await t.ctx.logs.flush();
    const list = await get('/api/blade-log/usual/list?size=50');
    const events = list.body.data.records as { logId: string; logData: string; createBy: string; logLevel: string }[];
    expect(events.find((e) => e.logId === 'tenant.create')).toMatchObject({ createBy: 'admin', logLevel: 'info' });
    expect(events.find((e) => e.logId === 'tenant.create')?.logData).toContain('200001');
    expect(events.find((e) => e.logId === 'user.unlock')?.logData).toContain('admin');
    const filtered = await get('/api/blade-log/usual/list?logId=tenant.create');
    expect(filtered.body.data.total).toBe(1);
  });
});

describe('login log', () => {
  it('records successes and failures with method, account, address and agent', async () => {
    const headers = {
      'user-agent': 'signin-agent',
      authorization: 'Basic ' + Buffer.from('saber:s').toString('base64'),
    };
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/test-only/token',
      headers,
      payload: { grant_type: 'password', tenantId: '000000', username: 'alice', password: 'good' },
    });
    expect(ok.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/test-only/token',
      headers,
      payload: { grant_type: 'sms', tenantId: '000000', phone: '13800000000', password: 'bad' },
    });
    expect(bad.statusCode).toBe(400);
    await t.app.inject({
      method: 'POST',
      url: '/api/test-only/token',
      payload: { grant_type: 'refresh_token', tenantId: '000000', password: 'good' },
    });
    await t.ctx.logs.flush();
    // Only this test's attempts (the suite's own admin sign-ins are in the log too).
    const rows = await t.ctx.db
      .select()
      .from(loginLog)
      .where(eq(loginLog.userAgent, 'signin-agent'))
      .orderBy(loginLog.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      account: 'alice',
      userId: '42',
      grantType: 'password',
      success: 1,
      message: '',
      clientId: 'saber',
      userAgent: 'signin-agent',
    });
    expect(rows[1]).toMatchObject({
      account: '13800000000',
      grantType: 'sms',
      success: 0,
      message: '用户名或密码不正确',
    });
    // The list filters by outcome: only failures, this one among them (other tests fail sign-ins too).
    const list = await get('/api/blade-log/login/list?success=0');
    const failures = list.body.data.records as { account: string; success: number }[];
    expect(failures.map((r) => r.account)).toContain('13800000000');
    expect(failures.every((r) => r.success === 0)).toBe(true);
  });

  it('records every attempt at POST /api/blade-auth/oauth/token, but not token refreshes', async () => {
    await t.ctx.db.delete(loginLog);
    const good = await t.token({
      tenantId: '000000',
      username: 'admin',
      password: md5(ADMIN_PASSWORD),
      grant_type: 'password',
    });
    expect(good.statusCode).toBe(200);
    const bad = await t.token({
      tenantId: '000000',
      username: 'admin',
      password: md5('wrong'),
      grant_type: 'password',
    });
    expect(bad.statusCode).toBe(400);
    await t.token({ tenantId: '000000', refresh_token: good.json().refresh_token, grant_type: 'refresh_token' });
    await t.ctx.logs.flush();
    const rows = await t.ctx.db.select().from(loginLog).orderBy(loginLog.id);
    expect(rows.map((r) => [r.account, r.grantType, r.success, r.message, r.clientId])).toEqual([
      ['admin', 'password', 1, '', 'saber'],
      ['admin', 'password', 0, '用户名或密码不正确', 'saber'],
    ]);
    expect(rows[0]?.userId).toBe(adminId);
  });

  it('counts today’s and each of the last 7 days’ sign-ins for the welcome page', async () => {
    await t.ctx.db.delete(loginLog);
    const now = t.clock.now();
    const at = (daysAgo: number) => new Date(new Date(now).setHours(12, 0, 0, 0) - daysAgo * DAY);
    const row = (daysAgo: number, success: number, tenantId = '000000') => ({
      id: nextId(),
      tenantId,
      account: 'a',
      grantType: 'password',
      success,
      createTime: at(daysAgo),
    });
    await t.ctx.db
      .insert(loginLog)
      .values([row(0, 1), row(0, 1), row(0, 0), row(2, 1), row(6, 0), row(7, 1), row(0, 1, '200001')]);
    const res = await get('/api/blade-desk/loginLog/count');
    expect(res.status).toBe(200);
    const { today, days } = res.body.data as {
      today: { total: number; success: number; fail: number; date: string };
      days: { total: number; date: string }[];
    };
    // The platform administrator counts every tenant's sign-ins.
    expect(today).toMatchObject({ total: 4, success: 3, fail: 1 });
    expect(days).toHaveLength(7);
    expect(days.map((d) => d.total)).toEqual([1, 0, 0, 0, 1, 0, 4]);
    expect(days[6]?.date).toBe(today.date);
  });
});

describe('operation log', () => {
  const operations = async (resourceCode: string) =>
    t.ctx.db.select().from(operationLog).where(eq(operationLog.resourceCode, resourceCode)).orderBy(operationLog.id);

  it('records add, update and remove with ids and changed fields, before → after', async () => {
    const added = await post('/api/blade-system/post/submit', { category: 1, postCode: 'op1', postName: '操作岗' });
    const id = added.body.data as string;
    await post('/api/blade-system/post/submit', { id, category: 1, postCode: 'op1', postName: '改名岗' });
    await post(`/api/blade-system/post/remove?ids=${id}`);
    const rows = await operations('post');
    expect(rows.map((r) => r.operation)).toEqual(['add', 'update', 'remove']);
    expect(rows.every((r) => r.ids === id && r.createBy === 'admin' && r.title === '岗位管理')).toBe(true);
    expect(JSON.parse(rows[0]?.changes ?? '[]')).toEqual(
      expect.arrayContaining([{ field: 'postName', label: '岗位名称', before: null, after: '操作岗' }]),
    );
    expect(JSON.parse(rows[1]?.changes ?? '[]')).toEqual([
      { field: 'postName', label: '岗位名称', before: '操作岗', after: '改名岗' },
    ]);

    const list = await get('/api/report/operlog/list?resourceCode=post&operation=update');
    expect(list.body.data.records).toHaveLength(1);
    const detail = await get(`/api/report/operlog/detail?id=${list.body.data.records[0].id}`);
    expect(JSON.parse(detail.body.data.changes)).toEqual([
      { field: 'postName', label: '岗位名称', before: '操作岗', after: '改名岗' },
    ]);
  });

  it('records enable, and never shows a secret or a whole credential', async () => {
    const saved = await post('/api/blade-resource/sms/submit', {
      category: 3,
      smsCode: 'op-sms',
      templateId: 'SMS_1',
      signName: 'S',
      accessKey: 'LTAI5tOperationKey01',
      secretKey: 'operation-secret-value',
    });
    const id = saved.body.data as string;
    await post(`/api/blade-resource/sms/enable?id=${id}`);
    const rows = await operations('sms');
    expect(rows.map((r) => r.operation)).toEqual(['add', 'enable']);
    const changes = rows[0]?.changes ?? '';
    expect(changes).not.toContain('operation-secret-value');
    expect(changes).not.toContain('LTAI5tOperationKey01');
    expect(JSON.parse(changes)).toEqual(
      expect.arrayContaining([
        { field: 'secretKey', label: 'SecretKey', before: null, after: '******' },
        { field: 'accessKey', label: 'AccessKey', before: null, after: 'LTAI****ey01' },
      ]),
    );
  });

  it('writes nothing when the change is refused after the write (same transaction)', async () => {
    // Without a default password a new tenant cannot get its admin account: the tenant row and
    // its operation-log row, both already written, roll back together.
    await t.ctx.db.update(param).set({ isDeleted: 1 }).where(eq(param.paramKey, 'tenant.default.password'));
    try {
      const refused = await post('/api/blade-system/tenant/submit', {
        tenantId: '200009',
        tenantName: '回滚租户',
        linkman: 'ops',
      });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toContain('tenant.default.password');
    } finally {
      await t.ctx.db.update(param).set({ isDeleted: 0 }).where(eq(param.paramKey, 'tenant.default.password'));
    }
    const tenantOps = await operations('tenant');
    expect(tenantOps.some((r) => r.changes.includes('200009'))).toBe(false);
    const accepted = await post('/api/blade-system/tenant/submit', {
      tenantId: '200010',
      tenantName: '提交租户',
      linkman: 'ops',
    });
    expect(accepted.status).toBe(200);
    expect((await operations('tenant')).some((r) => r.changes.includes('200010'))).toBe(true);
  });
});

describe('retention', () => {
  it('prunes every log older than log.retentionDays, read at each run', async () => {
    const now = t.clock.now();
    const old = new Date(now - 91 * DAY);
    // 20 days: whatever the weekday, the weekly partition holding it ends over 7 days ago, so
    // the second prune (7 days) drops it whole (10 days failed on Thursdays: its week was still
    // partly inside the 7 days and is rightly kept).
    const recent = new Date(now - 20 * DAY);
    const base = (createTime: Date) => ({ id: nextId(), tenantId: '000000', createTime });
    for (const createTime of [old, recent]) {
      await t.ctx.db.insert(apiLog).values({ ...base(createTime), requestUri: '/retention' });
      await t.ctx.db.insert(usualLog).values({ ...base(createTime), logId: 'retention' });
      await t.ctx.db.insert(errorLog).values({ ...base(createTime), message: 'retention' });
      await t.ctx.db.insert(loginLog).values({ ...base(createTime), account: 'retention' });
      await t.ctx.db.insert(operationLog).values({ ...base(createTime), resourceCode: 'retention' });
    }
    const result = await t.ctx.logs.prune();
    expect(result?.retentionDays).toBe(90);
    const left = async () => [
      (await t.ctx.db.select().from(apiLog).where(eq(apiLog.requestUri, '/retention'))).length,
      (await t.ctx.db.select().from(usualLog).where(eq(usualLog.logId, 'retention'))).length,
      (await t.ctx.db.select().from(errorLog).where(eq(errorLog.message, 'retention'))).length,
      (await t.ctx.db.select().from(loginLog).where(eq(loginLog.account, 'retention'))).length,
      (await t.ctx.db.select().from(operationLog).where(eq(operationLog.resourceCode, 'retention'))).length,
    ];
    expect(await left()).toEqual([1, 1, 1, 1, 1]);

    await t.ctx.db.update(param).set({ paramValue: '7' }).where(eq(param.paramKey, 'log.retentionDays'));
    expect((await t.ctx.logs.prune())?.retentionDays).toBe(7);
    expect(await left()).toEqual([0, 0, 0, 0, 0]);
    // Today's rows stay (a row of its own, so the test holds when run alone).
    await t.ctx.db.insert(loginLog).values({ ...base(new Date(now)), account: 'retention-today' });
    expect((await t.ctx.logs.prune())?.retentionDays).toBe(7);
    expect(await t.ctx.db.select().from(loginLog).where(eq(loginLog.account, 'retention-today'))).toHaveLength(1);
    await t.ctx.db.update(param).set({ paramValue: '90' }).where(eq(param.paramKey, 'log.retentionDays'));
  });
});
