import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTenantId } from '../src/modules/system/tenant-provision';
import { readParam } from '../src/platform/db/params';
import { DATABASE_ERROR_MESSAGE } from '../src/modules/log/error-log-view';
import { nextId } from '../src/platform/db/ids';
import { errorLog, menu, usualLog } from '../src/platform/db/schema';
import { SEED_MENUS } from '../src/seed/seed-menus';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Reply shapes of the BladeX family (CONTRACT.md "Reply shapes ... (corrections)"), read the
 * way the family's Vue console reads them: tenants, regions, top menus, scopes, logs, the family's
 * button codes, and what the error log shows a tenant administrator.
 */
let t: TestApp;
let admin: string;
let tenantAdmin: string;
let tenantId: string;

const get = async (url: string, token = admin) => {
  const res = await t.as(token, { method: 'GET', url });
  return { status: res.statusCode, body: res.json(), text: res.body };
};
const post = async (url: string, payload: Record<string, unknown>, token = admin) => {
  const res = await t.as(token, { method: 'POST', url, payload });
  return { status: res.statusCode, body: res.json() };
};

const TENANT = '/api/blade-system/tenant';
const REGION = '/api/blade-system/region';
/** What a database error leaves in its message and parameters; no tenant may read it. */
const BOUND_SECRET = 'bound-value-7731';

beforeAll(async () => {
  t = await createTestApp({
    beforeReady(app) {
      // A handler that meets a real database error, with a bound value in the failing query.
      app.post('/api/test-only/db-boom', { config: { anyUser: true } }, async () => {
        await t.ctx.db.execute(sql`select * from no_such_table_b where name = ${BOUND_SECRET}`);
        return null;
      });
      // A handler failing with a server path in its message.
      app.post('/api/test-only/fs-boom', { config: { anyUser: true } }, async () => {
        throw new Error("ENOENT: no such file or directory, open '/srv/mes/data/upload/x.bin'");
      });
    },
  });
  admin = (await t.signIn()).access_token;
  // A tenant added the way the family's tenant form adds it: no tenant id.
  const added = await post(`${TENANT}/submit`, {
    tenantName: '华南诊所',
    linkman: '李四',
    domain: 'https://south.example.com',
  });
  expect(added.body).toMatchObject({ success: true, msg: '新增成功' });
  tenantId = (await get(`${TENANT}/detail?id=${added.body.data}`)).body.data.tenantId;
  const password = (await readParam(t.ctx.db, 'tenant.default.password')) as string;
  tenantAdmin = (await t.signIn('admin', password, tenantId)).access_token;
});
afterAll(() => t.close());

describe('tenants', () => {
  it('generates a six-digit tenant id when none is sent, unique and never 000000', async () => {
    expect(tenantId).toMatch(/^\d{6}$/);
    expect(tenantId).not.toBe('000000');
    const second = await post(`${TENANT}/submit`, { tenantName: '华北诊所', linkman: '王五', tenantId: '' });
    expect(second.body.success).toBe(true);
    const other = (await get(`${TENANT}/detail?id=${second.body.data}`)).body.data.tenantId;
    expect(other).toMatch(/^\d{6}$/);
    expect(other).not.toBe(tenantId);
  });

  it('draws again on a taken id and on 000000', async () => {
    const draws = [0, Number(tenantId), 424242];
    const id = await t.ctx.db.transaction((tx) => generateTenantId(tx, () => draws.shift() as number));
    expect(id).toBe('424242');
    expect(draws).toEqual([]);
  });

  it('keeps the domain as `domain`, which tenant/info reads', async () => {
    const list = await get(`${TENANT}/list?tenantName=华南`);
    expect(list.body.data.records[0]).toMatchObject({ tenantId, domain: 'https://south.example.com' });
    expect(list.body.data.records[0]).not.toHaveProperty('domainUrl');
    const info = await t.app.inject({ method: 'GET', url: `${TENANT}/info?domain=https://south.example.com` });
    expect(info.json().data).toMatchObject({ tenantId });
  });

  it('answers tenant/select with every tenant for the platform and only its own for a tenant', async () => {
    const all = await get(`${TENANT}/select`);
    expect(all.status).toBe(200);
    const ids = (all.body.data as { tenantId: string; tenantName: string }[]).map((r) => r.tenantId);
    expect(ids).toEqual(expect.arrayContaining(['000000', tenantId]));
    expect(all.body.data.find((r: { tenantId: string }) => r.tenantId === tenantId)).toMatchObject({
      tenantName: '华南诊所',
    });
    const own = await get(`${TENANT}/select`, tenantAdmin);
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual([expect.objectContaining({ tenantId, tenantName: '华南诊所' })]);
    expect(own.text).not.toContain('licenseKey');
  });
});

