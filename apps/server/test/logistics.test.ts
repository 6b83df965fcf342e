import { and, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { article, car, dict, line, menu, oenmo, user } from '../src/platform/db/schema';
import { DEPT_IDS } from '../src/seed/seed-data';
import { signInAsProvisionedTenant, signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/** Issue 16 point 6: lines with car, driver and schedule; cars; articles; oenmo (docs/logistics.md). */

const OTHER_TENANT = '300016';
const BIZ = '/api/blade-business';
let t: TestApp;
let admin: string;
let other: string;

type Body = Record<string, unknown>;
const get = (url: string, token = admin) => t.as(token, { method: 'GET', url });
const post = (url: string, payload: Body, token = admin) => t.as(token, { method: 'POST', url, payload });
const submit = (res: string, body: Body, token = admin) => post(`${BIZ}/${res}/submit`, body, token);
const detail = async (res: string, id: string, token = admin) =>
  (await get(`${BIZ}/${res}/detail?id=${id}`, token)).json().data as Body;
const idOf = (res: LightMyRequestResponse) => {
  expect(res.json(), res.body).toMatchObject({ success: true });
  return res.json().data as string;
};
/** A refused write: 400 with exactly this message. */
const refused = (res: LightMyRequestResponse, msg: string) => {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ success: false, msg });
};
const addDept = async (fields: Body, token = admin) =>
  idOf(await post('/api/blade-system/dept/submit', { fullName: String(fields.deptName), ...fields }, token));
const liveCount = async (table: typeof car | typeof article | typeof oenmo) =>
  (await t.ctx.db.select({ id: table.id }).from(table).where(eq(table.isDeleted, 0))).length;

let baseA: string;
let baseB: string;
let nodeA: string;
let lineA: string;
let lineB: string;
let driverId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  other = await signInAsProvisionedTenant(t, admin, OTHER_TENANT, '物流另一家');
  baseA = await addDept({ deptName: '苏州消毒中心', parentId: DEPT_IDS.company, deptCategory: 4 });
  baseB = await addDept({ deptName: '无锡消毒中心', parentId: DEPT_IDS.company, deptCategory: 4 });
  nodeA = await addDept({ deptName: '仁爱口腔', parentId: baseA, deptCategory: 5 });
  lineA = idOf(await submit('line', { name: '苏州一号线', base: baseA, stops: [{ deptId: nodeA, direction: 2 }] }));
  lineB = idOf(await submit('line', { name: '无锡一号线', base: baseB }));
  const [found] = await t.ctx.db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.account, 'admin'), eq(user.tenantId, '000000')));
  driverId = String(found?.id);
});
afterAll(() => t.close());

