/**
 * A server process reduced to MQTT ingestion, for tests and benchmarks that kill, pause or measure
 * it apart from the rest (apps/server/test/mqtt-durability.test.ts, bench/ingest-bench.ts): it runs
 * `startTelemetry` against `DATABASE_URL` with a fixed directory of devices, and reports on stdout, one
 * JSON line each: `{"ready":…}` once messages can flow, then every `REPORT_MS` its counters and
 * memory. SIGTERM stops it the way the server stops (commit what was read, then disconnect).
 *
 * Environment: `DATABASE_URL`; `MQTT_URL` (external broker) or `MQTT_PORT` (embedded, 0 = free);
 * `TENANT`, `DEVICES` (devices `D0` … `D{n-1}` of that tenant, client id `dev-D{i}`, secret
 * `secret`), `FIELDS` (their thing model as a JSON array of `ModelField`; default `v` float and `n`
 * int; the ingest bench gives the demo products' models); optional `CLIENT_ID`, `SHARE_GROUP`, `BATCH_SIZE`,
 * `BATCH_DELAY_MS`, `MAX_QUEUE`, `RECEIVE_MAXIMUM`, `SESSION_EXPIRY`, `REPORT_MS`; `CLUSTER_DEAD_AFTER_MS`
 * (with `CLUSTER_HEARTBEAT_MS`, `DATA_DIR`) joins the process registry, so survivors take over
 * the session of a dead process (platform/mqtt/session-takeover.ts).
 */
import pg from 'pg';
import type {
  DeviceDirectory,
  DeviceIdentity,
  KnownDevice,
  ModelField,
} from '../../src/modules/telemetry/device-directory';
import { startTelemetry, type MqttTuning } from '../../src/modules/telemetry';
import { ProcessRegistry } from '../../src/platform/cluster/process-registry';

const env = process.env;
const number = (name: string): number | undefined => (env[name] ? Number(env[name]) : undefined);
const tenant = env.TENANT ?? '000000';
const fields: ModelField[] = env.FIELDS
  ? (JSON.parse(env.FIELDS) as ModelField[])
  : [
      { field: 'v', dataType: 'float', unit: '', precision: 3 },
      { field: 'n', dataType: 'int', unit: '', precision: 0 },
    ];
const devices = new Map<string, KnownDevice>();
for (let i = 0; i < (number('DEVICES') ?? 1); i++)
  devices.set(`D${i}`, {
    deviceId: String(i + 1),
    tenantId: tenant,
    deviceCode: `D${i}`,
    productId: '1',
    fields: new Map(fields.map((f) => [f.field, f])),
    inactivitySeconds: 3600,
  });

const directory: DeviceDirectory = {
  authenticate: (clientId: string, secret: string): Promise<DeviceIdentity | undefined> => {
    const device = clientId.startsWith('dev-') ? devices.get(clientId.slice(4)) : undefined;
    return Promise.resolve(device && secret === 'secret' ? device : undefined);
  },
  find: (tenantId: string, deviceCode: string) =>
    Promise.resolve(tenantId === tenant ? devices.get(deviceCode) : undefined),
  markOnline: () => Promise.resolve(),
};

const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
pool.on('error', () => undefined);
const report = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const tuning: MqttTuning = {
  batchDelayMs: number('BATCH_DELAY_MS') ?? 10,
  ...(number('BATCH_SIZE') ? { batchSize: number('BATCH_SIZE') } : {}),
  ...(number('MAX_QUEUE') ? { maxQueue: number('MAX_QUEUE') } : {}),
  ...(number('RECEIVE_MAXIMUM') ? { receiveMaximum: number('RECEIVE_MAXIMUM') } : {}),
  ...(number('SESSION_EXPIRY') ? { sessionExpirySeconds: number('SESSION_EXPIRY') } : {}),
  ...(env.CLIENT_ID ? { clientId: env.CLIENT_ID } : {}),
  // Narrowed to the run's own tenant: others' runs share the machine's Mosquitto.
  ...(env.SHARE_GROUP
    ? { shareGroup: env.SHARE_GROUP, ingestTopic: `mes/${tenant}/+/+`, sparkplugTopic: `spBv1.0/${tenant}/+/+/#` }
    : {}),
};
const warn = (message: string, error?: unknown) => process.stderr.write(`${message} ${error ? String(error) : ''}\n`);
const cluster = env.CLUSTER_DEAD_AFTER_MS
  ? new ProcessRegistry({
      pool,
      ...(env.DATA_DIR ? { dataDir: env.DATA_DIR } : {}),
      settings: { deadAfterMs: number('CLUSTER_DEAD_AFTER_MS'), heartbeatMs: number('CLUSTER_HEARTBEAT_MS') ?? 300 },
      warn,
    })
  : undefined;
await cluster?.start();
const runtime = await startTelemetry(
  {
    ...(cluster ? { cluster } : {}),
    database: { pool },
    clock: { now: () => Date.now() },
    logs: { warn: (message, error) => process.stderr.write(`${message} ${error ? String(error) : ''}\n`) },
  },
  directory,
  { url: env.MQTT_URL || undefined, host: '127.0.0.1', port: number('MQTT_PORT') ?? 0 },
  tuning,
);
await runtime.ready;
report({ ready: true, port: runtime.port(), clientId: runtime.subscriberId() });

const status = () => {
  const memory = process.memoryUsage();
  return {
    ...runtime.ingestion.counters,
    queued: runtime.ingestion.queued,
    ...runtime.redeliveries,
    rss: memory.rss,
    heapUsed: memory.heapUsed,
  };
};
setInterval(() => report(status()), number('REPORT_MS') ?? 1000).unref();
process.once('SIGTERM', () => {
  void runtime
    .stop()
    .then(() => cluster?.stop())
    .then(() => pool.end())
    .then(() => {
      report({ stopped: true, ...status() });
      process.exit(0);
    });
});
// Keeps the process alive (the MQTT timers are unref'd).
setInterval(() => undefined, 1 << 30);
