import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { type MqttClient } from 'mqtt';
import { DEVICE_ROTATE_SECRET_PATH, type DeviceSecretReply, type ModelDataItem } from '@mes/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import { DEMO_DEVICES, WATERLINE_PRODUCT } from '../src/seed/demo-devices';
import { startEmbeddedTelemetry } from './support/embedded-telemetry';
import { connectWithSecret } from './support/pg-telemetry';
import { waitFor } from './support/mqtt-kit';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 28 point 2, "names, not numbers": a model field's enumeration names its values, and the
 * lists that show telemetry answer the name beside the untouched value. A message goes the real
 * way — a device with a rotated secret publishes to the embedded broker, ingestion stores it —
 * and the IoT list, model-data, acquisition data, warnings and the warnings' xlsx read it back.
 */

let t: TestApp;
let runtime: TelemetryRuntime;
let token: string;
let client: MqttClient | undefined;

beforeAll(async () => {
  t = await createTestApp();
  runtime = await startEmbeddedTelemetry(t.ctx);
  token = (await t.signIn()).access_token;
}, 120_000);

afterAll(async () => {
  await client?.endAsync();
  await runtime?.stop();
  await t?.close();
});

const get = async (url: string, lang?: string) => {
  const reply = await t.as(token, { method: 'GET', url, headers: lang ? { 'accept-language': lang } : {} });
  expect(reply.statusCode, reply.body).toBe(200);
  return reply.json().data;
};

const waterline = DEMO_DEVICES.find((d) => d.productCode === WATERLINE_PRODUCT.productCode);
if (!waterline) throw new Error('no demo waterline device');
const code = waterline.deviceCode;

type Row = Record<string, unknown>;

async function productOfWaterline(): Promise<Row & { id: string; fields: Row[] }> {
  const [row] = (await get(`/api/basic/product/list?productCode=${WATERLINE_PRODUCT.productCode}`)).records as Row[];
  return (await get(`/api/basic/product/detail?id=${String(row?.id)}`)) as Row & { id: string; fields: Row[] };
}

const submitProduct = (body: Row) => t.as(token, { method: 'POST', url: '/api/basic/product/submit', payload: body });

