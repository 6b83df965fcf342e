import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_ROTATE_SECRET_PATH, type DeviceSecretReply } from '@mes/contracts';
import type { TelemetryRuntime } from '../src/modules/telemetry';
import { startEmbeddedTelemetry } from './support/embedded-telemetry';
import { connectWithSecret } from './support/pg-telemetry';
import { waitFor } from './support/mqtt-kit';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 31 point 2 (docs/operations.md): `/metrics` in the Prometheus text format, only for the
 * bearer token of `METRICS_TOKEN`; HTTP metrics by route pattern; ingestion counters that move when
 * a device publishes through the embedded broker; liveness and readiness apart from `/api/health`.
 */

const TOKEN = randomBytes(24).toString('hex');
let t: TestApp;
let bare: TestApp;
let runtime: TelemetryRuntime | undefined;
let admin: string;
let client: MqttClient | undefined;

beforeAll(async () => {
  t = await createTestApp({ appOptions: { metricsToken: TOKEN } });
  admin = (await t.signIn()).access_token;
}, 120_000);

afterAll(async () => {
  await client?.endAsync();
  await runtime?.stop();
  await bare?.close();
  await t?.close();
});

const scrape = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
};

/** The value of one sample line (`name{labels} value`), summed over the lines that match. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let found: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = match[2] ?? '';
    if (!Object.entries(labels).every(([k, v]) => given.includes(`${k}="${v}"`))) continue;
    found = (found ?? 0) + Number(match[3]);
  }
  return found;
}

describe('/metrics (issue 31 point 2)', () => {
  it('refuses a caller without the token or with a wrong one, and is 404 when no token is set', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.body).not.toContain('mes_http_requests_total');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
    });
    expect(wrong.statusCode).toBe(401);
    // A user's session token is not the metrics token.
    const session = await t.as(admin, { method: 'GET', url: '/metrics' });
    expect(session.statusCode).toBe(401);

    bare = await createTestApp();
    const off = await bare.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}`, 'accept-language': 'en' },
    });
    expect(off.statusCode).toBe(404);
    expect(off.body).not.toContain('mes_');
  }, 120_000);

  it('counts requests by route pattern, never by raw URL, with their latency', async () => {
    for (const id of ['1123598821738675201', '999']) {
      await t.as(admin, { method: 'GET', url: `/api/blade-user/detail?id=${id}` });
    }
    await t.app.inject({ method: 'GET', url: '/api/no/such/route/42' });
    const text = await scrape();
    const route = '/api/blade-user/detail';
    expect(sample(text, 'mes_http_requests_total', { method: 'GET', route })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'mes_http_request_duration_seconds_count', { method: 'GET', route })).toBeGreaterThanOrEqual(2);
    // The raw URL (an id, a query string) never becomes a label; unknown paths share one.
    expect(text).not.toContain('1123598821738675201');
    expect(text).not.toContain('/api/no/such/route/42');
    expect(sample(text, 'mes_http_requests_total', { route: 'unmatched' })).toBeGreaterThanOrEqual(1);
    // The process's own figures: event-loop delay, GC, the database pool, the job queue's depth.
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('nodejs_gc_duration_seconds');
    expect(sample(text, 'mes_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(text).toContain('mes_db_pool_waiting');
    expect(text).toContain('mes_jobs_queued');
    expect(text).toContain('mes_live_streams');
  });

  it('says readiness apart from liveness: ready needs the broker as well as the database', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    // No broker started in this process yet: not ready, and the body says why, in the caller's language.
    const notYet = await t.app.inject({
      method: 'GET',
      url: '/api/health/ready',
      headers: { 'accept-language': 'en' },
    });
    expect(notYet.statusCode).toBe(503);
    expect(notYet.json()).toMatchObject({
      success: false,
      msg: expect.stringContaining('MQTT') as unknown,
      data: { database: 'UP', broker: 'STARTING' },
    });
    // /api/health keeps its meaning: the database answers.
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    runtime = await startEmbeddedTelemetry(t.ctx);
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json().data).toEqual({ status: 'UP', database: 'UP', broker: 'UP' });
  }, 60_000);

  it('moves the ingestion counters when a device publishes through the embedded broker', async () => {
    if (!runtime) throw new Error('the broker is started by the readiness test');
    const before = await scrape();
    const post = async (url: string, payload: Record<string, unknown>) => {
      const reply = await t.as(admin, { method: 'POST', url, payload });
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json<{ data: unknown }>().data;
    };
    const productId = String(
      await post('/api/basic/product/submit', {
        productCode: 'METRICS-P',
        productName: '指标产品',
        category: 1,
        protocol: 'mqtt-json',
        fields: [{ fieldKey: 'temp', fieldName: '温度', dataType: 'float', unit: '℃', precision: 1, access: 'r' }],
      }),
    );
    const deviceId = String(
      await post('/api/basic/device/submit', { deviceCode: 'METRICS-1', deviceName: '指标设备', productId }),
    );
    const secret = (await post(`/api${DEVICE_ROTATE_SECRET_PATH}?id=${deviceId}&first=1`, {})) as DeviceSecretReply;
    client = await connectWithSecret(runtime.port(), secret);
    const connected = await scrape();
    expect(sample(connected, 'mes_mqtt_connections', { broker: 'embedded' })).toBeGreaterThanOrEqual(1);
    expect(sample(connected, 'mes_mqtt_broker_up', { broker: 'embedded' })).toBe(1);

    const published = 5;
    for (let i = 0; i < published; i++) {
      await client.publishAsync(
        `${secret.topicPrefix}/telemetry`,
        JSON.stringify({ ts: Date.now() - i * 1000, values: { temp: 20 + i } }),
        {
          qos: 1,
        },
      );
    }
    const counted = (text: string, name: string) => sample(text, name) ?? 0;
    let after = '';
    await waitFor(async () => {
      after = await scrape();
      return (
        counted(after, 'mes_ingestion_messages_stored_total') -
          counted(before, 'mes_ingestion_messages_stored_total') >=
        published
      );
    });
    expect(
      counted(after, 'mes_ingestion_messages_received_total') -
        counted(before, 'mes_ingestion_messages_received_total'),
    ).toBeGreaterThanOrEqual(published);
    expect(counted(after, 'mes_ingestion_batches_total')).toBeGreaterThan(
      counted(before, 'mes_ingestion_batches_total'),
    );
    expect(counted(after, 'mes_ingestion_batch_commit_seconds_count')).toBeGreaterThan(
      counted(before, 'mes_ingestion_batch_commit_seconds_count'),
    );
    expect(sample(after, 'mes_ingestion_queue_depth')).toBe(0);
    expect(sample(after, 'mes_ingestion_dead_letters_total')).toBe(0);
  }, 60_000);
});
