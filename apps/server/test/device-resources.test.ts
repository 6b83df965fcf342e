import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeviceSecretReply } from '@mes/contracts';
import { buildApp } from '../src/app';
import { createDeviceDirectory } from '../src/modules/device';
import type { DeviceDirectory } from '../src/modules/telemetry/device-directory';
import { signInWithScopes, signInAsProvisionedTenant } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

const OTHER_TENANT = '300001';
let t: TestApp;
let app: FastifyInstance;
let admin: string;
let other: string;
let clerk: string;
let directory: DeviceDirectory;

type Body = Record<string, unknown>;
const as = (token: string, method: 'GET' | 'POST', url: string, payload?: Body): Promise<LightMyRequestResponse> =>
  app.inject({ method, url, payload, headers: { 'blade-auth': `bearer ${token}` } });
const submit = (token: string, res: string, body: Body) => as(token, 'POST', `/api/basic/${res}/submit`, body);
const detail = async (token: string, res: string, id: string) =>
  (await as(token, 'GET', `/api/basic/${res}/detail?id=${id}`)).json().data as Body;
const rotate = (token: string, id: string) => as(token, 'POST', `/api/basic/device/rotate-secret?id=${id}`);
const idOf = (res: LightMyRequestResponse) => {
  expect(res.json(), res.body).toMatchObject({ success: true });
  return res.json().data as string;
};

const chlorineModel = [
  { fieldKey: 'chlorine', fieldName: '有效氯', dataType: 'float', unit: 'mg/L', precision: 2, access: 'r' },
  { fieldKey: 'waterTemp', fieldName: '水温', dataType: 'float', unit: '℃', precision: 1, access: 'r' },
  { fieldKey: 'program', fieldName: '程序', dataType: 'int', unit: '', precision: 0, access: 'rw' },
];

beforeAll(async () => {
  t = await createTestApp();
  app = await buildApp(t.ctx);
  await app.ready();
  admin = (await t.signIn()).access_token;
  other = await signInAsProvisionedTenant(t, admin, OTHER_TENANT, '另一家诊所集团');
  clerk = await signInWithScopes(t, { account: 'dclerk', codes: ['device_info:read', 'device_info:write'] });
  directory = createDeviceDirectory(t.ctx);
});
afterAll(async () => {
  await app?.close();
  await t.close();
});

