import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase } from '../../support/test-database';
import { TcpFaultProxy } from '../../support/tcp-fault-proxy';
import { ConsoleApi, type RegisteredDevice } from './console-api';
import { Fleet, TelemetryDevice } from './fleet';
import { SuiteMosquitto } from './mosquitto';
import { ServerProcess } from './server-process';

export type BrokerKind = 'embedded' | 'mosquitto';
export const BROKERS: BrokerKind[] = ['embedded', 'mosquitto'];

/**
 * One case's world: a database of its own on the suite's PostgreSQL, reached by the server only
 * through a TcpFaultProxy (the fault goes between them), the suite's own Mosquitto for the
 * external-broker runs, one real server process, and the admin's API.
 */
export interface FaultStack {
  readonly broker: BrokerKind;
  /** The database directly (not through the proxy): the tally and the tampering read and write here. */
  readonly pool: pg.Pool;
  readonly databaseUrl: string;
  readonly databaseName: string;
  readonly proxy: TcpFaultProxy;
  readonly server: ServerProcess;
  readonly mosquitto: SuiteMosquitto | undefined;
  readonly api: ConsoleApi;
  /** A short prefix unique to this stack, for product and device codes. */
  readonly tag: string;
  /** Devices registered through the API and connected, streaming when `start()`ed. */
  fleet(prefix: string, count: number, options?: { perSecond?: number; window?: number }): Promise<Fleet>;
  /** The API id of a device `fleet()` registered, by its code. */
  idOf(code: string): string;
  /** How a registered device connects through this stack's broker. */
  device(
    registered: RegisteredDevice,
    options?: { perSecond?: number; window?: number; reconnect?: boolean },
  ): TelemetryDevice;
  /** Set by a case that left the server stalled (a poison retried forever): the next `revive()` resets. */
  dirty: boolean;
  /**
   * Starts the server again if an earlier case left it dead (today a database blip can kill it):
   * every case then starts from a running server, and says for itself whether it crashed.
   */
  revive(): Promise<void>;
  /**
   * A clean slate for the next case on the same database: the server killed and started again,
   * and the suite's Mosquitto (if any) restarted, forgetting what it still held for the console.
   */
  reset(): Promise<void>;
  /** `pg_terminate_backend` on every connection of the console's database (the way an operator or a failover does it). */
  terminateBackends(): Promise<number>;
}

/** A stack for the calling describe block, made in its beforeAll and torn down in its afterAll. */
export function useStack(broker: BrokerKind): FaultStack {
  let pool: pg.Pool | undefined;
  let drop: () => Promise<void> = () => Promise.resolve();
  let databaseUrl = '';
  let proxy: TcpFaultProxy | undefined;
  let server: ServerProcess | undefined;
  let mosquitto: SuiteMosquitto | undefined;
  const fleets: Fleet[] = [];
  const ids = new Map<string, string>();
  const tag = `F${randomBytes(2).toString('hex').toUpperCase()}`;
  const api = new ConsoleApi(() => need(server).baseUrl);

  beforeAll(async () => {
    const began = Date.now();
    const created = await createTestDatabase();
    drop = created.drop;
    databaseUrl = created.url;
    pool = new pg.Pool({ connectionString: created.url, max: 3, application_name: 'faults-tally' });
    pool.on('error', () => undefined);
    const proxied = await TcpFaultProxy.forUrl(created.url);
    proxy = proxied.proxy;
    if (broker === 'mosquitto') mosquitto = await SuiteMosquitto.start();
    server = new ServerProcess({ databaseUrl: proxied.url, mqttUrl: mosquitto?.url });
    await server.start();
    await api.signIn();
    process.stdout.write(`fault stack (${broker}) ready in ${Date.now() - began} ms\n`);
  }, 180_000);

  afterAll(async () => {
    for (const f of fleets) await f.close();
    await server?.close();
    await mosquitto?.stop();
    await proxy?.close();
    await pool?.end();
    await drop();
  }, 60_000);

  const stack: FaultStack = {
    broker,
    get pool() {
      return need(pool);
    },
    get databaseUrl() {
      return databaseUrl;
    },
    get databaseName() {
      return new URL(databaseUrl).pathname.slice(1);
    },
    get proxy() {
      return need(proxy);
    },
    get server() {
      return need(server);
    },
    get mosquitto() {
      return mosquitto;
    },
    api,
    tag,
    idOf(code) {
      return need(ids.get(code));
    },
    device(registered, options) {
      const url = mosquitto ? mosquitto.url : `mqtt://127.0.0.1:${need(server).mqttPort}`;
      // Through Mosquitto the device is anonymous (the suite's broker lets anyone in); the console
      // knows it by the topic. A client id of its own per run, as the broker is shared by the cases.
      return new TelemetryDevice(
        registered.code,
        mosquitto
          ? { url, clientId: `${registered.code}-${randomBytes(3).toString('hex')}` }
          : { url, clientId: registered.clientId, secret: registered.secret },
        options,
      );
    },
    async fleet(prefix, count, options) {
      const registered = await api.registerDevices(`${tag}${prefix}`, count);
      for (const r of registered) ids.set(r.code, r.id);
      const fleet = new Fleet(registered.map((r) => stack.device(r, options)));
      fleets.push(fleet);
      await fleet.connect();
      return fleet;
    },
    dirty: false,
    async revive() {
      if (stack.dirty) {
        stack.dirty = false;
        await stack.reset();
        return;
      }
      await need(proxy).start();
      const srv = need(server);
      if (!srv.running) {
        await srv.start();
        await api.signIn();
      }
    },
    async reset() {
      for (const f of fleets.splice(0)) await f.close();
      await need(server).kill('SIGKILL');
      await mosquitto?.restart();
      await need(proxy).start();
      await need(server).start();
      await api.signIn();
    },
    async terminateBackends() {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        const { rowCount } = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()
              and coalesce(application_name, '') <> 'faults-tally'`,
        );
        return rowCount ?? 0;
      } finally {
        await admin.end();
      }
    },
  };
  return stack;
}

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the fault stack is made in beforeAll');
  return value;
}
