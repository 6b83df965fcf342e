import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openListenConnection, type ListenConnection } from '../src/platform/db/listen-connection';
import { TcpFaultProxy } from './support/tcp-fault-proxy';
import { createTestDatabase } from './support/test-database';

/**
 * The dedicated LISTEN connection every process keeps (revocations, changes, live events),
 * through a TcpFaultProxy: dropped over and over, refused for a while, or failing its reload, it
 * comes back by itself, listens once (never twice), and says when it was down.
 */

const CHANNEL = 'mes_listen_test';
const APP = 'mes-listen-test';
let directUrl = '';
let drop: () => Promise<void> = () => Promise.resolve();
let proxy: TcpFaultProxy;
let relayedUrl = '';
let admin: pg.Client;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms: ${what}`);
    await sleep(25);
  }
  return Date.now() - start;
}

const backends = async () =>
  Number(
    (
      await admin.query<{ n: string }>(
        `select count(*)::text as n from pg_stat_activity where datname = current_database() and application_name = $1`,
        [APP],
      )
    ).rows[0]?.n,
  );

beforeAll(async () => {
  const created = await createTestDatabase();
  directUrl = created.url;
  drop = created.drop;
  const relayed = await TcpFaultProxy.forUrl(directUrl);
  proxy = relayed.proxy;
  relayedUrl = relayed.url;
  admin = new pg.Client({ connectionString: directUrl });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await proxy?.close();
  await drop();
});

describe('a listening connection', () => {
  it('comes back after every drop and refusal, listens once, and reloads each time it is back', async () => {
    const heard: string[] = [];
    const counts = { up: 0, down: 0, failedReloads: 0 };
    let failReloads = 0;
    const warnings: string[] = [];
    const connection: ListenConnection = await openListenConnection({
      url: relayedUrl,
      channels: [CHANNEL],
      applicationName: APP,
      onNotification: (m) => heard.push(m.payload ?? ''),
      onUp: () => {
        if (failReloads > 0) {
          failReloads -= 1;
          counts.failedReloads += 1;
          throw new Error('reload failed');
        }
        counts.up += 1;
      },
      onDown: () => (counts.down += 1),
      warn: (message) => warnings.push(message),
    });
    try {
      expect(connection.isUp()).toBe(true);
      await admin.query(`select pg_notify($1, 'one')`, [CHANNEL]);
      await until(() => heard.includes('one'), 2_000, 'the first notification');

      // Dropped every 100 ms, ten times: no stray second connection is left listening.
      for (let i = 0; i < 10; i++) {
        if (i % 2 === 0) proxy.terminate();
        else
          await admin.query(
            `select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and application_name = $1`,
            [APP],
          );
        await sleep(100);
      }
      await until(() => connection.isUp(), 8_000, 'up after the drops');
      await sleep(300);
      expect(await backends()).toBe(1);
      await admin.query(`select pg_notify($1, 'two')`, [CHANNEL]);
      await until(() => heard.includes('two'), 2_000, 'a notification after the drops');
      await sleep(200);
      expect(heard.filter((p) => p === 'two')).toHaveLength(1);

      // Refused for 1.5 s (the database is down), and its reload failing twice once it is back.
      const upBefore = counts.up;
      const downBefore = counts.down;
      failReloads = 2;
      await proxy.stop();
      await until(() => !connection.isUp(), 2_000, 'down');
      await sleep(1_500);
      await proxy.start();
      const back = await until(() => connection.isUp(), 10_000, 'up after the outage');
      expect(counts.up).toBe(upBefore + 1);
      expect(counts.down).toBe(downBefore + 1);
      expect(counts.failedReloads).toBe(2);
      expect(await backends()).toBe(1);
      await admin.query(`select pg_notify($1, 'three')`, [CHANNEL]);
      await until(() => heard.includes('three'), 2_000, 'a notification after the outage');
      expect(warnings.some((w) => w.includes('lost; reconnecting'))).toBe(true);
      expect(warnings.some((w) => w.includes('listening again after'))).toBe(true);
      console.log(
        `listen connection: up ${counts.up} times, down ${counts.down}, reloads failed ${counts.failedReloads}; ` +
          `back ${back} ms after the database returned (two failed reloads included)`,
      );
    } finally {
      await connection.close();
    }
    // Closed: it stays closed, whatever happens next.
    proxy.terminate();
    await sleep(700);
    expect(connection.isUp()).toBe(false);
    expect(await backends()).toBe(0);
  }, 30_000);

  it('refuses to open when the database cannot be reached at all, and leaves nothing behind', async () => {
    await proxy.stop();
    try {
      await expect(
        openListenConnection({ url: relayedUrl, channels: [CHANNEL], applicationName: APP, onNotification: () => {} }),
      ).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await proxy.start();
    }
    await sleep(600);
    expect(await backends()).toBe(0);
  });
});
