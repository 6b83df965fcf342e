import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readParam } from '../src/platform/db/params';
import { region } from '../src/platform/db/schema';
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
const API = '/api/blade-system/region';
const rowOf = async (code: string) => (await t.ctx.db.select().from(region).where(eq(region.code, code)))[0];

describe('regions', () => {
  beforeAll(async () => {
    for (const [code, parentCode, name, regionLevel] of [
      ['32', '00', '江苏省', 1],
      ['3205', '32', '苏州市', 2],
      ['320505', '3205', '虎丘区', 3],
      ['3202', '32', '无锡市', 2],
    ] as const) {
      const res = await post(`${API}/submit`, { code, parentCode, name, regionLevel, sort: 1 });
      expect(res.json()).toMatchObject({ success: true });
    }
  });

  it('fills ancestors and the level columns from the parent chain', async () => {
    expect(await rowOf('32')).toMatchObject({
      ancestors: '00',
      provinceCode: '32',
      provinceName: '江苏省',
      cityCode: '',
    });
    expect(await rowOf('3205')).toMatchObject({
      ancestors: '00,32',
      provinceCode: '32',
      provinceName: '江苏省',
      cityCode: '3205',
      cityName: '苏州市',
      districtCode: '',
    });
    expect(await rowOf('320505')).toMatchObject({
      ancestors: '00,32,3205',
      provinceName: '江苏省',
      cityName: '苏州市',
      districtCode: '320505',
      districtName: '虎丘区',
      townCode: '',
    });
  });

  it('refuses a missing parent, a wrong level and a level change', async () => {
    const noParent = await post(`${API}/submit`, { code: '4401', parentCode: '44', name: '广州市', regionLevel: 2 });
    expect(noParent.statusCode).toBe(400);
    expect(noParent.json().msg).toBe('上级区划不存在');
    const level = await post(`${API}/submit`, { code: '3206', parentCode: '32', name: '南通市', regionLevel: 3 });
    expect(level.json().msg).toBe('下级区划的层级应为 2');
    // An existing code is an update of that region (the family keys regions by code), not a duplicate.
    const again = await post(`${API}/submit`, { code: '3205', parentCode: '32', name: '苏州市', regionLevel: 2 });
    expect(again.json()).toMatchObject({ success: true, msg: '更新成功', data: (await rowOf('3205'))?.id });
    const id = (await rowOf('3205'))?.id;
    const change = await post(`${API}/submit`, { id, regionLevel: 3 });
    expect(change.json().msg).toBe('区划层级不可修改');
  });

  it('answers the lazy tree by parent code', async () => {
    const top = (await get(`${API}/lazy-tree`)).json().data;
    expect(top).toEqual([
      { id: '32', parentId: '00', key: '32', value: '32', title: '江苏省', regionLevel: 1, hasChildren: true },
    ]);
    const cities = (await get(`${API}/lazy-tree?parentCode=32`)).json().data;
    expect(cities.map((c: { id: string; hasChildren: boolean }) => [c.id, c.hasChildren])).toEqual([
      ['3202', false],
      ['3205', true],
    ]);
    expect((await get(`${API}/lazy-tree?parentCode=x`)).statusCode).toBe(400);
  });

  it('answers detail by code and the generic list', async () => {
    const detail = await get(`${API}/detail?code=3205`);
    expect(detail.json().data).toMatchObject({ code: '3205', name: '苏州市', parentCode: '32' });
    expect((await get(`${API}/detail?code=99`)).statusCode).toBe(404);
    expect((await get(`${API}/detail`)).json().msg).toBe('缺少必要的请求参数: code');
    const list = (await get(`${API}/list?parentCode_equal=32`)).json().data;
    expect(list.total).toBe(2);
  });

  it('renames a region in its descendants’ columns too', async () => {
    const id = (await rowOf('32'))?.id;
    expect((await post(`${API}/submit`, { id, name: '江苏' })).json()).toMatchObject({ success: true });
    expect(await rowOf('32')).toMatchObject({ name: '江苏', provinceName: '江苏' });
    expect(await rowOf('320505')).toMatchObject({ provinceName: '江苏', cityName: '苏州市' });
  });

  it('removes by code (as BladeX sends it), leaves first', async () => {
    const parent = await post(`${API}/remove?id=3205`, {});
    expect(parent.statusCode).toBe(400);
    expect(parent.json().msg).toBe('请先删除子节点');
    expect((await post(`${API}/remove?id=320505`, {})).json()).toMatchObject({ success: true });
    expect((await post(`${API}/remove`, { id: '3205' })).json()).toMatchObject({ success: true });
    expect((await rowOf('3205'))?.isDeleted).toBe(1);
    expect((await post(`${API}/remove?id=3205`, {})).statusCode).toBe(404);
    expect((await post(`${API}/remove?id=abc`, {})).statusCode).toBe(400);
  });

  it('lets any signed-in user browse, and only the platform change', async () => {
    const password = (await readParam(t.ctx.db, 'tenant.default.password')) as string;
    const add = await post('/api/blade-system/tenant/submit', {
      tenantId: '300000',
      tenantName: '口腔诊所',
      linkman: 'x',
    });
    expect(add.json()).toMatchObject({ success: true });
    const other = (await t.signIn('admin', password, '300000')).access_token;
    const tree = await get(`${API}/lazy-tree?parentCode=32`, other);
    expect(tree.statusCode).toBe(200);
    expect(tree.json().data.map((c: { id: string }) => c.id)).toEqual(['3202']);
    // The family's cascading picker: the children of `code`, as full rows with the family's fields.
    const top = await get(`${API}/select`, other);
    expect(top.statusCode).toBe(200);
    expect(top.json().data.map((r: { code: string }) => r.code)).toEqual(['32']);
    expect((await get(`${API}/select?code=32`, other)).json().data).toEqual([
      expect.objectContaining({ code: '3202', name: '无锡市', parentCode: '32', level: 2, parentName: '江苏' }),
    ]);
    expect((await get(`${API}/select?code=32&code=33`, other)).statusCode).toBe(400);
    const write = await post(`${API}/submit`, { code: '33', name: '浙江省', regionLevel: 1 }, other);
    expect(write.statusCode).toBe(403);
  });
});
