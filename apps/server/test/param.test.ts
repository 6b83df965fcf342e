import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIntParam, readParam } from '../src/platform/db/params';
import { tenant } from '../src/platform/db/schema';
import { SEED_PARAMS } from '../src/seed/seed-data';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

const PARAM = '/api/blade-system/param';
const FAIL_COUNT = SEED_PARAMS.find((p) => p.paramKey === 'account.failCount')!;

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  await t.ctx.db.insert(tenant).values({ id: '9590', tenantId: '222222', tenantName: 'two' });
});
afterAll(() => t.close());

const get = (url: string, token = admin) => t.as(token, { method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>, token = admin) =>
  t.as(token, { method: 'POST', url, payload });

describe('parameters', () => {
  let id: string;

  it('asks for each required field with the spec’s message', async () => {
    const full = { paramName: '默认产线', paramKey: 'mes.defaultLine', paramValue: 'L1' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...full, paramName: '' }, '请输入参数名称'],
      [{ ...full, paramKey: undefined }, '请输入参数键名'],
      [{ ...full, paramValue: '  ' }, '请输入参数键值'],
    ];
    for (const [body, msg] of cases) {
      const res = await post(`${PARAM}/submit`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, success: false, msg });
    }
    expect((await get(`${PARAM}/list?paramKey=mes.defaultLine`)).json().data.total).toBe(0);
  });

  it('adds, lists, shows and updates a parameter', async () => {
    const res = await post(`${PARAM}/submit`, {
      paramName: '默认产线',
      paramKey: 'mes.defaultLine',
      paramValue: 'L1',
      remark: '新建产线时的默认值',
    });
    expect(res.json()).toMatchObject({ success: true, msg: '新增成功' });
    id = res.json().data;
    const page = (await get(`${PARAM}/list?paramKey=defaultLine`)).json().data;
    expect(page).toMatchObject({ total: 1, current: 1 });
    expect(page.records[0]).toMatchObject({ id, paramKey: 'mes.defaultLine', paramValue: 'L1' });
    expect(page.records[0]).not.toHaveProperty('tenantId');
    const update = await post(`${PARAM}/submit`, { id, paramValue: 'L2' });
    expect(update.json()).toMatchObject({ success: true, msg: '更新成功' });
    expect((await get(`${PARAM}/detail?id=${id}`)).json().data).toMatchObject({
      paramName: '默认产线',
      paramValue: 'L2',
    });
  });

  it('refuses a key that another parameter has', async () => {
    const add = await post(`${PARAM}/submit`, { paramName: '重复', paramKey: 'account.failCount', paramValue: '9' });
    expect(add.statusCode).toBe(400);
    expect(add.json().msg).toBe('参数键名已存在');
    const rename = await post(`${PARAM}/submit`, { id, paramKey: 'account.initPassword' });
    expect(rename.json().msg).toBe('参数键名已存在');
  });

  it('lets readParam see a change right after submit and removal', async () => {
    expect(await readIntParam(t.ctx.db, 'account.failCount', 99)).toBe(5);
    const res = await post(`${PARAM}/submit`, { id: FAIL_COUNT.id, paramValue: '7' });
    expect(res.json().success).toBe(true);
    expect(await readIntParam(t.ctx.db, 'account.failCount', 99)).toBe(7);
    expect(await readParam(t.ctx.db, 'mes.defaultLine')).toBe('L2');
    expect((await post(`${PARAM}/remove?ids=${id}`, {})).json()).toMatchObject({ success: true, msg: '删除成功' });
    expect(await readParam(t.ctx.db, 'mes.defaultLine')).toBeUndefined();
    // A removed key may be used again.
    const again = await post(`${PARAM}/submit`, {
      paramName: '默认产线',
      paramKey: 'mes.defaultLine',
      paramValue: 'L3',
    });
    expect(again.json().success).toBe(true);
    expect(await readParam(t.ctx.db, 'mes.defaultLine')).toBe('L3');
  });

  it('falls back when a numeric parameter is not a positive integer', async () => {
    await post(`${PARAM}/submit`, { id: FAIL_COUNT.id, paramValue: 'many' });
    expect(await readIntParam(t.ctx.db, 'account.failCount', 5)).toBe(5);
    await post(`${PARAM}/submit`, { id: FAIL_COUNT.id, paramValue: '5' });
  });
});

describe('who may manage parameters', () => {
  it('lets a platform user with the scopes, refuses one without', async () => {
    const keeper = await signInWithScopes(t, {
      tenantId: '000000',
      account: 'keeper',
      codes: ['param:read', 'param:write'],
    });
    expect((await get(`${PARAM}/list`, keeper)).statusCode).toBe(200);
    const add = await post(`${PARAM}/submit`, { paramName: 'x', paramKey: 'keeper.x', paramValue: '1' }, keeper);
    expect(add.json().success).toBe(true);
    const plain = await signInWithScopes(t, { tenantId: '000000', account: 'plain', codes: [] });
    expect((await get(`${PARAM}/list`, plain)).statusCode).toBe(403);
    expect((await post(`${PARAM}/remove?ids=${add.json().data}`, {}, plain)).statusCode).toBe(403);
  });

  it('refuses every other tenant, even one granted the scopes', async () => {
    const bob = await signInWithScopes(t, { tenantId: '222222', account: 'bob', codes: ['param:read', 'param:write'] });
    expect((await get(`${PARAM}/list`, bob)).statusCode).toBe(403);
    expect((await get(`${PARAM}/detail?id=${FAIL_COUNT.id}`, bob)).statusCode).toBe(403);
    const add = await post(`${PARAM}/submit`, { paramName: 'x', paramKey: 'bob.x', paramValue: '1' }, bob);
    expect(add.statusCode).toBe(403);
    const update = await post(`${PARAM}/submit`, { id: FAIL_COUNT.id, paramValue: '1' }, bob);
    expect(update.statusCode).toBe(403);
    expect((await post(`${PARAM}/remove?ids=${FAIL_COUNT.id}`, {}, bob)).statusCode).toBe(403);
    expect(await readIntParam(t.ctx.db, 'account.failCount', 99)).toBe(5);
  });
});
