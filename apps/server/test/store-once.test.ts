import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquisitionResource, mqttMessageResource, telemetryResource } from '@mes/contracts';
import { createDeviceDirectory } from '../src/modules/device';
import { Ingestion } from '../src/modules/telemetry/ingestion';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * A message is stored once (docs/mqtt.md "Stored once"): a telemetry message is one acquisition
 * row and no other row; `iot/page` and `iot/detail` answer its points, the MQTT message list and
 * detail the message, with the replies' shapes as before. What is not telemetry keeps its row
 * in the message log.
 */
let t: TestApp;
let admin: string;
let ingestion: Ingestion;
const warned: string[] = [];

type Body = Record<string, unknown>;
const get = (url: string, query: Record<string, string> = {}) => t.as(admin, { method: 'GET', url, query });
const dataOf = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as T;
};
const rows = async <T = Body>(text: string, values: unknown[] = []) =>
  (await t.database.pool.query(text, values)).rows as T[];

const DEVICE = 'SO-1';
/** A minute ago: within the last day, the range a series list reads by default. */
const TS = Date.now() - 60_000;

function push(topic: string, payload: string, retain = false) {
  ingestion.push(
    { topic, payload: Buffer.from(payload), qos: 1, retain, clientId: `c-${DEVICE}`, receivedAt: new Date() },
    () => undefined,
  );
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const productId = dataOf<string>(
    await t.as(admin, {
      method: 'POST',
      url: '/api/basic/product/submit',
      payload: {
        productCode: 'SO-100',
        productName: '清洗机',
        category: 1,
        protocol: 'mqtt-json',
        fields: [
          { fieldKey: 'temp', fieldName: '温度', dataType: 'float', unit: '℃', precision: 2, access: 'r' },
          { fieldKey: 'phase', fieldName: '阶段', dataType: 'string', unit: '', precision: 0, access: 'r' },
        ],
      },
    }),
  );
  dataOf(
    await t.as(admin, {
      method: 'POST',
      url: '/api/basic/device/submit',
      payload: { productId, deviceCode: DEVICE, deviceName: '清洗机一号' },
    }),
  );
  ingestion = new Ingestion({
    pool: t.database.pool,
    directory: createDeviceDirectory(t.ctx),
    warn: (message) => void warned.push(message),
    now: () => Date.now(),
    batchDelayMs: 5,
  });
  push(`mes/000000/${DEVICE}/telemetry`, JSON.stringify({ ts: TS, seq: 41, values: { temp: 36.5, phase: 'wash' } }));
  push(`mes/000000/${DEVICE}/status`, 'online', true);
  await ingestion.drain();
});

afterAll(async () => {
  await ingestion?.stop();
  await t?.close();
});

