import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll } from 'vitest';
import { applyMigrations, connectDatabase, type Database } from '../../src/platform/db/database';
import type { KnownDevice } from '../../src/modules/telemetry/device-directory';
import { createTestDatabase } from './test-database';

/** What the MQTT tests share: a migrated database of the file's own, polling, device clients. */

/** A device a test directory knows, with the credential it connects with. */
export interface FakeDevice extends KnownDevice {
  clientId: string;
  secret: string;
}

export interface MigratedDatabase {
  readonly database: Database;
  readonly url: string;
  /** Rows of a statement on that database. */
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
}

/** A migrated database for the calling test file: created before its tests, dropped after. */
export function useMigratedDatabase(): MigratedDatabase {
  let database: Database | undefined;
  let url = '';
  let drop: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    url = created.url;
    database = connectDatabase(created.url);
    await applyMigrations(database);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await drop();
  });
  const current = () => {
    if (!database) throw new Error('the test database is made in beforeAll');
    return database;
  };
  return {
    get database() {
      return current();
    },
    get url() {
      return url;
    },
    rows: async <T>(text: string, params: unknown[] = []) => (await current().pool.query(text, params)).rows as T[],
  };
}

/** Polls `check` every 25 ms until it holds; rejects after `ms`. */
export async function waitFor(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A device's MQTT 3.1.1 connection to a broker on this machine, signed in with its client id and secret. */
export function connectDevice(
  port: number,
  device: FakeDevice,
  options: mqtt.IClientOptions = {},
): Promise<MqttClient> {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    protocolVersion: 4,
    clientId: device.clientId,
    username: device.clientId,
    password: device.secret,
    reconnectPeriod: 0,
    ...options,
  });
}