describe('cars', () => {
  it('stores a car of a base on a line of that base, and answers page and detail with names', async () => {
    const id = idOf(
      await submit('car', {
        name: '一号车',
        plate: '苏E12345',
        barCode: 'CAR-0001',
        base: baseA,
        line: lineA,
        capacity: 40,
      }),
    );
    expect(await detail('car', id)).toMatchObject({
      name: '一号车',
      plate: '苏E12345',
      baseName: '苏州消毒中心',
      line: lineA,
      lineName: '苏州一号线',
      capacity: 40,
    });
    const page = (await get(`${BIZ}/car/page?current=1&size=10&base=${baseA}`)).json().data;
    expect(page.records.map((r: Body) => r.id)).toEqual([id]);
    expect(page.total).toBe(1);
    // A new-energy plate has six characters after the letter.
    idOf(await submit('car', { id, plate: '苏EAB1234' }));
    expect(await detail('car', id)).toMatchObject({ plate: '苏EAB1234', lineName: '苏州一号线' });
  });

  it('refuses a base that is not a base, a line of another base, and keeps that rule on update', async () => {
    const before = await liveCount(car);
    const body = { name: '二号车', plate: '苏E22222', barCode: 'CAR-0002' };
    refused(await submit('car', { ...body, base: nodeA }), '所选消毒基地不在可选范围内');
    refused(await submit('car', { ...body, base: baseA, line: lineB }), '所选线路不属于所选消毒基地');
    refused(await submit('car', { ...body, base: '1234567890123' }), '所选消毒基地不存在');
    expect(await liveCount(car)).toBe(before);
    const id = idOf(await submit('car', { ...body, base: baseA, line: lineA }));
    // Moving the car to another base while its line stays is the same mismatch.
    refused(await submit('car', { id, base: baseB }), '所选线路不属于所选消毒基地');
    idOf(await submit('car', { id, base: baseB, line: lineB }));
    expect(await detail('car', id)).toMatchObject({ baseName: '无锡消毒中心', lineName: '无锡一号线' });
  });

  it('answers bad input with a 400 in Chinese and stores nothing', async () => {
    const before = await liveCount(car);
    const ok = { name: '三号车', plate: '苏E33333', barCode: 'CAR-0003', base: baseA };
    refused(await submit('car', { ...ok, name: '' }), '请输入车辆名称');
    refused(await submit('car', { ...ok, plate: 'E12' }), '车牌号格式不正确,例如 苏E12345');
    refused(await submit('car', { ...ok, base: undefined }), '请选择消毒基地');
    refused(await submit('car', { ...ok, barCode: '条码' }), '条码只能包含字母、数字和 -');
    const capacity = await submit('car', { ...ok, capacity: 100000 });
    expect(capacity.statusCode).toBe(400);
    expect(capacity.json().msg).toMatch(/^装载量\(箱\)/);
    refused(await submit('car', { ...ok, plate: '苏E12345'.replace('12345', 'AB1234') }), '车牌号已存在');
    refused(await submit('car', { ...ok, barCode: 'CAR-0001' }), '条码已存在');
    expect(await liveCount(car)).toBe(before);
  });
});

