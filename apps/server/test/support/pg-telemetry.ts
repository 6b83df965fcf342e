import mqtt from 'mqtt';
import type { AppContext } from '../../src/app-context';
import { PgDeviceDirectory } from '../../src/modules/device';
import { startTelemetry, type TelemetryRuntime } from '../../src/modules/telemetry';
import type { Database } from '../../src/platform/db/database';

/**
 * Ingestion on `database`'s pool with the device module's own directory (the devices, products and
 * credentials in PostgreSQL, uncached: every batch looks up again) behind an embedded broker on a
 * free port; ready to accept devices.
 */
export async function startPgTelemetry(
  database: Database,
  warn: (message: string) => void,
  batchDelayMs: number,
): Promise<TelemetryRuntime> {
  const directory = new PgDeviceDirectory({
    db: database.db,
    changes: { subscribe: () => undefined, isLive: () => false },
    caches: { register: () => undefined },
  } as unknown as AppContext);
  const runtime = await startTelemetry(
    { database, clock: { now: () => Date.now() }, logs: { warn } },
    directory,
    { url: undefined, host: '127.0.0.1', port: 0 },
    { batchDelayMs },
  );
  await runtime.ready;
  return runtime;
}

/** An MQTT 3.1.1 connection of a device whose client id is also its user name, without reconnecting. */
export const connectWithSecret = (port: number | undefined, d: { clientId: string; secret: string }) => {
  if (port === undefined) throw new Error('the broker is not listening');
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    protocolVersion: 4,
    clientId: d.clientId,
    username: d.clientId,
    password: d.secret,
    reconnectPeriod: 0,
  });
};
