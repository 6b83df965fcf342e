import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dict, dictBiz, tenant } from '../src/platform/db/schema';
import { SEED_DICTS } from '../src/seed/seed-data';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let admin: string;
/** A platform-tenant user granted the dictionary scopes, but not the administrator. */
let editor: string;
/** Users of two other tenants, granted the business-dictionary and system-dictionary scopes. */
let bob: string;
let carol: string;

const DICT = '/api/blade-system/dict';
const BIZ = '/api/blade-system/dict-biz';
const SEX_PARENT = SEED_DICTS.find((d) => d.code === 'sex' && d.parentId === '0')!;
const SEX_MALE = SEED_DICTS.find((d) => d.code === 'sex' && d.dictKey === '1')!;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const all = ['dict:read', 'dict:write', 'dictbiz:read', 'dictbiz:write'];
  editor = await signInWithScopes(t, { tenantId: '000000', account: 'editor', codes: all });
  await t.ctx.db.insert(tenant).values([
    { id: '9400', tenantId: '222222', tenantName: 'two' },
    { id: '9401', tenantId: '333333', tenantName: 'three' },
  ]);
  bob = await signInWithScopes(t, { tenantId: '222222', account: 'bob', codes: all });
  carol = await signInWithScopes(t, { tenantId: '333333', account: 'carol', codes: ['dictbiz:read', 'dictbiz:write'] });
});
afterAll(() => t.close());

const get = (url: string, token = admin) => t.as(token, { method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>, token = admin) =>
  t.as(token, { method: 'POST', url, payload });
const submit = async (base: string, payload: Record<string, unknown>, token = admin) => {
  const res = await post(`${base}/submit`, payload, token);
  return { status: res.statusCode, body: res.json() };
};
const added = async (base: string, payload: Record<string, unknown>, token = admin) => {
  const res = await submit(base, payload, token);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true, msg: '新增成功' });
  return res.body.data as string;
};
const row = async (table: typeof dict | typeof dictBiz, id: string) =>
  (await t.ctx.db.select().from(table).where(eq(table.id, id)))[0];