describe('regions', () => {
  beforeAll(async () => {
    expect((await post(`${REGION}/submit`, { code: '44', parentCode: '00', name: '广东省', level: 1 })).status).toBe(
      200,
    );
  });

  it('adds a child by parentCode from the parent’s form, leaving the parent as it was', async () => {
    const parent = (await get(`${REGION}/detail?code=44`)).body.data;
    // The family's 新增下级: the parent's form with its id left in, a new code and name, level + 1.
    const res = await post(`${REGION}/submit`, {
      ...parent,
      parentCode: '44',
      code: '4401',
      name: '广州市',
      level: parent.level + 1,
    });
    expect(res.body).toMatchObject({ success: true, msg: '新增成功' });
    expect(res.body.data).not.toBe(parent.id);
    expect((await get(`${REGION}/detail?code=44`)).body.data).toMatchObject({ name: '广东省', level: 1 });
    const child = (await get(`${REGION}/detail?code=4401`)).body.data;
    expect(child).toMatchObject({ code: '4401', parentCode: '44', name: '广州市', parentName: '广东省', level: 2 });
  });

  it('updates the region whose code is sent, and refuses a level change', async () => {
    const res = await post(`${REGION}/submit`, { code: '4401', parentCode: '44', name: '广州', level: 2 });
    expect(res.body).toMatchObject({ success: true, msg: '更新成功' });
    expect((await get(`${REGION}/detail?code=4401`)).body.data).toMatchObject({ name: '广州', cityName: '广州' });
    const moved = await post(`${REGION}/submit`, { code: '4401', name: '广州', level: 3 });
    expect(moved.status).toBe(400);
    expect((await post(`${REGION}/submit`, { code: '4402', parentCode: '44', name: 'x', level: 'two' })).status).toBe(
      400,
    );
  });

  it('answers region/select with the children of code, the top level by default', async () => {
    const top = await get(`${REGION}/select`, tenantAdmin);
    expect(top.status).toBe(200);
    expect(top.body.data.map((r: { code: string }) => r.code)).toEqual(['44']);
    const cities = (await get(`${REGION}/select?code=44`)).body.data;
    expect(cities).toEqual([expect.objectContaining({ code: '4401', name: '广州', level: 2, parentName: '广东省' })]);
    expect((await get(`${REGION}/select?code=4401`)).body.data).toEqual([]);
    expect((await get(`${REGION}/select?code=x'--`)).status).toBe(400);
  });
});

describe('top menus', () => {
  it('keeps the path: stored, listed, shown and changed', async () => {
    const added = await post('/api/blade-system/topmenu/submit', { code: 'ops', name: '运维', path: '/ops/index' });
    expect(added.body.success).toBe(true);
    const id = added.body.data as string;
    expect((await get(`/api/blade-system/topmenu/detail?id=${id}`)).body.data).toMatchObject({ path: '/ops/index' });
    expect((await get('/api/blade-system/topmenu/list?code=ops')).body.data.records[0]).toMatchObject({
      path: '/ops/index',
    });
    await post('/api/blade-system/topmenu/submit', { id, path: '/ops/home' });
    expect((await get('/api/blade-system/menu/top-menu')).body.data).toContainEqual(
      expect.objectContaining({ id, path: '/ops/home' }),
    );
  });
});