describe('a telemetry message stored once', () => {
  it('is one acquisition row, carrying what the message log kept, and no log row', async () => {
    const acq = await rows(
      `select client_id, qos, retain, receive_time is not null as received, data_values, seq
         from mes_acqdata where device_code = $1`,
      [DEVICE],
    );
    expect(acq).toEqual([
      {
        client_id: `c-${DEVICE}`,
        qos: 1,
        retain: false,
        received: true,
        data_values: { temp: 36.5, phase: 'wash' },
        seq: 41,
      },
    ]);
    const logged = await rows<{ topic: string }>(`select topic from mes_mqtt_log where device_code = $1`, [DEVICE]);
    expect(logged.map((r) => r.topic)).toEqual([`mes/000000/${DEVICE}/status`]);
    // The series is a view over the acquisition rows: there is no table of points to write.
    expect(await rows(`select relkind::text from pg_class where relname = 'mes_telemetry'`)).toEqual([
      { relkind: 'v' },
    ]);
  });

  it('answers iot/page and iot/detail per point, as before', async () => {
    const page = dataOf<{ records: Body[]; total: number }>(
      await get(`/api${telemetryResource.api}/page`, { deviceCode: DEVICE }),
    );
    expect(page.total).toBe(2);
    const byField = Object.fromEntries(page.records.map((r) => [r.field, r]));
    expect(byField.temp).toMatchObject({
      deviceCode: DEVICE,
      field: 'temp',
      numValue: '36.500000',
      textValue: null,
      quality: 0,
    });
    expect(byField.phase).toMatchObject({ deviceCode: DEVICE, field: 'phase', numValue: null, textValue: 'wash' });
    expect(byField.temp?.ts).toBe(byField.phase?.ts);
    expect(new Set(page.records.map((r) => r.id)).size).toBe(2);
    for (const record of page.records) {
      expect(typeof record.id).toBe('string');
      const detail = dataOf<Body>(await get(`/api${telemetryResource.api}/detail`, { id: String(record.id) }));
      expect(detail).toMatchObject(record);
    }
  });

  it('lists the message in the MQTT message list beside the log rows, newest first, with a rebuilt payload', async () => {
    const page = dataOf<{ records: Body[]; total: number }>(
      await get(`/api${mqttMessageResource.api}/page`, {
        deviceCode: DEVICE,
        createTime_dategt: '2026-01-01 00:00:00',
      }),
    );
    expect(page.total).toBe(2);
    const telemetry = page.records.find((r) => String(r.topic).endsWith('/telemetry'));
    expect(telemetry).toMatchObject({
      topic: `mes/000000/${DEVICE}/telemetry`,
      clientId: `c-${DEVICE}`,
      qos: 1,
      retain: false,
      direction: 0,
      deviceCode: DEVICE,
      parsedOk: true,
      error: null,
    });
    const status = page.records.find((r) => String(r.topic).endsWith('/status'));
    expect(status).toMatchObject({ retain: true, parsedOk: true });
    const times = page.records.map((r) => String(r.createTime));
    expect([...times].sort().reverse()).toEqual(times);
    const detail = dataOf<Body>(await get(`/api${mqttMessageResource.api}/detail`, { id: String(telemetry?.id) }));
    expect(JSON.parse(String(detail.payload))).toEqual({ ts: TS, seq: 41, values: { temp: 36.5, phase: 'wash' } });
    // The filters of the list still apply to both kinds of rows.
    const parsed = dataOf<{ total: number }>(
      await get(`/api${mqttMessageResource.api}/page`, {
        deviceCode: DEVICE,
        topic: 'telemetry',
        createTime_dategt: '2026-01-01 00:00:00',
      }),
    );
    expect(parsed.total).toBe(1);
  });

  it('keeps the acquisition data list as it was', async () => {
    const list = dataOf<{ records: Body[] }>(await get(`/api${acquisitionResource.api}/list`, { deviceCode: DEVICE }));
    expect(list.records).toHaveLength(1);
    expect(list.records[0]).toMatchObject({ deviceCode: DEVICE, dataValues: { temp: 36.5, phase: 'wash' }, seq: 41 });
  });

  it('estimates a large range of points near their number, not at 100 a message', async () => {
    const series = telemetryResource.series;
    if (!series) throw new Error('iot is a series');
    const saved = series.estimateAbove;
    // A small bound keeps the test's table small; the rule is the same at 100,000.
    (series as { estimateAbove?: number }).estimateAbove = 1000;
    try {
      // 3,000 more messages of 2 values in the last hour, beside the one above: 6,002 points.
      await t.database.pool.query(
        `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol, receive_time)
         select 8000000000000000000 + g * 4, '000000', $1, now() - g * interval '1 second',
                jsonb_build_object('temp', g % 90, 'phase', 'wash'), 'mes/000000/SO-1/telemetry', 'json',
                now() - g * interval '1 second'
           from generate_series(1, 3000) g`,
        [DEVICE],
      );
      await t.database.pool.query('analyze mes_acqdata');
      const page = dataOf<{ total: number; records: Body[] }>(
        await get(`/api${telemetryResource.api}/page`, { size: '5' }),
      );
      expect(page.records).toHaveLength(5);
      // Over the bound, so estimated; PostgreSQL alone said about 300,000 (100 a message).
      expect(page.total).toBeGreaterThan(3000);
      expect(page.total).toBeLessThan(12_000);
    } finally {
      (series as { estimateAbove?: number }).estimateAbove = saved;
      await t.database.pool.query(`delete from mes_acqdata where id >= 8000000000000000000`);
    }
  });
});

describe('batches read ahead while the previous one commits', () => {
  it('stores every message once, acknowledges each after its commit, and keeps the rollups equal to the points', async () => {
    const code = 'SO-2';
    dataOf(
      await t.as(admin, {
        method: 'POST',
        url: '/api/basic/device/submit',
        payload: {
          productId: (await rows<{ id: string }>(`select id::text from mes_product where product_code = 'SO-100'`))[0]
            ?.id,
          deviceCode: code,
          deviceName: '清洗机二号',
        },
      }),
    );
    // Batches of 4: while the first commits, the second (holding a copy of the first's first
    // report, same ts and seq) is read ahead; it must still find that report stored.
    const ahead = new Ingestion({
      pool: t.database.pool,
      directory: createDeviceDirectory(t.ctx),
      warn: (message) => void warned.push(message),
      now: () => Date.now(),
      batchSize: 4,
      batchDelayMs: 5,
    });
    const base = Date.now() - 3_600_000;
    const report = (n: number) => JSON.stringify({ ts: base + n * 7_000, seq: n, values: { temp: n + 0.25 } });
    const payloads = Array.from({ length: 22 }, (_, i) => report(i + 1));
    payloads.splice(5, 0, report(1));
    const acks = new Map<number, number>();
    try {
      payloads.forEach((payload, i) =>
        ahead.push(
          {
            topic: `mes/000000/${code}/telemetry`,
            payload: Buffer.from(payload),
            qos: 1,
            retain: false,
            clientId: `c-${code}`,
            receivedAt: new Date(),
          },
          () => void acks.set(i, (acks.get(i) ?? 0) + 1),
        ),
      );
      await ahead.drain();
    } finally {
      await ahead.stop();
    }
    expect([...acks.values()].filter((n) => n === 1)).toHaveLength(payloads.length);
    expect(ahead.counters.duplicateReports).toBe(1);
    const stored = await rows<{ seq: number }>(`select seq from mes_acqdata where device_code = $1 order by seq`, [
      code,
    ]);
    expect(stored.map((r) => r.seq)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    const minutes = await rows(
      `select minute, points, total::text, low::text, high::text from mes_telemetry_minute
        where device_code = $1 and field = 'temp' order by minute`,
      [code],
    );
    const raw = await rows(
      `select date_trunc('minute', ts) as minute, count(*)::int as points,
              sum(num_value)::numeric(30, 6)::text as total, min(num_value)::text as low, max(num_value)::text as high
         from mes_telemetry where device_code = $1 and field = 'temp' group by 1 order by 1`,
      [code],
    );
    expect(minutes).toEqual(raw);
    expect(minutes.length).toBeGreaterThan(1);
  });
});