describe('system dictionaries: parents and entries', () => {
  let parentId: string;
  let entryId: string;

  it('adds a parent with dictKey -1 whatever the client sends', async () => {
    parentId = await added(DICT, { code: 'device_status', dictValue: '设备状态', sort: 20, isSealed: 0, dictKey: 'x' });
    expect(await row(dict, parentId)).toMatchObject({ parentId: '0', code: 'device_status', dictKey: '-1' });
  });

  it('refuses a second parent with the same code', async () => {
    const res = await submit(DICT, { code: 'device_status', dictValue: '重复', sort: 1, isSealed: 0 });
    expect(res).toMatchObject({ status: 400, body: { success: false, msg: '当前字典编号已存在' } });
    const seeded = await submit(DICT, { code: 'sex', dictValue: '性别2', sort: 1, isSealed: 0 });
    expect(seeded.body.msg).toBe('当前字典编号已存在');
  });

  it('gives an entry its parent’s code, ignoring the client’s', async () => {
    entryId = await added(DICT, { parentId, code: 'other', dictKey: '1', dictValue: '运行', sort: 1, isSealed: 0 });
    expect(await row(dict, entryId)).toMatchObject({ parentId, code: 'device_status', dictKey: '1' });
    await added(DICT, { parentId, code: 'device_status', dictKey: '2', dictValue: '停机', sort: 2, isSealed: 0 });
  });

  it('needs a key for an entry and refuses a key used in the same dictionary', async () => {
    const missing = await submit(DICT, { parentId, code: 'device_status', dictValue: '无键', sort: 3, isSealed: 0 });
    expect(missing.body).toMatchObject({ success: false, msg: '请输入字典键值' });
    const dup = await submit(DICT, { parentId, code: 'x', dictKey: '1', dictValue: '重复', sort: 3, isSealed: 0 });
    expect(dup).toMatchObject({ status: 400, body: { msg: '当前字典键值已存在' } });
    const rename = await submit(DICT, { id: entryId, dictKey: '2' });
    expect(rename.body.msg).toBe('当前字典键值已存在');
    // The same key in another dictionary is fine.
    await added(DICT, { parentId: SEX_PARENT.id, code: 'sex', dictKey: '9', dictValue: '其他', sort: 9, isSealed: 0 });
  });

  it('refuses an entry under a missing parent or under another entry', async () => {
    const missing = await submit(DICT, {
      parentId: '123',
      code: 'x',
      dictKey: '1',
      dictValue: 'x',
      sort: 1,
      isSealed: 0,
    });
    expect(missing.body).toMatchObject({ success: false, msg: '上级字典不存在' });
    const nested = await submit(DICT, {
      parentId: entryId,
      code: 'x',
      dictKey: '5',
      dictValue: 'x',
      sort: 1,
      isSealed: 0,
    });
    expect(nested.body.msg).toBe('上级字典必须是顶级字典');
    const level = await submit(DICT, { id: entryId, parentId: '0' });
    expect(level.body.msg).toBe('顶级字典与字典项不能互相转换');
  });

  it('validates the form’s required fields and the sealed flag', async () => {
    expect((await submit(DICT, { dictValue: 'x', sort: 1, isSealed: 0 })).body.msg).toBe('请输入字典编号');
    expect((await submit(DICT, { code: 'y', sort: 1, isSealed: 0 })).body.msg).toBe('请输入字典名称');
    // Absent sort and isSealed take their defaults; sent empty they are refused.
    expect((await submit(DICT, { code: 'y', dictValue: 'y', sort: '', isSealed: 0 })).body.msg).toBe('请输入字典排序');
    expect((await submit(DICT, { code: 'y', dictValue: 'y', sort: 1, isSealed: '' })).body.msg).toBe(
      '请选择字典是否封存',
    );
    expect((await submit(DICT, { code: 'y', dictValue: 'y', sort: 1, isSealed: 7 })).body.msg).toBe('封存的取值无效');
  });

  it('moves a changed parent code to its entries', async () => {
    const res = await submit(DICT, { id: parentId, code: 'machine_status', dictValue: '设备状态' });
    expect(res.body).toMatchObject({ success: true, msg: '更新成功' });
    const entries = await t.ctx.db.select().from(dict).where(eq(dict.parentId, parentId));
    expect(entries.map((e) => e.code)).toEqual(['machine_status', 'machine_status']);
    const flat = (await get(`${DICT}/dictionary?code=machine_status`, bob)).json().data;
    expect(flat.map((e: { dictKey: string }) => e.dictKey)).toEqual(['1', '2']);
  });

  it('pages the parents, with filters', async () => {
    const res = await get(`${DICT}/parent-list?current=1&size=100`);
    expect(res.statusCode).toBe(200);
    const page = res.json().data;
    expect(page.records.every((r: { parentId: string }) => r.parentId === '0')).toBe(true);
    expect(page.total).toBe(SEED_DICTS.filter((d) => d.parentId === '0').length + 1);
    expect(page.records[0]).toMatchObject({ code: 'sex', parentName: '顶级' });
    const filtered = (await get(`${DICT}/parent-list?code=machine`)).json().data;
    expect(filtered.records.map((r: { id: string }) => r.id)).toEqual([parentId]);
    expect((await get(`${DICT}/parent-list?parentId_equal=1`)).statusCode).toBe(400);
  });

  it('lists the entries of a parent with the parent’s name, paged or whole', async () => {
    const whole = (await get(`${DICT}/child-list?parentId=${parentId}`)).json().data;
    expect(whole.map((r: { dictValue: string }) => r.dictValue)).toEqual(['运行', '停机']);
    expect(whole[0]).toMatchObject({ parentId, parentName: '设备状态', code: 'machine_status' });
    const paged = (await get(`${DICT}/child-list?parentId=${parentId}&current=2&size=1`)).json().data;
    expect(paged).toMatchObject({ total: 2, current: 2, size: 1 });
    expect(paged.records[0].dictValue).toBe('停机');
    expect((await get(`${DICT}/child-list`)).json()).toMatchObject({ code: 400, msg: '缺少必要的请求参数: parentId' });
    expect((await get(`${DICT}/child-list?parentId=abc`)).statusCode).toBe(400);
  });

  it('lists every dictionary as a tree and answers the picker tree', async () => {
    const forest = (await get(`${DICT}/list`)).json().data;
    const sex = forest.find((n: { code: string }) => n.code === 'sex');
    expect(sex).toMatchObject({ id: SEX_PARENT.id, hasChildren: true });
    expect(sex.children.map((c: { dictKey: string }) => c.dictKey)).toEqual(['1', '2', '3', '9']);
    const tree = (await get(`${DICT}/tree?code=DICT`)).json().data;
    const node = tree.find((n: { id: string }) => n.id === parentId);
    expect(Object.keys(node).sort()).toEqual(['children', 'hasChildren', 'id', 'key', 'parentId', 'title', 'value']);
    expect(node).toMatchObject({ parentId: '0', title: '设备状态', key: parentId, value: parentId, hasChildren: true });
    expect(node.children[0]).toMatchObject({ parentId, title: '运行', hasChildren: false });
  });

  it('answers detail with the parent’s name', async () => {
    const res = await get(`${DICT}/detail?id=${entryId}`);
    expect(res.json().data).toMatchObject({ id: entryId, parentName: '设备状态', dictKey: '1' });
  });

  it('removes a parent together with its entries', async () => {
    const res = await post(`${DICT}/remove?ids=${parentId}`, {});
    expect(res.json()).toMatchObject({ success: true, msg: '删除成功' });
    const left = await t.ctx.db
      .select()
      .from(dict)
      .where(and(eq(dict.code, 'machine_status'), eq(dict.isDeleted, 0)));
    expect(left).toEqual([]);
    expect((await get(`${DICT}/dictionary?code=machine_status`)).json().data).toEqual([]);
    expect((await post(`${DICT}/remove`, {})).json().msg).toBe('缺少必要的请求参数: ids');
    expect((await post(`${DICT}/remove?ids=1,x`, {})).statusCode).toBe(400);
  });
});