describe('lines with their default car, driver and schedule', () => {
  it('stores car, driver, weekdays and departures and names them in detail and page', async () => {
    const carId = idOf(await submit('car', { name: '排班车', plate: '苏E44444', barCode: 'CAR-0004', base: baseA }));
    idOf(
      await submit('line', {
        id: lineA,
        defaultCar: carId,
        driver: driverId,
        weekdays: '1,3,5',
        departures: '08:30,14:00',
      }),
    );
    expect(await detail('line', lineA)).toMatchObject({
      defaultCar: carId,
      defaultCarName: '排班车',
      driver: driverId,
      driverName: '管理员',
      weekdays: '1,3,5',
      weekdaysName: '星期一,星期三,星期五',
      departures: '08:30,14:00',
    });
    const page = (await get(`${BIZ}/line/page?current=1&size=10&name=苏州`)).json().data;
    expect(page.records[0]).toMatchObject({ defaultCarName: '排班车', weekdaysName: '星期一,星期三,星期五' });
    // The stops stay as they were: an update without `stops` leaves them.
    const stops = (await detail('line', lineA)).stops as Body[];
    expect(stops.map((s) => [s.deptId, s.direction, s.sort])).toEqual([[nodeA, 2, 1]]);

    // Removing the car leaves the line without a default car rather than refusing.
    idOf(await post(`${BIZ}/car/remove?ids=${carId}`, {}));
    expect(await detail('line', lineA)).toMatchObject({ defaultCar: null, defaultCarName: '' });
  });

  it('refuses a car of another base, a malformed schedule and a driver of another tenant', async () => {
    const carB = idOf(await submit('car', { name: '无锡车', plate: '苏B55555', barCode: 'CAR-0005', base: baseB }));
    refused(await submit('line', { id: lineA, defaultCar: carB }), '所选默认车辆不属于所选消毒基地');
    refused(await submit('line', { id: lineA, weekdays: '1,8' }), '运行日应为星期一至星期日');
    refused(
      await submit('line', { id: lineA, departures: '8:30' }),
      '发车时间格式应为 HH:mm,多个用逗号分隔,例如 08:30,14:00',
    );
    refused(
      await submit('line', { id: lineA, departures: '08:30,24:00' }),
      '发车时间格式应为 HH:mm,多个用逗号分隔,例如 08:30,14:00',
    );
    const [otherAdmin] = await t.ctx.db
      .select({ id: user.id })
      .from(user)
      .where(and(eq(user.account, 'admin'), eq(user.tenantId, OTHER_TENANT)));
    refused(await submit('line', { id: lineA, driver: String(otherAdmin?.id) }), '所选司机不存在');
    const [stored] = await t.ctx.db.select().from(line).where(eq(line.id, lineA));
    expect(stored).toMatchObject({ defaultCar: null, weekdays: '1,3,5', departures: '08:30,14:00', driver: driverId });
  });

  it('removing the driver clears the line’s driver', async () => {
    await signInWithScopes(t, { account: 'driver2', codes: [] });
    const [driver] = await t.ctx.db.select({ id: user.id }).from(user).where(eq(user.account, 'driver2'));
    const lineId = idOf(await submit('line', { name: '司机线', base: baseA, driver: String(driver?.id) }));
    expect(await detail('line', lineId)).toMatchObject({ driver: String(driver?.id) });
    idOf(await post(`/api/blade-user/remove?ids=${String(driver?.id)}`, {}));
    expect(await detail('line', lineId)).toMatchObject({ driver: null, driverName: '' });
  });

  it('refuses to move a line or a car to another base while what references it stays behind', async () => {
    const lineId = idOf(await submit('line', { name: '搬迁线', base: baseA }));
    const carId = idOf(
      await submit('car', { name: '搬迁车', plate: '苏E99999', barCode: 'CAR-0009', base: baseA, line: lineId }),
    );
    const ownLine = idOf(await submit('line', { name: '默认车线', base: baseA, defaultCar: carId }));
    refused(
      await submit('line', { id: lineId, base: baseB }),
      '「车辆管理」中引用此数据的记录属于原消毒基地，请先调整它们',
    );
    // The car itself can follow only with a line of its new base, and only once no line names it as default.
    refused(
      await submit('car', { id: carId, base: baseB, line: '' }),
      '「线路管理」中引用此数据的记录属于原消毒基地，请先调整它们',
    );
    idOf(await submit('line', { id: ownLine, defaultCar: '' }));
    idOf(await submit('car', { id: carId, base: baseB, line: '' }));
    // Nothing references the line from its old base now: it may move.
    idOf(await submit('line', { id: lineId, base: baseB }));
    expect(await detail('line', lineId)).toMatchObject({ baseName: '无锡消毒中心' });
  });

  it('removing a line clears the line of its cars', async () => {
    const lineId = idOf(await submit('line', { name: '临时线', base: baseA }));
    const carId = idOf(
      await submit('car', { name: '临时车', plate: '苏E66666', barCode: 'CAR-0006', base: baseA, line: lineId }),
    );
    idOf(await post(`${BIZ}/line/remove?ids=${lineId}`, {}));
    expect(await detail('car', carId)).toMatchObject({ line: null });
  });

  it('answers all for pickers, with the new fields', async () => {
    const all = (await get(`${BIZ}/line/all`)).json().data as Body[];
    expect(all.find((l) => l.id === lineA)).toMatchObject({ departures: '08:30,14:00', driverName: '管理员' });
  });
});

