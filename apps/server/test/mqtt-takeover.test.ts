import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useMigratedDatabase, waitFor } from './support/mqtt-kit';
import { bundleIngestProcess, IngestChild } from './support/ingest-child';

/**
 * A server process that stays down does not lose its share (docs/mqtt.md "A process that stays
 * down"): two real server processes (support/ingest-process.ts) on one shared subscription of the
 * machine's Mosquitto, each in the process registry; one is killed with SIGKILL under QoS-1 load
 * and stays down past its session expiry. The survivor takes over its session and stores what the
 * broker queued for it. Short settings so the test takes seconds: session expiry 5 s, dead after
 * 1.5 s, heartbeat 300 ms.
 */

const BROKER = 'mqtt://127.0.0.1:1883';
const DEVICES = 4;
const SESSION_EXPIRY_S = 5;

const db = useMigratedDatabase();
let entry: string;

beforeAll(async () => {
  entry = await bundleIngestProcess('takeover');
}, 60_000);

afterAll(() => {
  fs.rmSync(entry, { force: true });
});

/** Set `TAKEOVER_OFF=1` to run the same scenario without the registry (the share is then lost). */
const withRegistry = !process.env.TAKEOVER_OFF;

const ingestProcess = (tenant: string, name: string) =>
  new IngestChild(entry, {
    DATABASE_URL: db.url,
    MQTT_URL: BROKER,
    DEVICES: String(DEVICES),
    TENANT: tenant,
    SHARE_GROUP: `tko-${tenant}`,
    CLIENT_ID: `tko-${tenant}-${name}`,
    SESSION_EXPIRY: String(SESSION_EXPIRY_S),
    BATCH_SIZE: '50',
    BATCH_DELAY_MS: '5',
    ...(withRegistry ? { CLUSTER_DEAD_AFTER_MS: '1500', CLUSTER_HEARTBEAT_MS: '300' } : {}),
  });

/** QoS-1 telemetry, `perTick` every 10 ms, field `n` = sequence number; the numbers the broker acknowledged. */
async function publishLoad(tenant: string, total: number, perTick: number, onTick?: (sent: number) => void) {
  const client: MqttClient = await mqtt.connectAsync(BROKER, {
    protocolVersion: 5,
    clientId: `pub-${tenant}`,
    reconnectPeriod: 0,
  });
  const acked: number[] = [];
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      for (let i = 0; i < perTick && sent < total; i++, sent++) {
        const seq = sent;
        client.publish(
          `mes/${tenant}/D${seq % DEVICES}/telemetry`,
          JSON.stringify({ values: { v: seq / 10, n: seq } }),
          { qos: 1 },
          (error) => {
            if (!error) acked.push(seq);
          },
        );
      }
      onTick?.(sent);
      if (sent >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });
  await waitFor(() => acked.length === total, 20_000).catch(() => undefined);
  await client.endAsync();
  return { sent, acked };
}

async function storedTimes(tenant: string): Promise<Map<number, number>> {
  const { rows } = await db.database.pool.query<{ n: string; times: string }>(
    `select num_value::bigint as n, count(*) as times from mes_telemetry
      where tenant_id = $1 and field = 'n' group by 1`,
    [tenant],
  );
  return new Map(rows.map((r) => [Number(r.n), Number(r.times)]));
}