describe('products with their thing model, programs and alarm rules', () => {
  let productId: string;

  it('saves the child rows and detail reads them back in order, decimals exact', async () => {
    productId = idOf(
      await submit(admin, 'product', {
        productCode: 'WL-100',
        productName: '水路消毒机 WL-100',
        category: 1,
        protocol: 'mqtt-json',
        fields: chlorineModel,
        programs: [
          { programNo: 1, programName: '日常消毒', durationMinutes: 30, targetConcentration: '500.5' },
          { programNo: 2, programName: '高温冲洗', durationMinutes: 15, targetTemperature: 85.25 },
        ],
        alarmRules: [{ fieldKey: 'chlorine', operator: '<', threshold: '0.3', durationSeconds: 60, level: 2 }],
      }),
    );
    const found = await detail(admin, 'product', productId);
    expect(found).toMatchObject({ productCode: 'WL-100', inactivitySeconds: 600, categoryName: '水路消毒机' });
    const fields = found.fields as Body[];
    expect(fields.map((f) => [f.fieldKey, f.dataType, f.unit, f.precision, f.access, f.sort])).toEqual([
      ['chlorine', 'float', 'mg/L', 2, 'r', 1],
      ['waterTemp', 'float', '℃', 1, 'r', 2],
      ['program', 'int', '', 0, 'rw', 3],
    ]);
    const programs = found.programs as Body[];
    expect(programs.map((p) => [p.programNo, p.targetTemperature, p.targetConcentration])).toEqual([
      [1, null, '500.50'],
      [2, '85.25', null],
    ]);
    expect(found.alarmRules).toMatchObject([
      { fieldKey: 'chlorine', operator: '<', threshold: '0.3000', durationSeconds: 60, level: 2, levelName: '重要' },
    ]);
  });

  it('refuses a bad child row, a repeated field key and an alarm rule on a field outside the model', async () => {
    const bad = await submit(admin, 'product', {
      productCode: 'BAD-1',
      productName: '坏',
      fields: [{ fieldKey: '9chlorine', fieldName: '有效氯', dataType: 'float', access: 'r' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toMatch(/^「物模型」第 1 行: 字段标识以字母开头/);
    const twice = await submit(admin, 'product', {
      productCode: 'BAD-2',
      productName: '坏',
      fields: [chlorineModel[0], chlorineModel[0]],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toContain('字段标识重复');
    const type = await submit(admin, 'product', {
      productCode: 'BAD-3',
      productName: '坏',
      fields: [{ ...chlorineModel[0], dataType: 'double' }],
    });
    expect(type.statusCode).toBe(400);
    expect(type.json().msg).toContain('数据类型应为 int / float / bool / string / enum');
    const rule = await submit(admin, 'product', {
      id: productId,
      alarmRules: [{ fieldKey: 'ph', operator: '>', threshold: 9, level: 1 }],
    });
    expect(rule.statusCode).toBe(400);
    expect(rule.json().msg).toBe('「告警规则」第 1 行: 字段标识 ph 不是本产品物模型中的字段');
    // Dropping the watched field from the model alone is refused too (the stored rule names it).
    const model = await submit(admin, 'product', { id: productId, fields: chlorineModel.slice(1) });
    expect(model.json().msg).toBe('「告警规则」第 1 行: 字段标识 chlorine 不是本产品物模型中的字段');
    const operator = await submit(admin, 'product', {
      id: productId,
      alarmRules: [{ fieldKey: 'chlorine', operator: '=>', threshold: 9, level: 1 }],
    });
    expect(operator.statusCode).toBe(400);
    const { count } = (
      await t.ctx.db.execute<{ count: string }>(
        sql`select count(*)::text as count from mes_product where product_code like 'BAD-%'`,
      )
    ).rows[0] as { count: string };
    expect(count).toBe('0');
    expect((await detail(admin, 'product', productId)).alarmRules).toHaveLength(1);
  });

  it('accepts offline and cycle rules, which watch no field of the model', async () => {
    const res = await submit(admin, 'product', {
      productCode: 'FIELDLESS',
      productName: '无字段规则',
      category: 2,
      protocol: 'mqtt-json',
      fields: chlorineModel,
      alarmRules: [
        { ruleType: 'cycle', level: 1 },
        { ruleType: 'offline', durationSeconds: 120, level: 3 },
        { ruleType: 'threshold', fieldKey: 'chlorine', operator: '>', threshold: 80, level: 2 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const rules = (await detail(admin, 'product', String(res.json().data))).alarmRules as { ruleType: string }[];
    expect(rules.map((r) => r.ruleType)).toEqual(['cycle', 'offline', 'threshold']);
  });
});

describe('devices and their MQTT credentials', () => {
  let productId: string;
  let deviceId: string;
  let clientId: string;

  beforeAll(async () => {
    productId = idOf(
      await submit(admin, 'product', {
        productCode: 'ST-1',
        productName: '灭菌器',
        category: 2,
        fields: chlorineModel,
      }),
    );
  });

  it('gives each new device a client id unique across tenants, read-only in the form', async () => {
    deviceId = idOf(
      await submit(admin, 'device', {
        deviceCode: 'dev-001',
        deviceName: '一号机',
        productId,
        chairs: 6,
        installDate: '2026-03-01',
        runState: 1,
        online: true,
        mqttClientId: 'd_chosen_by_caller',
      }),
    );
    const found = await detail(admin, 'device', deviceId);
    clientId = String(found.mqttClientId);
    expect(clientId).toMatch(/^d_[0-9a-f]{16}$/);
    expect(found).toMatchObject({ online: false, installDate: '2026-03-01', productIdName: '灭菌器', chairs: 6 });
    expect(found).not.toHaveProperty('mqttSecretHash');
    // An update cannot set the client id either.
    idOf(await submit(admin, 'device', { id: deviceId, deviceName: '一号机', mqttClientId: 'd_0000000000000000' }));
    expect((await detail(admin, 'device', deviceId)).mqttClientId).toBe(clientId);
  });

  it('keeps device codes unique per tenant; another tenant may use the same code', async () => {
    const again = await submit(admin, 'device', { deviceCode: 'dev-001', deviceName: '重复', productId });
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe('设备编号已存在');
    const topic = await submit(admin, 'device', { deviceCode: 'dev/+#', deviceName: '坏', productId });
    expect(topic.statusCode).toBe(400);
    expect(topic.json().msg).toBe('设备编号只能包含字母、数字、_ 和 -');
    const theirProduct = idOf(await submit(other, 'product', { productCode: 'ST-1', productName: '他们的灭菌器' }));
    // A product of another tenant cannot be referenced.
    const foreign = await submit(other, 'device', { deviceCode: 'dev-001', deviceName: '他们的', productId });
    expect(foreign.statusCode).toBe(400);
    const theirs = idOf(
      await submit(other, 'device', { deviceCode: 'dev-001', deviceName: '他们的', productId: theirProduct }),
    );
    const theirClient = String((await detail(other, 'device', theirs)).mqttClientId);
    expect(theirClient).toMatch(/^d_[0-9a-f]{16}$/);
    expect(theirClient).not.toBe(clientId);
    const rows = await t.ctx.db.execute<{ n: string; distinct: string }>(
      sql`select count(*)::text as n, count(distinct mqtt_client_id)::text as distinct from mes_device`,
    );
    expect(rows.rows[0]?.n).toBe(rows.rows[0]?.distinct);
  });

  it('shows a rotated secret once, stores only its SHA-256, and the old secret stops working', async () => {
    expect(await directory.authenticate(clientId, '')).toBeUndefined();
    expect(await directory.authenticate(clientId, '0'.repeat(64))).toBeUndefined();
    // The screen's call right after the add: the first secret.
    const first = await as(admin, 'POST', `/api/basic/device/rotate-secret?id=${deviceId}&first=1`);
    expect(first.statusCode).toBe(200);
    const reply = first.json().data as DeviceSecretReply;
    expect(reply).toMatchObject({
      deviceCode: 'dev-001',
      tenantId: '000000',
      clientId,
      topicPrefix: 'mes/000000/dev-001',
    });
    expect(reply.secret).toMatch(/^[0-9a-f]{64}$/);
    const stored = await t.ctx.db.execute<{ hash: string }>(
      sql`select mqtt_secret_hash as hash from mes_device where id = ${deviceId}`,
    );
    expect(stored.rows[0]?.hash).toBe(createHash('sha256').update(reply.secret).digest('hex'));
    expect(JSON.stringify(await detail(admin, 'device', deviceId))).not.toContain(reply.secret);
    const list = await as(admin, 'GET', '/api/basic/device/list?current=1&size=50');
    expect(list.body).not.toContain(reply.secret);
    expect(list.body).not.toContain(String(stored.rows[0]?.hash));

    const proved = await directory.authenticate(clientId, reply.secret);
    expect(proved).toEqual({ tenantId: '000000', deviceCode: 'dev-001', deviceId, credential: expect.any(String) });
    // The credential a connection proved is a part of the stored hash, never the secret.
    expect(stored.rows[0]?.hash.startsWith(String(proved?.credential))).toBe(true);
    expect(await directory.currentCredential?.(clientId)).toBe(proved?.credential);
    // A stale first-secret call cannot replace a secret in use.
    const stale = await as(admin, 'POST', `/api/basic/device/rotate-secret?id=${deviceId}&first=1`);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().msg).toBe('该设备已有 MQTT 密钥,如需更换请使用「密钥」按钮重新生成');
    expect(await directory.authenticate(clientId, reply.secret)).toMatchObject({ deviceId });
    const second = (await rotate(admin, deviceId)).json().data as DeviceSecretReply;
    expect(second.secret).not.toBe(reply.secret);
    expect(await directory.authenticate(clientId, reply.secret)).toBeUndefined();
    expect(await directory.authenticate(clientId, second.secret)).toMatchObject({ deviceId });
    // A rotation changes the credential a revocation notice compares with.
    expect(await directory.currentCredential?.(clientId)).not.toBe(proved?.credential);
    expect(await directory.authenticate('d_ffffffffffffffff', second.secret)).toBeUndefined();
    // Each issue is in the operation log, the value masked.
    const logged = await t.ctx.db.execute<{ changes: string }>(
      sql`select changes from blade_log_operation where resource_code = 'device_info' and ids = ${deviceId} and operation = 'update'`,
    );
    expect(logged.rows.length).toBeGreaterThanOrEqual(2);
    for (const row of logged.rows) expect(row.changes).not.toContain(reply.secret);
    expect(logged.rows.map((r) => JSON.parse(r.changes))).toContainEqual([
      { field: 'mqttSecretHash', label: 'MQTT 密钥', before: '******', after: '******' },
    ]);
  });

  it('rotates only with the secret scope and only within the tenant', async () => {
    expect((await rotate(clerk, deviceId)).statusCode).toBe(403);
    expect((await as(clerk, 'GET', `/api/basic/device/detail?id=${deviceId}`)).statusCode).toBe(200);
    const foreign = await rotate(other, deviceId);
    expect(foreign.json()).toMatchObject({ success: false, msg: '数据不存在或无权访问' });
    expect((await rotate(admin, 'x1')).statusCode).toBe(400);
    expect((await as(admin, 'POST', '/api/basic/device/rotate-secret')).statusCode).toBe(400);
    const theirList = await as(other, 'GET', '/api/basic/device/list?current=1&size=50');
    expect((theirList.json().data.records as Body[]).map((r) => r.deviceName)).toEqual(['他们的']);
    expect((await as(other, 'GET', `/api/basic/device/detail?id=${deviceId}`)).statusCode).toBe(404);
  });

  it('records connection state through the directory', async () => {
    const at = new Date('2026-11-24T08:00:00.000Z');
    await directory.markOnline('000000', 'dev-001', true, at);
    expect(await detail(admin, 'device', deviceId)).toMatchObject({ online: true });
    await directory.markOnline(OTHER_TENANT, 'dev-001', false, at);
    expect(await detail(admin, 'device', deviceId)).toMatchObject({ online: true });
    await directory.markOnline('000000', 'dev-001', false, new Date(at.getTime() + 1000));
    const found = await detail(admin, 'device', deviceId);
    expect(found.online).toBe(false);
    expect(found.lastDisconnectTime).toBeTruthy();
  });

  it('refuses to remove a product while a device uses it', async () => {
    const res = await as(admin, 'POST', `/api/basic/product/remove?ids=${productId}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('该数据正被「设备管理」引用，不能删除');
  });
});

describe('PLC variables', () => {
  let productId: string;

  beforeAll(async () => {
    productId = idOf(
      await submit(admin, 'product', { productCode: 'WL-200', productName: '水路 200', fields: chlorineModel }),
    );
    idOf(await submit(admin, 'device', { deviceCode: 'wl-200-a', deviceName: 'A', productId }));
  });

  const variable = (over: Body = {}) => ({
    productId,
    name: 'chlorine',
    label: '有效氯',
    address: '40001',
    dataType: 'UINT16',
    ...over,
  });

  it('must be named after a field of its product’s model', async () => {
    const res = await submit(admin, 'plcvariable', variable({ name: 'turbidity' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('变量名 turbidity 不是所选产品物模型中的字段,请先在产品的物模型中添加该字段');
    const id = idOf(await submit(admin, 'plcvariable', variable()));
    const found = await detail(admin, 'plcvariable', id);
    expect(found).toMatchObject({
      multiplier: '1.000000',
      offset: '0.000000',
      productIdName: '水路 200',
      dataTypeName: 'UINT16',
    });
    const twice = await submit(admin, 'plcvariable', variable());
    expect(twice.json().msg).toBe('该产品已有同名变量');
    // Renaming to a field outside the model is refused on update too.
    expect((await submit(admin, 'plcvariable', { id, name: 'ph' })).statusCode).toBe(400);
  });

  it('keeps limits ordered LL ≤ L ≤ H ≤ HH and ranges complete', async () => {
    const disorder = await submit(admin, 'plcvariable', variable({ name: 'waterTemp', limitL: '10', limitH: '5' }));
    expect(disorder.statusCode).toBe(400);
    expect(disorder.json().msg).toBe('越限值应满足 低低限 ≤ 低限 ≤ 高限 ≤ 高高限');
    const partial = await submit(admin, 'plcvariable', variable({ name: 'waterTemp', rawLow: 0, rawHigh: 100 }));
    expect(partial.json().msg).toBe(DEVICE_PARTIAL);
    const flat = await submit(
      admin,
      'plcvariable',
      variable({ name: 'waterTemp', rawLow: 5, rawHigh: 5, engLow: 0, engHigh: 1 }),
    );
    expect(flat.json().msg).toBe('原始下限与原始上限不能相等');
    const id = idOf(
      await submit(
        admin,
        'plcvariable',
        variable({ name: 'waterTemp', limitLl: 2, limitL: 5, limitH: 60, limitHh: 80, dataType: 'INT16' }),
      ),
    );
    // An update is checked against the stored limits it does not send.
    const update = await submit(admin, 'plcvariable', { id, limitH: 90 });
    expect(update.json().msg).toBe('越限值应满足 低低限 ≤ 低限 ≤ 高限 ≤ 高高限');
  });

  it('gives the directory each model field with the scaling of its variable', async () => {
    const found = await directory.find('000000', 'wl-200-a');
    expect(found?.productId).toBe(productId);
    expect(found?.inactivitySeconds).toBe(600);
    expect([...(found?.fields.keys() ?? [])].sort()).toEqual(['chlorine', 'program', 'waterTemp']);
    expect(found?.fields.get('chlorine')).toEqual({ field: 'chlorine', dataType: 'float', unit: 'mg/L', precision: 2 });

    // A raw 4000–20000 → 0–10 mg/L range becomes multiplier and offset; the cache hears the write.
    const [chlorine] = (
      (await as(admin, 'GET', `/api/basic/plcvariable/list?current=1&size=10&name=chlorine`)).json().data
        .records as Body[]
    ).filter((r) => r.productId === productId);
    idOf(
      await submit(admin, 'plcvariable', {
        id: chlorine?.id,
        rawLow: 4000,
        rawHigh: 20000,
        engLow: 0,
        engHigh: 10,
      }),
    );
    const scaled = (await directory.find('000000', 'wl-200-a'))?.fields.get('chlorine')?.scaling;
    expect(scaled?.multiplier).toBeCloseTo(10 / 16000, 12);
    expect(scaled?.offset).toBeCloseTo(-2.5, 12);

    // The product keeps a model field while a variable maps it.
    const dropped = await submit(admin, 'product', { id: productId, fields: chlorineModel.slice(1) });
    expect(dropped.statusCode).toBe(400);
    expect(dropped.json().msg).toBe('物模型字段 chlorine 正被 PLC 变量使用,请先删除或改名该变量');
    expect((await directory.find('000000', 'wl-200-a'))?.fields.has('chlorine')).toBe(true);
    expect(await directory.find(OTHER_TENANT, 'wl-200-a')).toBeUndefined();
    expect(await directory.find('000000', 'nope')).toBeUndefined();
  });
});

const DEVICE_PARTIAL = '量程换算需同时填写原始下限、原始上限、工程下限和工程上限,或全部留空';
