import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-ports';
import { useMigratedDatabase, waitFor } from './support/mqtt-kit';
import { bundleIngestProcess, IngestChild } from './support/ingest-child';
import { RawDevice } from './support/raw-device';

/**
 * The embedded broker of a real server process (support/ingest-process.ts: `startTelemetry` in a
 * child process) under faults (issue 26): an oversized packet (point 5), and SIGTERM and kill -9
 * while devices publish numbered QoS-1 messages (point 7: every acknowledged number stored, none
 * twice, after the restart on the same port and the devices' resends).
 */

const db = useMigratedDatabase();
let entry: string;

beforeAll(async () => {
  entry = await bundleIngestProcess('embedded');
}, 60_000);

afterAll(() => {
  fs.rmSync(entry, { force: true });
});

const device = (port: number, code: string, options: mqtt.IClientOptions = {}) =>
  mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    protocolVersion: 4,
    clientId: `dev-${code}`,
    username: `dev-${code}`,
    password: 'secret',
    reconnectPeriod: 0,
    ...options,
  });

/** How often each number is stored (field `n` of the tenant's telemetry). */
async function storedTimes(tenant: string): Promise<Map<number, number>> {
  const rows = await db.rows<{ n: string; times: string }>(
    `select num_value::bigint as n, count(*) as times from mes_telemetry
      where tenant_id = $1 and field = 'n' group by 1`,
    [tenant],
  );
  return new Map(rows.map((r) => [Number(r.n), Number(r.times)]));
}

describe('a packet over MQTT_MAX_PACKET_BYTES (embedded broker, real server process)', () => {
  it('closes the sender at once without buffering it, while other devices keep publishing and are stored', async () => {
    const tenant = `s${randomBytes(4).toString('hex')}`;
    const server = new IngestChild(entry, {
      DATABASE_URL: db.url,
      MQTT_PORT: '0',
      TENANT: tenant,
      DEVICES: '8',
      REPORT_MS: '50',
    });
    try {
      await server.ready;
      const port = server.last.port!;
      // D0–D3 publish numbered messages throughout; D4 sends 1 MB, D5–D7 30 MB each, at the same time.
      const good = await Promise.all([0, 1, 2, 3].map((i) => device(port, `D${i}`)));
      let seq = 0;
      const acked: number[] = [];
      const publishSome = (count: number) =>
        Promise.all(
          Array.from({ length: count }, () => {
            const n = seq++;
            return good[n % 4]!.publishAsync(
              `mes/${tenant}/D${n % 4}/telemetry`,
              JSON.stringify({ values: { v: n, n } }),
              { qos: 1 },
            ).then(() => acked.push(n));
          }),
        );
      // Warm: the process's RSS settles after its first few hundred messages.
      await publishSome(600);
      await new Promise((r) => setTimeout(r, 300));
      const rssBefore = server.last.rss!;

      const big = await Promise.all([4, 5, 6, 7].map((i) => device(port, `D${i}`)));
      const payloads = [1 << 20, 30 << 20, 30 << 20, 30 << 20].map((size) => Buffer.alloc(size, 0x20));
      const started = Date.now();
      const closedAfter = big.map(
        (client) =>
          new Promise<number>((resolve) => {
            client.once('close', () => resolve(Date.now() - started));
            // Without the guard the connection stays: -1, and the figures still print.
            setTimeout(() => resolve(-1), 5000).unref();
          }),
      );
      big.forEach((client, i) => {
        client.publish(`mes/${tenant}/D${i + 4}/telemetry`, payloads[i]!, { qos: 1 }, () => undefined);
      });
      const during = publishSome(100);
      const closed = await Promise.all(closedAfter);
      await during;
      await new Promise((r) => setTimeout(r, 200));
      const rssAfter = server.last.rss!;
      await publishSome(100);
      const times = await storedTimes(tenant);
      const growthMb = (rssAfter - rssBefore) / 2 ** 20;
      console.log(
        `oversize: closed after ${closed.join('/')} ms; server RSS ${(rssBefore / 2 ** 20).toFixed(1)} → ${(rssAfter / 2 ** 20).toFixed(1)} MB (${growthMb.toFixed(1)} MB); ` +
          `other devices sent ${seq}, acked ${acked.length}, stored ${times.size}, refused connections ${(server.last as { oversize?: number }).oversize}`,
      );
      for (const ms of closed) expect(ms).toBeGreaterThanOrEqual(0);
      // A liveness bound, not a speed figure (the line above prints it): without the guard the
      // connection stays open (-1); 2 s were seen on a loaded 2-core machine.
      for (const ms of closed) expect(ms).toBeLessThan(4000);
      expect(growthMb).toBeLessThan(8);
      expect((server.last as { oversize?: number }).oversize).toBe(4);
      expect(acked).toHaveLength(800);
      expect(times.size).toBe(800);
      expect(
        (
          await db.rows(`select 1 from mes_mqtt_message where tenant_id = $1 and octet_length(payload) > 1000`, [
            tenant,
          ])
        ).length,
      ).toBe(0);
      await Promise.all([...good, ...big].map((c) => c.endAsync(true)));
    } finally {
      await server.kill();
    }
  }, 60_000);
});