describe('enumerated model values (issue 28 point 2)', () => {
  it('the demo waterline declares names for program, phase and fault code, as the simulator means them', async () => {
    const product = await productOfWaterline();
    const byKey = new Map(product.fields.map((f) => [f.fieldKey, f.enumeration]));
    expect(byKey.get('phase')).toContainEqual({ value: '3', zh: '冲洗', en: 'Flushing' });
    expect(byKey.get('program')).toContainEqual({ value: '1', zh: '日常补氯', en: 'Daily chlorine top-up' });
    expect(byKey.get('faultCode')).toContainEqual({ value: '104', zh: '余氯传感器异常', en: 'Chlorine sensor fault' });
    expect(byKey.get('chlorine')).toBeNull();
  });

  it('an install seeded before the column existed gets the demo names from the migration, and only those rows', async () => {
    const sql = readFileSync(new URL('../drizzle/0028_model_enumeration.sql', import.meta.url), 'utf8');
    const updates = sql.split('--> statement-breakpoint').filter((part) => /^\s*(--.*\n)*\s*UPDATE/.test(part));
    expect(updates).toHaveLength(6);
    const product = await productOfWaterline();
    // As an upgraded install has them: no names yet, except one an administrator already set.
    await t.database.pool.query(`update mes_product_field set enumeration = null`);
    await t.database.pool.query(
      `update mes_product_field set enumeration = '[{"value":"9","zh":"自定","en":"Own"}]' where product_id = $1 and field_key = 'program'`,
      [product.id],
    );
    for (const update of updates) await t.database.pool.query(update);
    const after = new Map((await productOfWaterline()).fields.map((f) => [f.fieldKey, f.enumeration]));
    expect(after.get('phase')).toContainEqual({ value: '2', zh: '保持', en: 'Holding' });
    expect(after.get('program')).toEqual([{ value: '9', zh: '自定', en: 'Own' }]);
    expect(after.get('chlorine')).toBeNull();
    // Back as the seed made it, for the tests below.
    await t.database.pool.query(`update mes_product_field set enumeration = null where field_key = 'program'`);
    for (const update of updates) await t.database.pool.query(update);
  });

  it('refuses repeated values and blank labels with a 400 in the caller’s language, and stores nothing', async () => {
    const product = await productOfWaterline();
    const fields = product.fields.map((f) =>
      f.fieldKey === 'phase'
        ? {
            ...f,
            enumeration: [
              { value: '1', zh: '加药', en: 'Dosing' },
              { value: '1', zh: '保持', en: 'Holding' },
            ],
          }
        : f,
    );
    const zh = await submitProduct({ ...product, fields });
    expect(zh.statusCode).toBe(400);
    expect(zh.json().msg).toContain('[1].value 与第 1 项重复');
    const en = await t.as(token, {
      method: 'POST',
      url: '/api/basic/product/submit',
      headers: { 'accept-language': 'en' },
      payload: {
        ...product,
        fields: product.fields.map((f) =>
          f.fieldKey === 'phase' ? { ...f, enumeration: [{ value: '1', zh: '加药', en: ' ' }] } : f,
        ),
      },
    });
    expect(en.statusCode).toBe(400);
    expect(en.json().msg).toContain('[0].en must not be empty');
    const after = await productOfWaterline();
    expect(after.fields.find((f) => f.fieldKey === 'phase')?.enumeration).toContainEqual({
      value: '1',
      zh: '加药',
      en: 'Dosing',
    });
  });

  it('a published message reads back named in IoT data, model-data, acquisition data, warnings and their xlsx', async () => {
    const [device] = (await get(`/api/basic/device/list?deviceCode=${code}`)).records as { id: string }[];
    const rotated = await t.as(token, { method: 'POST', url: `/api${DEVICE_ROTATE_SECRET_PATH}?id=${device?.id}` });
    const secret = rotated.json().data as DeviceSecretReply;
    client = await connectWithSecret(runtime.port(), secret);
    // The product's rule `faultCode != 0` raises a warning at once.
    await client.publishAsync(
      `${secret.topicPrefix}/telemetry`,
      JSON.stringify({ program: 2, phase: 1, faultCode: 104, ph: 7.2 }),
      { qos: 1 },
    );
    const iotUrl = `/api/blade-business/iot/page?current=1&size=20&deviceCode=${code}`;
    await waitFor(async () => Number((await get(iotUrl)).total) === 4);
    await waitFor(async () => Number((await get(`/api/report/warning/list?deviceCode=${code}`)).total) > 0);

    // IoT data: the raw number as stored, its name beside it; a field without names has none.
    const iot = (await get(iotUrl)).records as Row[];
    const iotOf = (field: string) => iot.find((r) => r.field === field);
    expect(iotOf('phase')).toMatchObject({ numValue: '1.000000', valueLabel: { zh: '加药', en: 'Dosing' } });
    expect(iotOf('program')?.valueLabel).toEqual({ zh: '强化冲击消毒', en: 'Shock disinfection' });
    // pH is scaled by the product's PLC variable; it has no names either way.
    expect(iotOf('ph')?.valueLabel).toBeNull();

    // model-data: the value, its name and the field's names for the live page.
    const model = (await get(`/api/blade-business/iot/model-data?deviceCode=${code}`)) as ModelDataItem[];
    const fault = model.find((m) => m.field === 'faultCode');
    expect(fault).toMatchObject({ value: 104, valueLabel: { zh: '余氯传感器异常', en: 'Chlorine sensor fault' } });
    expect(fault?.enumeration.length).toBe(5);
    expect(model.find((m) => m.field === 'chlorine')).toMatchObject({ valueLabel: null, enumeration: [] });

    // Acquisition data: the values as received, the names of the named ones by key.
    const [acq] = (await get(`/api/report/acqdata/list?deviceCode=${code}`)).records as Row[];
    expect(acq?.dataValues).toMatchObject({ program: 2, phase: 1, faultCode: 104 });
    expect(acq?.valueLabels).toEqual({
      program: { zh: '强化冲击消毒', en: 'Shock disinfection' },
      phase: { zh: '加药', en: 'Dosing' },
      faultCode: { zh: '余氯传感器异常', en: 'Chlorine sensor fault' },
    });

    // Warnings: the trigger value and its name; the xlsx shows the name with the value.
    const warnings = (await get(`/api/report/warning/list?deviceCode=${code}&field=faultCode`)).records as Row[];
    expect(warnings[0]).toMatchObject({ field: 'faultCode', triggerValueLabel: { zh: '余氯传感器异常' } });
    expect(Number(warnings[0]?.triggerValue)).toBe(104);
    // The message, written by the alarm engine at ingestion, names the value and the limit too.
    expect(warnings[0]?.message).toContain('余氯传感器异常(104),不等于阈值 无故障(0)');
    for (const [lang, text] of [
      ['zh', '余氯传感器异常 (104)'],
      ['en', 'Chlorine sensor fault (104)'],
    ] as const) {
      const res = await t.as(token, {
        method: 'GET',
        url: `/api/report/warning/export?deviceCode=${code}&field=faultCode`,
        headers: { 'accept-language': lang },
      });
      expect(res.statusCode, res.body).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const values = (book.worksheets[0]?.getSheetValues() ?? []).flat().map(String);
      expect(values.some((v) => v.startsWith(text.replace(/ \(104\)$/, ' (104')))).toBe(true);
    }

    // Renaming a value through the product's form shows at once in the lists (the cache follows).
    const product = await productOfWaterline();
    const renamed = await submitProduct({
      ...product,
      fields: product.fields.map((f) =>
        f.fieldKey === 'phase' ? { ...f, enumeration: [{ value: '1', zh: '投药中', en: 'Dosing now' }] } : f,
      ),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await waitFor(async () => {
      const rows = (await get(iotUrl)).records as Row[];
      return (rows.find((r) => r.field === 'phase')?.valueLabel as { en?: string } | null)?.en === 'Dosing now';
    }, 5_000);
  }, 120_000);
});
