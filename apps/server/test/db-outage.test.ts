import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_STREAM_PATH, type DeviceSecretReply, type TokenResponse } from '@mes/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import type { AppContext } from '../src/app-context';
import { connectDatabase, type Database } from '../src/platform/db/database';
import { createAppContext } from '../src/runtime';
import { startServerChild, untilHealthy, freePort, type ServerChild } from './support/server-child';
import { TcpFaultProxy } from './support/tcp-fault-proxy';
import { createTestDatabase } from './support/test-database';
import { basic, md5 } from './support/test-app';

/**
 * Issue 26, point 1: a database blip never kills the server. The server runs as a real process
 * whose DATABASE_URL goes through a TcpFaultProxy; the test drops its connections over and over
 * while signed-in calls, live streams and device messages flow, then takes the database away for
 * a few seconds, and checks what callers see, that the process stays up, and that it recovers
 * (health, calls, sessions revoked elsewhere meanwhile) without a restart.
 */

const ADMIN_PASSWORD = 'Outage#Admin1';
const JWT_SECRET = randomBytes(32).toString('hex');
const ZH_UNAVAILABLE = '数据库暂时不可用，请稍后重试';
const EN_UNAVAILABLE = 'The database is unavailable; please try again shortly';
/** What main.ts logs when its last-resort handler catches something nothing else handled. */
const SAFETY_NET = 'process safety net';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let directUrl = '';
let dropDatabase: () => Promise<void> = () => Promise.resolve();
let proxy: TcpFaultProxy;
let server: ServerChild;
let dataDir = '';
let admin = '';
let device: DeviceSecretReply;
let mqttPort = 0;
const clients: MqttClient[] = [];

async function api(
  token: string | undefined,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  lang = 'zh-CN',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.baseUrl}/api${url}`, {
    method,
    headers: {
      'accept-language': lang,
      ...(token ? { 'blade-auth': `bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: res.status, body: parsed };
}

async function tokenCall(baseUrl: string, lang = 'zh-CN') {
  const res = await fetch(`${baseUrl}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: basic(),
      'content-type': 'application/x-www-form-urlencoded',
      'tenant-id': '000000',
      'accept-language': lang,
    },
    body: new URLSearchParams({
      tenantId: '000000',
      username: 'admin',
      password: md5(ADMIN_PASSWORD),
      grant_type: 'password',
      scope: 'all',
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function signIn(): Promise<string> {
  const res = await tokenCall(server.baseUrl);
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as unknown as TokenResponse).access_token;
}

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const start = Date.now();
  while (!(await check().catch(() => false))) {
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms: ${what}`);
    await sleep(50);
  }
  return Date.now() - start;
}

/** Rows on the database itself (not through the proxy). */
async function directRows<T>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: directUrl });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** A device connection to the server's embedded broker. */
function connectDevice(): Promise<MqttClient> {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
    protocolVersion: 4,
    clientId: device.clientId,
    username: device.clientId,
    password: device.secret,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
  });
}