describe('SIGTERM and kill -9 of a server process under QoS-1 load (embedded broker)', () => {
  it('stores every acknowledged message once after the restart on the same port and the devices’ resends', async () => {
    const tenant = `e${randomBytes(4).toString('hex')}`;
    const port = await freePort();
    const env = {
      DATABASE_URL: db.url,
      MQTT_PORT: String(port),
      TENANT: tenant,
      DEVICES: '4',
      BATCH_SIZE: '50',
      BATCH_DELAY_MS: '5',
      REPORT_MS: '50',
    };
    let server = new IngestChild(entry, env);
    await server.ready;
    // D0 and D1 set DUP on a resend (paho), D2 and D3 do not (as mqtt.js): both must be recognised.
    const devices = [0, 1, 2, 3].map((i) => new RawDevice(port, `dev-D${i}`, 'secret', { dupOnResend: i < 2 }));
    for (const d of devices) d.start();
    const total = 3200;
    const acked = new Set<number>();
    let sent = 0;
    let restarting: Promise<void> | undefined;
    const faults = (process.env.FAULTS ?? 'SIGTERM,SIGKILL,SIGTERM,SIGKILL').split(',');
    const faultAt = [300, 1100, 1900, 2700].slice(0, faults.length);
    const seen: string[] = [];
    /** Resends the processes acknowledged without storing (as far as their last reports tell). */
    let recognised = 0;
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        // About 400 messages a second over four devices.
        for (let i = 0; i < 4 && sent < total; i++, sent++) {
          const n = sent;
          void devices[n % 4]!.publish(
            `mes/${tenant}/D${n % 4}/telemetry`,
            JSON.stringify({ values: { v: n, n } }),
          ).then(() => acked.add(n));
        }
        // Each fault once the devices are connected to the process it hits.
        const connectedToThis = devices.every((d) => d.connects > seen.length);
        if (!restarting && faultAt.length && sent >= faultAt[0]! && connectedToThis) {
          faultAt.shift();
          const fault = faults.shift()!;
          seen.push(`${fault}@${sent}`);
          restarting = (fault === 'SIGTERM' ? server.stop() : server.kill()).then(async () => {
            recognised += server.last.duplicates ?? 0;
            server = new IngestChild(entry, env);
            await server.ready;
            restarting = undefined;
          });
        }
        if (sent >= total) {
          clearInterval(tick);
          resolve();
        }
      }, 10);
    });
    await restarting;
    await waitFor(() => acked.size === total, 20_000).catch(() => undefined);
    await waitFor(async () => (await storedTimes(tenant)).size >= acked.size, 10_000).catch(() => undefined);
    const times = await storedTimes(tenant);
    recognised += server.last.duplicates ?? 0;
    for (const d of devices) d.stop();
    await server.stop();
    const lost = [...acked].filter((n) => !times.has(n));
    const twice = [...times].filter(([, t]) => t > 1).map(([n]) => n);
    console.log(
      `embedded broker, ${seen.join(', ')}: sent ${total}, acked ${acked.size}, stored ${times.size}, ` +
        `lost ${lost.length}, duplicated ${twice.length} (${recognised} resends recognised; device connections ${devices.map((d) => d.connects).join('/')})`,
    );
    expect({ lost: lost.length, firstLost: lost.slice(0, 5) }).toEqual({ lost: 0, firstLost: [] });
    expect({ twice: twice.length, firstTwice: twice.slice(0, 5) }).toEqual({ twice: 0, firstTwice: [] });
    expect(acked.size).toBe(total);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  }, 90_000);
});