describe('articles: expiry from the pack material (WS 310.2 shelf lives)', () => {
  const base = { category: 1, name: '牙科基础器械包', sterilizeMethod: 1, packDate: '2026-11-01' };
  let seq = 0;
  const addArticle = async (fields: Body) => {
    seq += 1;
    return idOf(await submit('article', { code: `A${seq}`, barCode: `PKG-${seq}`, ...base, ...fields }));
  };

  it.each([
    ['textile, climate-controlled', { packMaterial: 1 }, 14, '2026-11-15'],
    ['textile without climate control', { packMaterial: 1, climateControlled: false }, 7, '2026-11-08'],
    ['paper bag: one month', { packMaterial: 2 }, 30, '2026-12-01'],
    ['non-woven: six months', { packMaterial: 3 }, 180, '2027-04-30'],
    ['paper-plastic pouch: six months', { packMaterial: 4 }, 180, '2027-04-30'],
    ['rigid container: six months', { packMaterial: 5 }, 180, '2027-04-30'],
  ])('%s', async (_name, fields, days, expiry) => {
    const id = await addArticle(fields);
    expect(await detail('article', id)).toMatchObject({ validityDays: days, expiryDate: expiry });
  });

  it('recomputes on update from the stored row, ignores sent values, and is empty without a pack date', async () => {
    const id = await addArticle({ packMaterial: 1, validityDays: 999, expiryDate: '2099-01-01', ownerDept: nodeA });
    expect(await detail('article', id)).toMatchObject({
      validityDays: 14,
      expiryDate: '2026-11-15',
      ownerDeptName: '仁爱口腔',
      categoryName: '器械包',
      packMaterialName: '纺织品',
      sterilizeMethodName: '压力蒸汽灭菌',
    });
    // Only the material changes: the stored pack date still counts.
    idOf(await submit('article', { id, packMaterial: 2 }));
    expect(await detail('article', id)).toMatchObject({ validityDays: 30, expiryDate: '2026-12-01' });
    // Only the pack date changes: the stored material still counts.
    idOf(await submit('article', { id, packDate: '2026-02-01' }));
    expect(await detail('article', id)).toMatchObject({ validityDays: 30, expiryDate: '2026-03-03' });
    // A name change leaves the computed values alone.
    idOf(await submit('article', { id, name: '改名', expiryDate: '2099-01-01' }));
    expect(await detail('article', id)).toMatchObject({ name: '改名', expiryDate: '2026-03-03' });
    idOf(await submit('article', { id, packDate: '' }));
    expect(await detail('article', id)).toMatchObject({ validityDays: 30, expiryDate: null });
  });

  it('filters by expiry date', async () => {
    const page = (await get(`${BIZ}/article/page?current=1&size=50&expiryDate_datelt=2026-11-10`)).json().data;
    expect(page.records.map((r: Body) => r.expiryDate)).toEqual(['2026-11-08']);
  });

  it('answers bad input with a 400 in Chinese and stores nothing', async () => {
    const before = await liveCount(article);
    const ok = { code: 'B1', barCode: 'PKG-B1', name: '敷料包', category: 3, packMaterial: 1 };
    refused(await submit('article', { ...ok, packMaterial: undefined }), '请选择包装材料');
    refused(await submit('article', { ...ok, code: 'B 1' }), '物品编号只能包含字母、数字、_ 和 -');
    refused(await submit('article', { ...ok, code: 'A1' }), '物品编号已存在');
    refused(await submit('article', { ...ok, barCode: 'PKG-1' }), '条码已存在');
    refused(await submit('article', { ...ok, ownerDept: '1234567890123' }), '所选所属机构不存在');
    const bad = await submit('article', { ...ok, packDate: '2026-02-30' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toMatch(/^灭菌日期/);
    const material = await submit('article', { ...ok, packMaterial: 9 });
    expect(material.statusCode).toBe(400);
    expect(material.json().msg).toMatch(/^包装材料/);
    expect(await liveCount(article)).toBe(before);
  });
});

describe('oenmo', () => {
  it('adds, pages with dictionary names, updates and removes', async () => {
    const id = idOf(
      await submit('oenmo', { code: 'OEM-01', name: '洁齿贴牌', type: 1, customer: '白鲸口腔', productIds: '' }),
    );
    const page = (await get(`${BIZ}/oenmo/page?current=1&size=10&type=1`)).json().data;
    expect(page.records).toEqual([
      expect.objectContaining({ id, code: 'OEM-01', typeName: 'OEM 贴牌', status: 1, statusName: '启用' }),
    ]);
    idOf(await submit('oenmo', { id, status: 2, customer: '白鲸口腔连锁' }));
    expect(await detail('oenmo', id)).toMatchObject({ statusName: '停用', customer: '白鲸口腔连锁' });
    refused(await submit('oenmo', { code: 'OEM-01', name: '重复', type: 2 }), '编号已存在');
    refused(await submit('oenmo', { code: 'OEM-02', name: '', type: 2 }), '请输入名称');
    refused(await submit('oenmo', { code: 'OEM-02', name: '无类型' }), '请选择类型');
    idOf(await post(`${BIZ}/oenmo/remove?ids=${id}`, {}));
    expect(await liveCount(oenmo)).toBe(0);
  });
});

describe('tenant isolation', () => {
  it('another tenant sees none of these rows and cannot reach them by id', async () => {
    const carId = idOf(await submit('car', { name: '隔离车', plate: '苏E77777', barCode: 'CAR-0007', base: baseA }));
    const articleId = idOf(
      await submit('article', { code: 'ISO-1', barCode: 'ISO-1', name: '隔离包', category: 1, packMaterial: 1 }),
    );
    for (const res of ['car', 'article', 'oenmo', 'line']) {
      const page = (await get(`${BIZ}/${res}/page?current=1&size=50`, other)).json();
      expect(page, res).toMatchObject({ success: true, data: { total: 0, records: [] } });
    }
    expect((await get(`${BIZ}/car/detail?id=${carId}`, other)).statusCode).toBe(404);
    expect((await get(`${BIZ}/article/detail?id=${articleId}`, other)).statusCode).toBe(404);
    expect((await submit('car', { id: carId, name: '偷改' }, other)).statusCode).toBe(404);
    await post(`${BIZ}/article/remove?ids=${articleId}`, {}, other);
    expect(await detail('article', articleId)).toMatchObject({ name: '隔离包' });
    expect(await detail('car', carId)).toMatchObject({ name: '隔离车' });
  });

  it('another tenant cannot reference this tenant’s base, line or department', async () => {
    const body = { name: '外车', plate: '苏E88888', barCode: 'CAR-0008' };
    refused(await submit('car', { ...body, base: baseA }, other), '所选消毒基地不存在');
    const otherBase = await addDept({ deptName: '他家中心', deptCategory: 4 }, other);
    refused(await submit('car', { ...body, base: otherBase, line: lineA }, other), '所选线路不存在');
    const own = idOf(await submit('car', { ...body, base: otherBase }, other));
    // Same plate and bar code in two tenants: the unique indexes are per tenant.
    expect((await detail('car', own, other)).baseName).toBe('他家中心');
    refused(
      await submit(
        'article',
        { code: 'X', barCode: 'X', name: '外包', category: 1, packMaterial: 1, ownerDept: nodeA },
        other,
      ),
      '所选所属机构不存在',
    );
  });
});

describe('menus, buttons, scopes and dictionaries come from the definitions', () => {
  it('seeds the business screens with their buttons and dictionaries', async () => {
    const codes = ['line', 'car', 'article', 'oenmo'];
    const screens = await t.ctx.db
      .select({ code: menu.code, path: menu.path, name: menu.name })
      .from(menu)
      .where(inArray(menu.code, codes));
    expect(screens.map((s) => s.path).sort()).toEqual([
      '/business/article',
      '/business/car',
      '/business/line',
      '/business/oenmo',
    ]);
    // The legacy code keeps its path; the menu says what the screen holds.
    expect(screens.find((s) => s.code === 'oenmo')?.name).toBe('OEM 品牌登记');
    const buttons = await t.ctx.db
      .select({ code: menu.code })
      .from(menu)
      .where(inArray(menu.code, ['car_add', 'article_edit', 'oenmo_delete']));
    expect(buttons).toHaveLength(3);
    const dicts = await t.ctx.db
      .select({ code: dict.code })
      .from(dict)
      .where(
        and(
          eq(dict.parentId, '0'),
          inArray(dict.code, [
            'article_category',
            'pack_material',
            'sterilize_method',
            'oenmo_type',
            'oenmo_status',
            'week_day',
          ]),
        ),
      );
    expect(dicts).toHaveLength(6);
  });

  it('needs the car API scope', async () => {
    const clerk = await signInWithScopes(t, { account: 'lineonly', codes: ['line:read'] });
    expect((await get(`${BIZ}/line/page?current=1&size=10`, clerk)).statusCode).toBe(200);
    expect((await get(`${BIZ}/car/page?current=1&size=10`, clerk)).statusCode).toBe(403);
    expect((await submit('oenmo', { code: 'S', name: 'S', type: 1 }, clerk)).statusCode).toBe(403);
  });
});
