import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createTestApp, type TestApp } from './support/test-app';

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

describe('generic resource routes (posts)', () => {
  let id: string;

  it('adds a row and says 新增成功', async () => {
    const res = await post('/api/blade-system/post/submit', {
      category: 2,
      postCode: 'qa',
      postName: '质检员',
      sort: 9,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, msg: '新增成功' });
    id = res.json().data;
    expect(id).toMatch(/^\d+$/);
  });

  it('lists a page with declared filters and gives the exact total', async () => {
    const res = await get('/api/blade-system/post/list?current=1&size=10&postName=质检');
    const page = res.json().data;
    expect(page).toMatchObject({ total: 1, size: 10, current: 1, pages: 1 });
    expect(page.records[0]).toMatchObject({ id, postCode: 'qa', postName: '质检员', category: 2, tenantId: '000000' });
    expect(page.records[0]).not.toHaveProperty('isDeleted');
    const all = await get('/api/blade-system/post/list?size=100');
    expect(all.json().data.total).toBe(9);
  });

  it('updates only declared fields and says 更新成功', async () => {
    const res = await post('/api/blade-system/post/submit', {
      id,
      postName: '质检主管',
      tenantId: '999999',
      createUser: '1',
    });
    expect(res.json()).toMatchObject({ success: true, msg: '更新成功' });
    const detail = (await get(`/api/blade-system/post/detail?id=${id}`)).json().data;
    expect(detail).toMatchObject({ postName: '质检主管', postCode: 'qa', tenantId: '000000' });
    expect(detail.createUser).not.toBe('1');
  });

  it('refuses invalid values with the rule’s message and stores nothing', async () => {
    const missing = await post('/api/blade-system/post/submit', { category: 1, postName: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe('请输入岗位编号');
    const long = await post('/api/blade-system/post/submit', { category: 1, postCode: 'x'.repeat(13), postName: 'x' });
    expect(long.json().msg).toBe('岗位编号最长 12 个字符');
    const notNumber = await post('/api/blade-system/post/submit', { category: 'abc', postCode: 'y', postName: 'y' });
    expect(notNumber.json().msg).toBe('岗位类型应为整数');
    expect((await get('/api/blade-system/post/list?postCode_equal=y')).json().data.total).toBe(0);
  });

  it('refuses undeclared filters and sorts (never SQL)', async () => {
    const filter = await get('/api/blade-system/post/list?remark=1');
    expect(filter.statusCode).toBe(400);
    const sort = await get('/api/blade-system/post/list?descs=id;drop table blade_post');
    expect(sort.statusCode).toBe(400);
    const ok = await get('/api/blade-system/post/list?descs=post_code');
    expect(ok.statusCode).toBe(200);
  });

  it('exports every matching row as xlsx with dictionary labels', async () => {
    const res = await get('/api/blade-system/post/export?postCode=qa');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.getRow(1).values).toContain('岗位编号');
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(2).values).toContain('中层');
  });

  it('removes with ids, says 删除成功, and the row is gone from list and detail', async () => {
    const res = await post(`/api/blade-system/post/remove?ids=${id}`, {});
    expect(res.json()).toMatchObject({ success: true, msg: '删除成功' });
    expect((await get(`/api/blade-system/post/detail?id=${id}`)).statusCode).toBe(404);
    expect((await get('/api/blade-system/post/list?size=100')).json().data.total).toBe(8);
  });

  it('needs ids to remove', async () => {
    const res = await post('/api/blade-system/post/remove', {});
    expect(res.json()).toMatchObject({ success: false, msg: '缺少必要的请求参数: ids' });
  });

  it('publishes an OpenAPI description at /api/docs (to a signed-in caller)', async () => {
    const res = await get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.paths['/api/blade-system/post/submit']).toBeDefined();
    expect(doc.paths['/api/blade-system/post/list'].get.parameters.map((p: { name: string }) => p.name)).toContain(
      'postName',
    );
  });
});