describe('sealed dictionaries', () => {
  it('seals the seeded system dictionaries', () => {
    expect(SEED_DICTS.every((d) => d.isSealed === 1)).toBe(true);
  });

  it('refuses to change or remove a sealed row unless the caller is the platform administrator', async () => {
    const edit = await submit(DICT, { id: SEX_MALE.id, dictValue: '男性' }, editor);
    expect(edit).toMatchObject({ status: 400, body: { msg: '封存的字典不能修改' } });
    const unseal = await submit(DICT, { id: SEX_MALE.id, isSealed: 0 }, editor);
    expect(unseal.body.msg).toBe('封存的字典不能修改');
    const remove = await post(`${DICT}/remove?ids=${SEX_MALE.id}`, {}, editor);
    expect(remove.json()).toMatchObject({ code: 400, msg: '封存的字典不能删除' });
    expect((await row(dict, SEX_MALE.id))?.dictValue).toBe('男');
    const adminEdit = await submit(DICT, { id: SEX_MALE.id, remark: '管理员可改' });
    expect(adminEdit.body.success).toBe(true);
  });

  it('refuses to remove a parent whose entries include a sealed one, removing nothing', async () => {
    const parentId = await added(DICT, { code: 'warn_level', dictValue: '告警级别', sort: 30, isSealed: 0 }, editor);
    const open = await added(
      DICT,
      { parentId, code: 'warn_level', dictKey: '1', dictValue: '一般', sort: 1, isSealed: 0 },
      editor,
    );
    await added(DICT, { parentId, code: 'x', dictKey: '2', dictValue: '严重', sort: 2, isSealed: 1 }, editor);
    const res = await post(`${DICT}/remove?ids=${parentId}`, {}, editor);
    expect(res.json().msg).toBe('封存的字典不能删除');
    expect((await row(dict, open))?.isDeleted).toBe(0);
    const recode = await submit(DICT, { id: parentId, code: 'warn_level_2' }, editor);
    expect(recode.body.msg).toBe('封存的字典不能修改');
    // The platform administrator may.
    expect((await post(`${DICT}/remove?ids=${parentId}`, {})).json().success).toBe(true);
    expect((await row(dict, open))?.isDeleted).toBe(1);
  });

  it('lets the platform administrator unseal, after which others may edit', async () => {
    expect((await submit(DICT, { id: SEX_MALE.id, isSealed: 0 })).body.success).toBe(true);
    expect((await submit(DICT, { id: SEX_MALE.id, remark: '已解封' }, editor)).body.success).toBe(true);
  });
});

describe('dictionary?code= for selects', () => {
  it('returns the seeded entries of sex, sorted, to any signed-in user', async () => {
    for (const token of [admin, bob]) {
      const res = await get(`${DICT}/dictionary?code=sex`, token);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.slice(0, 3)).toEqual([
        {
          id: SEX_MALE.id,
          parentId: SEX_PARENT.id,
          code: 'sex',
          dictKey: '1',
          dictValue: '男',
          sort: 1,
          remark: '已解封',
          isSealed: 0,
        },
        expect.objectContaining({ dictKey: '2', dictValue: '女', sort: 2, isSealed: 1 }),
        expect.objectContaining({ dictKey: '3', dictValue: '未知', sort: 3 }),
      ]);
      expect(data.every((e: { parentId: string }) => e.parentId !== '0')).toBe(true);
    }
  });

  it('needs a code and answers an unknown one with an empty list', async () => {
    expect((await get(`${DICT}/dictionary`)).json()).toMatchObject({ code: 400, msg: '缺少必要的请求参数: code' });
    expect((await get(`${DICT}/dictionary?code=nothing`)).json().data).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `${DICT}/dictionary?code=sex` })).statusCode).toBe(401);
  });
});

