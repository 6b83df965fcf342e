import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({
    beforeReady(app) {
      app.get('/api/test/boom', { config: { anyUser: true } }, async () => {
        throw new Error('secret detail at /srv/app/internal.ts:42');
      });
    },
  });
  token = (await t.signIn()).access_token;
});
afterAll(() => t.close());

const get = (url: string) => t.as(token, { method: 'GET', url });
const parentList = async (query: string) => {
  const res = await get(`/api/blade-system/dict/parent-list?${query}`);
  return { status: res.statusCode, body: res.json() };
};

describe('envelope and status codes', () => {
  it('wraps data as {code, success, data, msg}, with string ids', async () => {
    const res = await get('/api/blade-system/dict/dictionary?code=sex');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 200, success: true, msg: '操作成功' });
    expect(body.data.map((d: { dictKey: string; dictValue: string }) => [d.dictKey, d.dictValue])).toEqual([
      ['1', '男'],
      ['2', '女'],
      ['3', '未知'],
    ]);
    expect(typeof body.data[0].id).toBe('string');
  });

  it('a missing parameter is a 400 that names it', async () => {
    const res = await get('/api/blade-system/dict/dictionary');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, success: false, data: null, msg: '缺少必要的请求参数: code' });
  });

  it('an unknown route is a 404 for a signed-in caller', async () => {
    const res = await get('/api/blade-system/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, success: false });
  });

  it('a known route with the wrong method is a 405', async () => {
    const res = await t.as(token, { method: 'DELETE', url: '/api/blade-user/info' });
    expect(res.statusCode).toBe(405);
    expect(res.json().code).toBe(405);
  });

  it('an unsupported content type is a 415', async () => {
    const res = await t.as(token, {
      method: 'POST',
      url: '/api/blade-auth/oauth/logout',
      headers: { 'content-type': 'application/xml' },
      payload: '<logout/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe(415);
  });

  it('malformed JSON is a 400', async () => {
    const res = await t.as(token, {
      method: 'POST',
      url: '/api/blade-auth/oauth/logout',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(400);
  });

  it('a server error is a 500 with a generic message and no stack or detail', async () => {
    const res = await get('/api/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 500, success: false, data: null });
    // Only a generic message and the error-log id the user can quote to an administrator.
    expect(res.json().msg).toMatch(/^服务器异常,请联系管理员\(错误编号 \d+\)$/);
    expect(res.body).not.toContain('internal.ts');
    expect(res.body).not.toContain('secret');
  });

  it('health answers without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toMatchObject({ code: 200, data: { status: 'UP' } });
  });
});

describe('pages, filters and sorting', () => {
  it('returns the page shape with defaults current 1, size 10', async () => {
    const { status, body } = await parentList('');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ current: 1, size: 10 });
    expect(body.data.total).toBeGreaterThanOrEqual(19);
    expect(body.data.records).toHaveLength(10);
    expect(body.data.pages).toBe(Math.ceil(body.data.total / 10));
  });

  it('pages through the list', async () => {
    const first = (await parentList('size=5&current=1')).body.data.records.map((r: { code: string }) => r.code);
    const second = (await parentList('size=5&current=2')).body.data.records.map((r: { code: string }) => r.code);
    expect(first).toHaveLength(5);
    expect(second).toHaveLength(5);
    expect(first.filter((c: string) => second.includes(c))).toEqual([]);
  });

  it('filters with a bare name (LIKE for text) and with suffixes', async () => {
    const codes = async (q: string) =>
      (await parentList(`size=100&${q}`)).body.data.records.map((r: { code: string }) => r.code).sort();
    expect(await codes('code_equal=sex')).toEqual(['sex']);
    expect(await codes('dictValue=性别')).toEqual(['sex']);
    expect(await codes('code_like=scope')).toEqual(['api_scope_type', 'data_scope_type']);
    expect(await codes('code_notlike=_')).not.toContain('yes_no');
    expect(await codes('code_notequal=sex')).not.toContain('sex');
    expect(await codes('isSealed=1')).toHaveLength((await parentList('size=100')).body.data.total);
    expect(await codes('isSealed_equal=0')).toEqual([]);
    expect(await codes('createTime_dategt=2000-01-01&createTime_datelt=2999-12-31 23:59:59')).toContain('sex');
    expect(await codes('createTime_datelt=2000-01-01')).toEqual([]);
    expect(await codes('code_ignore=anything')).toContain('sex');
    expect(await codes('code_notnull=')).toContain('sex');
    expect(await codes('code_null=')).toEqual([]);
  });

  it('drops empty filter values', async () => {
    const all = (await parentList('size=100')).body.data.total;
    expect((await parentList('size=100&code=&dictValue=')).body.data.total).toBe(all);
  });

  it('treats LIKE wildcards in the value literally', async () => {
    expect((await parentList('code=%25')).body.data.total).toBe(0);
    expect((await parentList('code=_')).body.data.total).toBeGreaterThan(0); // codes do contain "_"
    expect((await parentList('code=s_x')).body.data.total).toBe(0);
  });

  it('sorts on declared fields, ascending and descending, camelCase or snake_case', async () => {
    const ordered = async (q: string) =>
      (await parentList(`size=100&${q}`)).body.data.records.map((r: { code: string }) => r.code);
    const asc = await ordered('ascs=code');
    expect(asc).toEqual([...asc].sort());
    const desc = await ordered('descs=code');
    expect(desc).toEqual([...asc].reverse());
    expect((await parentList('descs=create_time')).status).toBe(200);
    expect((await parentList('ascs=sort,code')).status).toBe(200);
  });

  it.each([
    ['an undeclared field', 'ancestors=x', '不支持的查询条件: ancestors'],
    ['a column that exists but is not declared', 'isDeleted=1', '不支持的查询条件: isDeleted'],
    ['an undeclared field with a suffix', 'tenantId_equal=000000', '不支持的查询条件: tenantId_equal'],
    ['SQL in the parameter name', 'code%3Bdrop%20table%20blade_dict=1', '不支持的查询条件: code;drop table blade_dict'],
    ['an operator the type does not have', 'isSealed_like=1', '不支持的查询条件: isSealed_like'],
    ['a sort on an undeclared field', 'ascs=remark', '不支持的排序字段: remark'],
    ['a sort on a filter-only field', 'descs=isSealed', '不支持的排序字段: isSealed'],
    [
      'SQL in the sort (CVE-2020-16165)',
      'ascs=code%2C(select%201%20from%20pg_sleep(3))',
      '不支持的排序字段: (select 1 from pg_sleep(3))',
    ],
    [
      'SQL in descs',
      'descs=code%20desc%3Bdelete%20from%20blade_user',
      '不支持的排序字段: code desc;delete from blade_user',
    ],
  ])('refuses %s with a 400', async (_what, query, msg) => {
    const { status, body } = await parentList(query);
    expect(status).toBe(400);
    expect(body).toEqual({ code: 400, success: false, data: null, msg });
  });

  it.each([
    ['a non-numeric number', 'isSealed=abc'],
    ['a malformed date', 'createTime_dategt=yesterday'],
    ['an impossible date', 'createTime_dategt=2026-02-30'],
    ['current 0', 'current=0'],
    ['a non-numeric size', 'size=ten'],
    ['a repeated parameter', 'code=a&code=b'],
    ['an over-long text', `code=${'x'.repeat(201)}`],
  ])('refuses %s with a 400', async (_what, query) => {
    const { status, body } = await parentList(query);
    expect(status).toBe(400);
    expect(body.success).toBe(false);
  });

  it('clamps a huge page size instead of reading the whole table', async () => {
    const { body } = await parentList('size=100000');
    expect(body.data.size).toBe(1000);
  });

  it('leaves the table intact after the injection attempts', async () => {
    const { body } = await parentList('code_equal=sex');
    expect(body.data.total).toBe(1);
  });
});
