import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { inject } from 'vitest';
import { ConsoleApi } from '../../../apps/server/test/faults/support/console-api';
import { SuiteMosquitto } from '../../../apps/server/test/faults/support/mosquitto';
import { freePort } from '../../../apps/server/test/faults/support/ports';
import { ServerProcess } from '../../../apps/server/test/faults/support/server-process';
import { createDatabaseOn } from '../../../apps/server/test/support/test-database';
import { TestHaproxy } from './haproxy';

export const METRICS_TOKEN = `cluster-metrics-${randomBytes(8).toString('hex')}`;
export const PROCESS_NAMES = ['a', 'b', 'c'] as const;

/**
 * The production layout of docs/deploy.md on one machine: three console processes (each with a
 * DATA_DIR of its own, the shared secrets in the environment) on a database of the test's own
 * on the machine's PostgreSQL, a numbered Redis database of their own as the ephemeral store,
 * a Mosquitto of the test's own that they share through the shared subscription, and HAProxy in
 * front. Everything is stopped and removed by `stop()`.
 */
export class Cluster {
  readonly servers = new Map<string, ServerProcess>();
  readonly api: ConsoleApi;
  haproxy: TestHaproxy | undefined;

  private constructor(
    readonly databaseUrl: string,
    readonly pool: pg.Pool,
    readonly redis: Redis,
    readonly redisUrl: string,
    readonly mosquitto: SuiteMosquitto,
    private readonly dropDatabase: () => Promise<void>,
  ) {
    this.api = new ConsoleApi(() => this.url);
  }

  /** The balancer: where the browser and the administrator's API calls go. */
  get url(): string {
    if (!this.haproxy) throw new Error('the cluster is started in beforeAll');
    return this.haproxy.url;
  }

  server(name: string): ServerProcess {
    const s = this.servers.get(name);
    if (!s) throw new Error(`no server ${name}`);
    return s;
  }

  static async start(): Promise<Cluster> {
    const { url, drop } = await createDatabaseOn(inject('clusterPgServerUrl'), undefined, 'mes_cluster_');
    const pool = new pg.Pool({ connectionString: url, max: 3, application_name: 'cluster-tally' });
    pool.on('error', () => undefined);
    const { redis, url: redisUrl } = await freeRedisDatabase(inject('clusterRedisUrl'));
    const mosquitto = await SuiteMosquitto.start();
    const cluster = new Cluster(url, pool, redis, redisUrl, mosquitto, drop);
    const shared = {
      REDIS_URL: redisUrl,
      WEB_DIST: inject('clusterWebDist'),
      // Every process must sign and read the same tokens and secrets (README "Configuration").
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'loopback',
      METRICS_TOKEN,
    };
    for (const name of PROCESS_NAMES) {
      const server = new ServerProcess({
        databaseUrl: url,
        mqttUrl: mosquitto.url,
        entry: inject('clusterServerEntry'),
        env: shared,
      });
      server.port = await freePort();
      cluster.servers.set(name, server);
    }
    try {
      // The first one migrates and seeds a fresh database; the others then start together.
      const [first, ...rest] = [...cluster.servers.values()];
      await first!.start();
      await Promise.all(rest.map((s) => s.start()));
      cluster.haproxy = await TestHaproxy.start(
        PROCESS_NAMES.map((name) => ({ name, port: cluster.server(name).port })),
      );
      await cluster.api.signIn();
    } catch (error) {
      // The test's afterAll never sees a cluster that failed to start: nothing may stay running.
      await cluster.stop().catch(() => undefined);
      throw error;
    }
    return cluster;
  }

  /** Open live streams per process, from each one's /metrics (`mes_live_streams`). */
  async liveStreams(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const [name, server] of this.servers) {
      if (!server.running) {
        counts[name] = 0;
        continue;
      }
      const res = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const text = await res.text();
      counts[name] = Number(/^mes_live_streams(?:\{[^}]*\})?\s+(\d+)/m.exec(text)?.[1] ?? 0);
    }
    return counts;
  }

  async stop(): Promise<void> {
    await this.haproxy?.stop();
    for (const s of this.servers.values()) await s.close();
    await this.mosquitto.stop();
    await this.pool.end();
    await this.dropDatabase();
    // The store's keys (sign-in counters, revocations) expire on their own; the test's go at once.
    const keys = await this.redis.keys('mes:*');
    if (keys.length > 0) await this.redis.del(...keys);
    await this.redis.quit();
  }
}

/**
 * A numbered Redis database nobody uses (empty), so the servers' `mes:` keys never meet those of
 * another run or of the machine's own console; the server takes the number from REDIS_URL's path.
 */
async function freeRedisDatabase(serverUrl: string): Promise<{ redis: Redis; url: string }> {
  for (let db = 15; db >= 1; db -= 1) {
    const url = new URL(serverUrl);
    url.pathname = `/${db}`;
    const redis = new Redis(url.toString(), { maxRetriesPerRequest: 2 });
    if ((await redis.dbsize()) === 0) return { redis, url: url.toString() };
    await redis.quit();
  }
  throw new Error(`every numbered database of ${serverUrl} holds keys: no room for the cluster test`);
}