describe('scopes', () => {
  it('carry scopeTypeName, the dictionary label of scopeType', async () => {
    for (const [api, label] of [
      ['/api/blade-system/data-scope', '全部可见'],
      ['/api/blade-system/api-scope', '系统接口'],
    ] as const) {
      const menuId = SEED_MENUS.find((m) => m.code === 'post')?.id;
      const added = await post(`${api}/submit`, {
        menuId,
        resourceCode: 'post_probe',
        scopeName: 'probe',
        scopeType: 1,
      });
      expect(added.body.success, api).toBe(true);
      expect((await get(`${api}/detail?id=${added.body.data}`)).body.data).toMatchObject({ scopeTypeName: label });
      expect((await get(`${api}/list?resourceCode=post_probe`)).body.data.records[0]).toMatchObject({
        scopeTypeName: label,
      });
    }
  });
});

describe('button codes', () => {
  it('seeds the family’s names for the data-scope, API-scope and region buttons', async () => {
    const codes = ['data_scope_setting', 'api_scope_setting', 'region_debug'];
    for (const code of codes) expect(SEED_MENUS.some((m) => m.code === code && m.category === 2)).toBe(true);
    const stored = await t.ctx.db
      .select({ code: menu.code })
      .from(menu)
      .where(and(eq(menu.category, 2), eq(menu.isDeleted, 0)));
    expect(stored.map((m) => m.code)).toEqual(expect.arrayContaining(codes));
  });
});

describe('logs', () => {
  beforeAll(async () => {
    await t.ctx.db.insert(usualLog).values([
      { id: nextId(), logId: 'probe.a', serviceId: 'svc-alpha', serverHost: 'host-one', requestUri: '/api/a/x' },
      { id: nextId(), logId: 'probe.b', serviceId: 'svc-beta', serverHost: 'host-two', requestUri: '/api/b/y' },
    ]);
    await t.as(admin, { method: 'GET', url: '/api/blade-system/post/list' });
    await t.ctx.logs.flush();
  });

  it('carry strId, the id as a string, in every log list and detail', async () => {
    for (const api of ['api', 'usual', 'error', 'login']
      .map((l) => `/api/blade-log/${l}`)
      .concat('/api/report/operlog')) {
      if (api.endsWith('error')) await t.as(admin, { method: 'POST', url: '/api/test-only/fs-boom' });
      await t.ctx.logs.flush();
      const list = await get(`${api}/list?size=5`);
      const row = list.body.data.records[0];
      expect(row, api).toBeDefined();
      expect(row.strId, api).toBe(row.id);
      expect(typeof row.strId).toBe('string');
      expect((await get(`${api}/detail?id=${row.strId}`)).body.data.strId, api).toBe(row.id);
    }
  });

  it('filter by serviceId, serverHost and requestUri', async () => {
    const logIds = async (query: string) =>
      ((await get(`/api/blade-log/usual/list?logId=probe&${query}`)).body.data.records as { logId: string }[]).map(
        (r) => r.logId,
      );
    expect(await logIds('serviceId=alpha')).toEqual(['probe.a']);
    expect(await logIds('serverHost=host-two')).toEqual(['probe.b']);
    expect(await logIds('requestUri=/api/a/')).toEqual(['probe.a']);
    expect(
      (await get('/api/blade-log/api/list?serviceId=mes-server&serverHost=' + t.ctx.logs.server.serverHost)).body.data
        .total,
    ).toBeGreaterThan(0);
    expect((await get('/api/blade-log/error/list?serviceId=none&serverHost=none')).body.data.total).toBe(0);
  });
});

