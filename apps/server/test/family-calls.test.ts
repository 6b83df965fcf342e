import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Calls of the BladeX family's console that our own screens make differently (issue 30, point 9):
 * a dictionary key sent as a number, the spec's `onoff/page`, and a code-generator configuration
 * in the family's shape.
 */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
});
afterAll(() => t.close());

const get = (url: string, token = admin) => t.as(token, { method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>, token = admin) =>
  t.as(token, { method: 'POST', url, payload });

describe('a dictionary key sent as a number', () => {
  it.each([
    ['/api/blade-system/dict', 'family_num'],
    ['/api/blade-system/dict-biz', 'family_num_biz'],
  ])('%s takes dictKey -1 and 3 as numbers and stores them as text', async (api, code) => {
    // Saber's dictionary form: a parent with key -1 (its number column), then a child with key 3.
    const parent = await post(`${api}/submit`, { code, dictValue: '数字键', dictKey: -1, sort: 1, isSealed: 0 });
    expect(parent.json(), parent.body).toMatchObject({ success: true });
    const parentId = parent.json().data as string;
    const child = await post(`${api}/submit`, { parentId, code, dictValue: '三', dictKey: 3, sort: 1, isSealed: 0 });
    expect(child.json(), child.body).toMatchObject({ success: true });
    const detail = await get(`${api}/detail?id=${child.json().data}`);
    expect(detail.json().data).toMatchObject({ dictKey: '3', code });
    expect((await get(`${api}/detail?id=${parentId}`)).json().data.dictKey).toBe('-1');
    // The same key again, as text, is the same key.
    const twice = await post(`${api}/submit`, {
      parentId,
      code,
      dictValue: '又三',
      dictKey: '3',
      sort: 2,
      isSealed: 0,
    });
    expect(twice.statusCode).toBe(400);
  });

  it('still refuses what is not a number or text, in both languages', async () => {
    for (const dictKey of [true, { a: 1 }, ['1']]) {
      const res = await post('/api/blade-system/dict/submit', { code: 'bad_key', dictValue: 'x', dictKey, sort: 1 });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe('字典键值应为文本');
    }
    const en = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-system/dict/submit',
      headers: { 'accept-language': 'en' },
      payload: { code: 'bad_key', dictValue: 'x', dictKey: true, sort: 1 },
    });
    expect(en.json().msg).toBe('Key must be text');
  });

  it('other text fields still refuse numbers', async () => {
    const res = await post('/api/blade-system/dict/submit', { code: 12, dictValue: 'x', dictKey: 1, sort: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('字典编号应为文本');
  });
});

describe('onoff/page, the spec’s call', () => {
  beforeAll(async () => {
    const at = new Date(Date.now() - 60_000);
    for (let i = 0; i < 3; i++)
      await t.ctx.database.pool.query(
        `insert into mes_onoff (id, tenant_id, device_code, event, on_time, reason, create_time)
         values ($1, '000000', $2, 'online', $3, 'normal', $3)`,
        [String(1_950_000_000_000_000_000n + BigInt(i)), `ONOFF-${i}`, new Date(at.getTime() + i * 1000)],
      );
  });

  it('answers as onoff/list does, with the same filters and paging', async () => {
    for (const query of ['current=1&size=2', 'current=2&size=2', 'deviceCode=ONOFF-1', 'event=offline']) {
      const list = await get(`/api/blade-business/onoff/list?${query}`);
      const page = await get(`/api/blade-business/onoff/page?${query}`);
      expect(page.statusCode).toBe(200);
      expect(page.json()).toEqual(list.json());
    }
    const first = (await get('/api/blade-business/onoff/page?current=1&size=2')).json().data;
    expect(first).toMatchObject({ total: 3, size: 2, current: 1, pages: 2 });
    expect(first.records.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['ONOFF-2', 'ONOFF-1']);
  });

  it('needs the same API scope as onoff/list', async () => {
    const reader = await signInWithScopes(t, { account: 'onoffr', codes: ['onoff:read'] });
    expect((await get('/api/blade-business/onoff/page', reader)).statusCode).toBe(200);
    const other = await signInWithScopes(t, { account: 'postr', codes: ['post:read'] });
    expect((await get('/api/blade-business/onoff/page', other)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/blade-business/onoff/page' })).statusCode).toBe(401);
  });
});

describe('a code-generator configuration in the family’s shape', () => {
  /** What Saber 3.7.1's 代码生成 form submits (SpringBlade's blade_code). */
  const familyConfig = {
    datasourceId: '',
    serviceName: 'blade-desk',
    codeName: '通知公告',
    tableName: 'blade_notice',
    tablePrefix: 'blade_',
    pkName: 'id',
    packageName: 'org.springblade.desk',
    baseMode: 1,
    wrapMode: 1,
    apiPath: 'D:\\Develop\\WorkSpace\\Git\\SpringBlade\\blade-ops\\blade-develop',
    webPath: 'D:\\Develop\\WorkSpace\\Git\\Saber',
  };

  it('is accepted, read as the closest configuration of ours', async () => {
    const res = await post('/api/blade-develop/code/submit', familyConfig);
    expect(res.json(), res.body).toMatchObject({ success: true });
    const detail = (await get(`/api/blade-develop/code/detail?id=${res.json().data}`)).json().data;
    expect(detail).toMatchObject({
      codeName: '通知公告',
      codeNameEn: 'Notice',
      tableName: 'blade_notice',
      packageName: 'desk',
      apiPath: '/blade-desk/notice',
      webPath: '',
      baseMode: 1,
    });
    expect(detail).not.toHaveProperty('serviceName');
  });

  it('an edit in the family’s shape: baseMode 2 (no base entity) is tenant rows without audit columns', async () => {
    const added = (
      await post('/api/blade-develop/code/submit', { ...familyConfig, tableName: 'blade_gauge_log' })
    ).json();
    expect(added).toMatchObject({ success: true });
    const edit = await post('/api/blade-develop/code/submit', {
      ...familyConfig,
      id: added.data,
      baseMode: 2,
      tableName: 'blade_gauge_log',
    });
    expect(edit.json(), edit.body).toMatchObject({ success: true });
    const detail = (await get(`/api/blade-develop/code/detail?id=${added.data}`)).json().data;
    expect(detail).toMatchObject({ baseMode: 3, codeNameEn: 'Gauge log', apiPath: '/blade-desk/gauge-log' });
  });

  it('what cannot be read is refused with a message naming our field, in both languages', async () => {
    const res = await post('/api/blade-develop/code/submit', { ...familyConfig, tableName: 'Blade Notice' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('表名只能包含小写字母、数字和下划线(可带模式名,如 public.mes_gauge)');
    const en = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-develop/code/submit',
      headers: { 'accept-language': 'en' },
      payload: { ...familyConfig, tableName: 'Blade Notice' },
    });
    expect(en.json().msg).toBe('A table name holds lower-case letters, digits and _ (optionally schema.table)');
  });

  it('our own form without an English title is told what to fill, not only 请输入英文名', async () => {
    const body = { codeName: '量具', tableName: 'mes_gauge', packageName: 'business', apiPath: '/mes/gauge' };
    const res = await post('/api/blade-develop/code/submit', body);
    expect(res.json().msg).toBe('请输入模块的英文名称(菜单和页面的英文标题,如 Gauges)');
    const en = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-develop/code/submit',
      headers: { 'accept-language': 'en' },
      payload: body,
    });
    expect(en.json().msg).toBe('Please enter the English title of the module (its menu and screen title, e.g. Gauges)');
  });

  it('a configuration of our own shape is taken as it is', async () => {
    const ours = {
      codeName: '量具',
      codeNameEn: 'Gauges',
      tableName: 'mes_gauge',
      packageName: 'business',
      baseMode: 2,
      menuGroup: 'business',
      apiPath: '/mes/gauge',
    };
    const res = await post('/api/blade-develop/code/submit', ours);
    expect(res.json(), res.body).toMatchObject({ success: true });
    const detail = (await get(`/api/blade-develop/code/detail?id=${res.json().data}`)).json().data;
    expect(detail).toMatchObject({ baseMode: 2, codeNameEn: 'Gauges', apiPath: '/mes/gauge', packageName: 'business' });
  });
});