/** Sent / acknowledged / stored / lost / duplicated, printed and returned. */
async function tally(label: string, tenant: string, sent: number, acked: number[]) {
  await waitFor(async () => (await storedTimes(tenant)).size >= acked.length, 15_000).catch(() => undefined);
  const times = await storedTimes(tenant);
  const lost = acked.filter((seq) => !times.has(seq));
  const duplicated = [...times].filter(([, t]) => t > 1).map(([seq]) => seq);
  const figures = { sent, acked: acked.length, stored: times.size, lost: lost.length, duplicated: duplicated.length };
  console.log(`${label}: ${JSON.stringify(figures)}`);
  return { figures, lost, duplicated };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a server process that stays down (the machine's Mosquitto, shared subscription)", () => {
  it('leaves no share behind: the survivor takes over its session, nothing lost, nothing twice', async () => {
    const tenant = `t${randomBytes(4).toString('hex')}`;
    const a = ingestProcess(tenant, 'a');
    const b = ingestProcess(tenant, 'b');
    let killedAt = 0;
    try {
      await Promise.all([a.ready, b.ready]);
      // 2,000 messages at about 200/s; A is killed after 400 and never comes back.
      const { sent, acked } = await publishLoad(tenant, 2000, 2, (n) => {
        if (!killedAt && n >= 400) {
          killedAt = Date.now();
          void a.kill();
        }
      });
      // Past A's session expiry: without a takeover the broker has discarded A's share by now.
      await sleep(Math.max(0, killedAt + SESSION_EXPIRY_S * 1000 + 1500 - Date.now()));
      const { figures, lost, duplicated } = await tally('takeover, one process down for good', tenant, sent, acked);
      await b.stop();
      expect(figures.acked).toBe(2000);
      expect({ lost: lost.length, firstLost: lost.slice(0, 5) }).toEqual({ lost: 0, firstLost: [] });
      expect({ twice: duplicated.length, first: duplicated.slice(0, 5) }).toEqual({ twice: 0, first: [] });
      if (withRegistry) {
        const { rows } = await db.database.pool.query<{ done: boolean }>(
          `select takeover_done_at is not null as done from mes_server_process where mqtt_client_id = $1`,
          [`tko-${tenant}-a`],
        );
        expect(rows).toEqual([{ done: true }]);
      }
    } finally {
      await Promise.all([a.kill(), b.kill()]);
    }
  }, 60_000);

  it.skipIf(!withRegistry)(
    'a process that comes back during the takeover waits for it, then starts its session again',
    async () => {
      const tenant = `r${randomBytes(4).toString('hex')}`;
      let a = ingestProcess(tenant, 'a');
      const b = ingestProcess(tenant, 'b');
      let restarted: Promise<void> | undefined;
      try {
        await Promise.all([a.ready, b.ready]);
        let killed = false;
        const { sent, acked } = await publishLoad(tenant, 1500, 2, (n) => {
          if (killed || n < 300) return;
          killed = true;
          // A comes back while the survivor drains its session: the drain is held (a lock on the
          // telemetry table) from the claim until the new A has registered and is waiting.
          restarted = a.kill().then(async () => {
            await waitFor(async () => {
              const { rows } = await db.database.pool.query(
                `select 1 from mes_server_process where mqtt_client_id = $1 and takeover_by is not null`,
                [`tko-${tenant}-a`],
              );
              return rows.length > 0;
            }, 5000);
            const lock = new pg.Client({ connectionString: db.url });
            await lock.connect();
            try {
              await lock.query('begin');
              await lock.query('lock table mes_telemetry in exclusive mode');
              a = ingestProcess(tenant, 'a');
              await waitFor(async () => {
                const { rows } = await db.database.pool.query(
                  `select 1 from mes_server_process where mqtt_client_id = $1`,
                  [`tko-${tenant}-a`],
                );
                return rows.length > 1;
              }, 10_000);
              await sleep(500);
            } finally {
              await lock.query('commit');
              await lock.end();
            }
            await a.ready;
          });
        });
        await restarted;
        const { figures, lost, duplicated } = await tally('takeover, process back during it', tenant, sent, acked);
        // Whether the restart landed while the survivor was still draining (it then waited).
        const { rows: timing } = await db.database.pool.query<{ during: boolean | null }>(
          `select n.started_at < o.takeover_done_at as during from mes_server_process o
           join mes_server_process n on n.mqtt_client_id = o.mqtt_client_id and n.started_at > o.started_at
          where o.mqtt_client_id = $1`,
          [`tko-${tenant}-a`],
        );
        console.log(`restarted while the takeover drained: ${JSON.stringify(timing.map((r) => r.during))}`);
        expect(timing).toEqual([{ during: true }]);
        await Promise.all([a.stop(), b.stop()]);
        expect(figures.acked).toBe(1500);
        expect({ lost: lost.length, firstLost: lost.slice(0, 5) }).toEqual({ lost: 0, firstLost: [] });
        expect({ twice: duplicated.length, first: duplicated.slice(0, 5) }).toEqual({ twice: 0, first: [] });
      } finally {
        await Promise.all([a.kill(), b.kill()]);
      }
    },
    60_000,
  );
});