describe('tenants and system dictionaries', () => {
  it('lets a tenant read them but not change them, even with the write scope', async () => {
    expect((await get(`${DICT}/parent-list`, bob)).statusCode).toBe(200);
    const add = await post(`${DICT}/submit`, { code: 'bobs', dictValue: 'bob', sort: 1, isSealed: 0 }, bob);
    expect(add.statusCode).toBe(403);
    const remove = await post(`${DICT}/remove?ids=${SEX_PARENT.id}`, {}, bob);
    expect(remove.statusCode).toBe(403);
    expect((await row(dict, SEX_PARENT.id))?.isDeleted).toBe(0);
  });

  it('refuses callers without the scope', async () => {
    expect((await get(`${DICT}/parent-list`, carol)).statusCode).toBe(403);
    expect((await post(`${DICT}/submit`, { code: 'c', dictValue: 'c', sort: 1, isSealed: 0 }, carol)).statusCode).toBe(
      403,
    );
  });
});

describe('business dictionaries', () => {
  let bobParent: string;
  let carolParent: string;

  it('keeps each tenant’s dictionaries apart, even with the same code', async () => {
    bobParent = await added(BIZ, { code: 'line_type', dictValue: '产线类型', sort: 1, isSealed: 0 }, bob);
    carolParent = await added(BIZ, { code: 'line_type', dictValue: '产线类型', sort: 1, isSealed: 0 }, carol);
    await added(
      BIZ,
      { parentId: bobParent, code: 'line_type', dictKey: '1', dictValue: '灌装线', sort: 1, isSealed: 0 },
      bob,
    );
    await added(
      BIZ,
      { parentId: carolParent, code: 'line_type', dictKey: '1', dictValue: '包装线', sort: 1, isSealed: 0 },
      carol,
    );
    const [stored] = await t.ctx.db.select().from(dictBiz).where(eq(dictBiz.id, bobParent));
    expect(stored?.tenantId).toBe('222222');
    const bobs = (await get(`${BIZ}/dictionary?code=line_type`, bob)).json().data;
    const carols = (await get(`${BIZ}/dictionary?code=line_type`, carol)).json().data;
    expect(bobs.map((e: { dictValue: string }) => e.dictValue)).toEqual(['灌装线']);
    expect(carols.map((e: { dictValue: string }) => e.dictValue)).toEqual(['包装线']);
    expect((await get(`${BIZ}/dictionary?code=line_type`)).json().data).toEqual([]);
    const dup = await submit(BIZ, { code: 'line_type', dictValue: '再来', sort: 2, isSealed: 0 }, bob);
    expect(dup.body.msg).toBe('当前字典编号已存在');
  });

  it('hides other tenants’ rows from every route', async () => {
    const parents = (await get(`${BIZ}/parent-list`, bob)).json().data;
    expect(parents.records.map((r: { id: string }) => r.id)).toEqual([bobParent]);
    expect((await get(`${BIZ}/child-list?parentId=${carolParent}`, bob)).json().data).toEqual([]);
    expect((await get(`${BIZ}/detail?id=${carolParent}`, bob)).statusCode).toBe(404);
    const tree = (await get(`${BIZ}/tree?code=DICT`, bob)).json().data;
    expect(tree.map((n: { id: string }) => n.id)).toEqual([bobParent]);
    const list = (await get(`${BIZ}/list`, carol)).json().data;
    expect(list.map((n: { id: string }) => n.id)).toEqual([carolParent]);
  });

  it('refuses to add an entry under, change or remove another tenant’s rows', async () => {
    const under = await submit(
      BIZ,
      { parentId: carolParent, code: 'x', dictKey: '2', dictValue: 'x', sort: 1, isSealed: 0 },
      bob,
    );
    expect(under.body.msg).toBe('上级字典不存在');
    const edit = await submit(BIZ, { id: carolParent, dictValue: '偷改' }, bob);
    expect(edit.status).toBe(404);
    const remove = await post(`${BIZ}/remove?ids=${carolParent}`, {}, bob);
    expect(remove.statusCode).toBe(404);
    expect(await row(dictBiz, carolParent)).toMatchObject({ isDeleted: 0, dictValue: '产线类型' });
  });

  it('removes a tenant’s parent with its entries', async () => {
    expect((await post(`${BIZ}/remove?ids=${carolParent}`, {}, carol)).json().success).toBe(true);
    expect((await get(`${BIZ}/dictionary?code=line_type`, carol)).json().data).toEqual([]);
    expect((await get(`${BIZ}/dictionary?code=line_type`, bob)).json().data).toHaveLength(1);
  });
});