describe('the error log of a tenant administrator', () => {
  let dbErrorId: string;
  let fsErrorId: string;

  beforeAll(async () => {
    const errorIdOf = (msg: string) => /错误编号 (\d+)/.exec(msg)?.[1] as string;
    const db = await t.as(tenantAdmin, { method: 'POST', url: '/api/test-only/db-boom?probe=q', payload: { x: 1 } });
    expect(db.statusCode).toBe(500);
    dbErrorId = errorIdOf(db.json().msg);
    const fs = await t.as(tenantAdmin, { method: 'POST', url: '/api/test-only/fs-boom', payload: { y: 2 } });
    fsErrorId = errorIdOf(fs.json().msg);
    await t.ctx.logs.flush();
  });

  /** What must never reach a tenant: internals of the server and of the failing query. */
  const leaks = (text: string) =>
    [
      BOUND_SECRET,
      'no_such_table_b',
      'select ',
      '/srv/mes',
      'node_modules',
      '.ts:',
      '"probe"',
      'stackTrace',
      'params',
    ].filter((s) => text.includes(s));

  it('shows the message, exception name and error id, never stack, SQL, parameters or paths', async () => {
    const list = await get('/api/blade-log/error/list?size=50', tenantAdmin);
    expect(list.status).toBe(200);
    expect(leaks(list.text)).toEqual([]);
    const rows = list.body.data.records as Record<string, unknown>[];
    const dbRow = rows.find((r) => r.id === dbErrorId);
    expect(dbRow).toMatchObject({
      strId: dbErrorId,
      exceptionName: 'DrizzleQueryError',
      message: DATABASE_ERROR_MESSAGE,
    });
    for (const hidden of ['stackTrace', 'params', 'fileName', 'lineNumber', 'serverHost', 'serverIp', 'methodClass'])
      expect(dbRow).not.toHaveProperty(hidden);
    const fsRow = rows.find((r) => r.id === fsErrorId);
    expect(fsRow).toMatchObject({ exceptionName: 'Error', message: expect.stringContaining('ENOENT') });
    for (const id of [dbErrorId, fsErrorId]) {
      const detail = await get(`/api/blade-log/error/detail?id=${id}`, tenantAdmin);
      expect(detail.status).toBe(200);
      expect(leaks(detail.text)).toEqual([]);
      expect(detail.body.data).toMatchObject({ id, strId: id });
    }
  });

  it('ignores a tenant’s filters on hidden fields, which would reveal them by trial', async () => {
    const all = (await get('/api/blade-log/error/list', tenantAdmin)).body.data.total;
    expect((await get('/api/blade-log/error/list?serverHost=no-such-host', tenantAdmin)).body.data.total).toBe(all);
    expect((await get('/api/blade-log/error/list?unknownField=1', tenantAdmin)).status).toBe(400);
  });

  it('keeps the full record for the platform administrator', async () => {
    const detail = (await get(`/api/blade-log/error/detail?id=${dbErrorId}`)).body.data;
    expect(detail.message).toContain(BOUND_SECRET);
    expect(detail.stackTrace).toContain('node_modules');
    expect(detail.params).toContain('probe');
    expect(detail.serverHost).not.toBe('');
    const fs = (await get(`/api/blade-log/error/detail?id=${fsErrorId}`)).body.data;
    expect(fs.message).toContain('/srv/mes/data/upload/x.bin');
    expect(fs.fileName).toContain('bladex-shapes-b.test.ts');
    expect((await get('/api/blade-log/error/list?serverHost=no-such-host')).body.data.total).toBe(0);
  });

  it('hides the message of a stored database error even when its class is not named', async () => {
    const id = nextId();
    await t.ctx.db.insert(errorLog).values({
      id,
      tenantId,
      exceptionName: 'Error',
      message: `duplicate key value violates unique constraint "x_uq" Key (name)=(${BOUND_SECRET})`,
      createTime: new Date(t.clock.now()),
    });
    const detail = await get(`/api/blade-log/error/detail?id=${id}`, tenantAdmin);
    expect(detail.body.data.message).toBe(DATABASE_ERROR_MESSAGE);
    expect(detail.text).not.toContain(BOUND_SECRET);
  });
});