/** The live stream, reopened whenever it ends, until stopped: counts opens, ends and refusals. */
function keepStreamOpen(token: string) {
  const abort = new AbortController();
  const counts = { opened: 0, ended: 0, refused: {} as Record<number, number> };
  const done = (async () => {
    while (!abort.signal.aborted) {
      try {
        const res = await fetch(`${server.baseUrl}/api${LIVE_STREAM_PATH}`, {
          headers: { 'blade-auth': `bearer ${token}`, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (res.status !== 200) {
          counts.refused[res.status] = (counts.refused[res.status] ?? 0) + 1;
          await res.body?.cancel();
        } else {
          counts.opened += 1;
          const reader = res.body?.getReader();
          while (reader && !(await reader.read()).done) {
            // events are not what is measured here
          }
          counts.ended += 1;
        }
      } catch {
        if (abort.signal.aborted) break;
      }
      await sleep(100);
    }
  })();
  return {
    counts,
    stop: async () => {
      abort.abort();
      await done;
    },
  };
}

beforeAll(async () => {
  const created = await createTestDatabase();
  directUrl = created.url;
  dropDatabase = created.drop;
  const relayed = await TcpFaultProxy.forUrl(directUrl);
  proxy = relayed.proxy;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-db-outage-'));
  mqttPort = await freePort();
  server = await startServerChild({
    DATA_DIR: dataDir,
    DATABASE_URL: relayed.url,
    ADMIN_PASSWORD,
    JWT_SECRET,
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
  });
  await untilHealthy(server);
  admin = await signIn();
  const product = await api(admin, 'POST', '/basic/product/submit', {
    productCode: 'OUT-1',
    productName: '断库试验机',
    category: 2,
    fields: [{ fieldKey: 'n', fieldName: '序号', dataType: 'int', unit: '', precision: 0, access: 'r' }],
  });
  expect(product.body, JSON.stringify(product.body)).toMatchObject({ success: true });
  const created2 = await api(admin, 'POST', '/basic/device/submit', {
    deviceCode: 'out-001',
    deviceName: '断库一号',
    productId: product.body.data,
  });
  expect(created2.body, JSON.stringify(created2.body)).toMatchObject({ success: true });
  const secret = await api(admin, 'POST', `/basic/device/rotate-secret?id=${String(created2.body.data)}&first=1`);
  device = secret.body.data as DeviceSecretReply;
}, 120_000);

afterAll(async () => {
  // What the server logged through the faults, for a look by hand.
  if (process.env.DUMP_SERVER_OUTPUT) console.log(server?.output());
  for (const c of clients) await c.endAsync(true).catch(() => undefined);
  await server?.stop();
  await proxy?.close();
  await dropDatabase();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the server and its database', () => {
  it('stays up while its connections are dropped every 300 ms under load, and everything works after', async () => {
    const statuses: Record<number, number> = {};
    let running = true;
    const callLoop = (async () => {
      const urls = ['/blade-user/info', '/basic/device/list?current=1&size=10'];
      for (let i = 0; running; i++) {
        try {
          // Every third call a write: a transaction holds a checked-out connection.
          const res =
            i % 3 === 2
              ? await api(admin, 'POST', '/basic/product/submit', { productCode: `LOAD-${i}`, productName: '负载' })
              : await api(admin, 'GET', urls[i % urls.length] as string);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        } catch {
          statuses[0] = (statuses[0] ?? 0) + 1;
        }
        await sleep(10);
      }
    })();
    const stream = keepStreamOpen(admin);

    // Device messages, numbered, QoS 1: acknowledged means stored (docs/mqtt.md).
    const sent = new Set<number>();
    const acked = new Set<number>();
    let deviceDrops = 0;
    const topic = `${device.topicPrefix}/telemetry`;
    const deviceLoop = (async () => {
      let seq = 0;
      while (running) {
        let client: MqttClient;
        try {
          client = await connectDevice();
          clients.push(client);
        } catch {
          deviceDrops += 1;
          await sleep(200);
          continue;
        }
        try {
          while (running && client.connected) {
            const n = ++seq;
            sent.add(n);
            await client.publishAsync(topic, JSON.stringify({ ts: Date.now(), values: { n } }), { qos: 1 });
            acked.add(n);
            await sleep(15);
          }
        } catch {
          deviceDrops += 1;
        }
        await client.endAsync(true).catch(() => undefined);
      }
    })();

    await sleep(1000);
    const rounds = 10;
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) proxy.terminate();
      else
        await directRows(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()`,
        );
      await sleep(300);
      expect(server.alive(), `server exited in round ${round}: ${server.output().slice(-3000)}`).toBe(true);
    }
    await sleep(1000);
    running = false;
    await Promise.all([callLoop, deviceLoop]);
    await stream.stop();
    expect(server.alive(), server.output().slice(-3000)).toBe(true);

    // After the rounds: calls, a stream and a device message all work again.
    await until(async () => (await api(admin, 'GET', '/blade-user/info')).status === 200, 10_000, 'a signed-in call');
    await until(
      async () => {
        const res = await fetch(`${server.baseUrl}/api${LIVE_STREAM_PATH}`, {
          headers: { 'blade-auth': `bearer ${admin}`, accept: 'text/event-stream' },
        });
        await res.body?.cancel();
        return res.status === 200;
      },
      10_000,
      'a live stream',
    );
    const after = await connectDevice();
    clients.push(after);
    await after.publishAsync(topic, JSON.stringify({ ts: Date.now(), values: { n: 1_000_000 } }), { qos: 1 });
    await after.endAsync();

    const stored = await directRows<{ n: string }>(
      `select num_value::text as n from mes_telemetry where device_code = $1 and field = 'n'`,
      [device.deviceCode],
    );
    const storedNumbers = stored.map((r) => Number(r.n));
    const storedSet = new Set(storedNumbers);
    const lost = [...acked].filter((n) => !storedSet.has(n)).length;
    const duplicated = storedNumbers.length - storedSet.size;
    console.log(
      `terminate rounds: ${rounds}; calls by status ${JSON.stringify(statuses)}; ` +
        `live streams opened ${stream.counts.opened}, ended ${stream.counts.ended}, refused ${JSON.stringify(stream.counts.refused)}; ` +
        `device messages sent ${sent.size}, acknowledged ${acked.size}, stored ${storedSet.size - 1}, ` +
        `lost (acknowledged, not stored) ${lost}, duplicated ${duplicated}, device reconnects ${deviceDrops}`,
    );
    expect(storedSet.has(1_000_000)).toBe(true);
    // An outage is a 503, never a 500 (or a dropped connection).
    expect(Object.keys(statuses).filter((s) => s !== '200' && s !== '503')).toEqual([]);
    expect(statuses[200]).toBeGreaterThan(0);
    expect(stream.counts.opened).toBeGreaterThan(0);
    expect(acked.size).toBeGreaterThan(0);
    expect(server.output()).not.toContain(SAFETY_NET);
  }, 90_000);

  it('answers 503 in the caller’s language while the database is down, and recovers within seconds', async () => {
    // A second process on the database itself (not through the proxy), as a second API process would be.
    const secondDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-db-outage-second-'));
    const secondDb: Database = connectDatabase(directUrl, 3);
    const secondCtx: AppContext = await createAppContext({
      database: secondDb,
      databaseUrl: directUrl,
      jwtSecret: JWT_SECRET,
      dataDir: secondDir,
    });
    const second: FastifyInstance = await buildApp(secondCtx);
    await second.ready();
    const logoutOnSecond = async (token: string) => {
      const res = await second.inject({
        method: 'POST',
        url: '/api/blade-auth/oauth/logout',
        headers: { 'blade-auth': `bearer ${token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    try {
      const duringOutage = await signIn();
      const afterOutage = await signIn();
      expect((await api(duringOutage, 'GET', '/blade-user/info')).status).toBe(200);

      await proxy.stop();
      const downAt = Date.now();
      await until(async () => (await fetch(`${server.baseUrl}/api/health`)).status === 503, 5_000, 'health 503');
      const health = await fetch(`${server.baseUrl}/api/health`, { headers: { 'accept-language': 'en' } });
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ code: 503, success: false, msg: EN_UNAVAILABLE });

      const zh = await api(admin, 'GET', '/blade-user/info', undefined, 'zh-CN');
      expect(zh).toMatchObject({ status: 503, body: { code: 503, success: false, msg: ZH_UNAVAILABLE } });
      const en = await api(admin, 'GET', '/basic/device/list?current=1&size=10', undefined, 'en');
      expect(en).toMatchObject({ status: 503, body: { code: 503, success: false, msg: EN_UNAVAILABLE } });
      const write = await api(admin, 'POST', '/basic/product/submit', { productCode: 'OUT-2', productName: '断库' });
      expect(write.status).toBe(503);
      // Sign-in: the token endpoint's own reply shape, and no crash for the login log it cannot write.
      const token = await tokenCall(server.baseUrl);
      expect(token).toMatchObject({ status: 503, body: { error_code: 503, error_description: ZH_UNAVAILABLE } });
      const tokenEn = await tokenCall(server.baseUrl, 'en');
      expect(tokenEn.body.error_description).toBe(EN_UNAVAILABLE);
      const live = await fetch(`${server.baseUrl}/api${LIVE_STREAM_PATH}`, {
        headers: { 'blade-auth': `bearer ${admin}`, accept: 'text/event-stream' },
      });
      await live.body?.cancel();
      expect(live.status).toBe(503);

      // Meanwhile another process ends a session: this one cannot hear the announcement.
      await logoutOnSecond(duringOutage);

      await sleep(Math.max(0, 4_000 - (Date.now() - downAt)));
      expect(server.alive(), server.output().slice(-3000)).toBe(true);
      await proxy.start();
      const upAt = Date.now();
      const healthyAfter = await until(
        async () => (await fetch(`${server.baseUrl}/api/health`)).status === 200,
        5_000,
        'health 200 after the database is back',
      );
      expect((await api(admin, 'GET', '/blade-user/info')).status).toBe(200);

      // Once the revocation listener is back (its LISTEN visible on the database), the session
      // ended during the outage is refused from the reloaded list, and one ended now is too.
      await until(
        async () =>
          Number(
            (
              await directRows<{ n: string }>(
                `select count(*)::text as n from pg_stat_activity
                  where datname = current_database() and application_name = 'mes-revocations'`,
              )
            )[0]?.n,
          ) >= 2,
        10_000,
        'the revocation listener back',
      );
      const listenerBack = Date.now() - upAt;
      await sleep(300);
      expect((await api(duringOutage, 'GET', '/blade-user/info')).status).toBe(401);
      await logoutOnSecond(afterOutage);
      await until(
        async () => (await api(afterOutage, 'GET', '/blade-user/info')).status === 401,
        3_000,
        'a session ended after the outage',
      );
      expect((await api(admin, 'GET', '/blade-user/info')).status).toBe(200);
      console.log(
        `database down ${upAt - downAt} ms; health 200 again ${healthyAfter} ms after it returned; ` +
          `revocation listener back within ${listenerBack} ms`,
      );
      expect(server.alive()).toBe(true);
      expect(server.output()).not.toContain(SAFETY_NET);
    } finally {
      await second.close();
      await secondCtx.close();
      await secondDb.close();
      fs.rmSync(secondDir, { recursive: true, force: true });
    }
  }, 90_000);
});
