import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SimulatorError } from './errors';

/** How devices sign in to the broker (docs/mqtt.md). */
export type BrokerKind = 'embedded' | 'external';

export interface SimulatorOptions {
  devices: number;
  /** Telemetry messages per second per device. */
  rate: number;
  /** The console's base address (`http://localhost:8080`). */
  api: string;
  tenant: string;
  account: string;
  password: string;
  /** The broker devices connect to (`mqtt://127.0.0.1:1883`). */
  mqtt: string;
  /** Whether `mqtt` was chosen by default (the console's embedded broker), for the error hints. */
  mqttDefaulted: boolean;
  /** `embedded`: user name = client id; `external` (Mosquitto): user name = `{tenantId}/{deviceCode}`. */
  broker: BrokerKind;
  /** Seconds to run; undefined = until Ctrl-C. */
  duration: number | undefined;
  /** Simulated seconds per real second (cycles of 45 minutes take 45 s at 60). */
  speed: number;
  /** Probability that a cycle ends in a fault. */
  faults: number;
  /** Mean real seconds between abrupt disconnects of one device; 0 = never. */
  disconnectEvery: number;
  /** Unacknowledged QoS-1 messages one device allows before it skips a report. */
  maxInflight: number;
  seed: number;
  /** Writes `user:secret` lines for `mosquitto_passwd -U` (external broker). */
  credentialsFile: string | undefined;
}

export const HELP = `Usage: npm run simulate -- [options]

Simulates waterline disinfectors (product WL-PRO) and steam sterilisers (ST-B23) publishing
telemetry, status and finished cycles over MQTT to a running MES Console (docs/simulator.md).

  --devices N        devices to simulate (default 4: the seeded demo devices, then SIM-0001 …)
  --rate R           telemetry messages per second per device (default 1)
  --api URL          the console (default http://localhost:8080)
  --tenant ID        tenant of the devices (default 000000)
  --account NAME     account that provisions devices (default admin)
  --password PW      its password (default ADMIN_PASSWORD, else DATA_DIR/admin-password.txt;
                     for another tenant DATA_DIR/demo-password.txt when it names that tenant)
  --mqtt URL         broker (default the console's embedded one: mqtt://127.0.0.1:$MQTT_PORT or 1883)
  --broker KIND      embedded (user name = client id) or external (user name = tenant/code, for
                     Mosquitto; default when MQTT_URL is set)
  --credentials FILE external broker: write user:secret lines for mosquitto_passwd -U
  --duration S       stop after S seconds (default: run until Ctrl-C)
  --speed X          simulated seconds per real second (default 60: a 45-minute cycle takes 45 s)
  --faults P         probability that a cycle ends in a fault (default 0.05)
  --disconnect-every S  mean seconds between abrupt disconnects of one device (default 300; 0 = never)
  --max-inflight N   unacknowledged messages per device before it skips a report (default 20)
  --seed N           random seed (default 1)
  --help             this text

Each run gives every device a new MQTT secret (rotate-secret): a real device using one of these
devices' secrets stops connecting until it gets the new one.`;

/**
 * Reads the administrator password the console generated: the platform's at its first start
 * (`admin-password.txt`), or the demo tenant's (`demo-password.txt`, docs/demo.md) when the file
 * names the tenant asked for.
 */
function passwordFromDataDir(env: NodeJS.ProcessEnv, cwd: string, tenant: string): string | undefined {
  const name = tenant === '000000' ? 'admin-password.txt' : 'demo-password.txt';
  const file = path.resolve(cwd, env.DATA_DIR?.trim() || './data', name);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (/tenant (\S+),/.exec(text)?.[1] !== tenant) return undefined;
  return /password (\S+)/.exec(text)?.[1];
}

function numberOption(name: string, raw: string | undefined, fallback: number, low: number, high: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < low || value > high)
    throw new SimulatorError(`--${name} must be a number from ${low} to ${high} (got "${raw}")`);
  return value;
}

/** The broker the console's embedded broker listens on, or the external one it subscribes to. */
function defaultMqtt(env: NodeJS.ProcessEnv): { url: string; external: boolean } {
  const external = env.MQTT_URL?.trim();
  if (external) {
    try {
      const u = new URL(external);
      return { url: `${u.protocol}//${u.hostname}:${u.port || '1883'}`, external: true };
    } catch {
      throw new SimulatorError(`MQTT_URL is not a URL: ${external}`);
    }
  }
  return { url: `mqtt://127.0.0.1:${env.MQTT_PORT?.trim() || '1883'}`, external: false };
}

/** `undefined` when `--help` was asked for. */
export function parseOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): SimulatorOptions | undefined {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        devices: { type: 'string' },
        rate: { type: 'string' },
        api: { type: 'string' },
        tenant: { type: 'string' },
        account: { type: 'string' },
        password: { type: 'string' },
        mqtt: { type: 'string' },
        broker: { type: 'string' },
        credentials: { type: 'string' },
        duration: { type: 'string' },
        speed: { type: 'string' },
        faults: { type: 'string' },
        'disconnect-every': { type: 'string' },
        'max-inflight': { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new SimulatorError(`${(error as Error).message}\n\n${HELP}`);
  }
  if (values.help) return undefined;
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);

  const fallbackMqtt = defaultMqtt(env);
  const broker = text('broker') ?? (fallbackMqtt.external && !text('mqtt') ? 'external' : 'embedded');
  if (broker !== 'embedded' && broker !== 'external')
    throw new SimulatorError(`--broker must be embedded or external (got "${broker}")`);
  const mqttUrl = text('mqtt') ?? fallbackMqtt.url;
  try {
    const u = new URL(mqttUrl);
    if (!['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:'].includes(u.protocol)) throw new Error(u.protocol);
  } catch {
    throw new SimulatorError(`--mqtt must be a URL like mqtt://127.0.0.1:1884 (got "${mqttUrl}")`);
  }
  const api = (text('api') ?? 'http://localhost:8080').replace(/\/+$/, '');
  try {
    new URL(api);
  } catch {
    throw new SimulatorError(`--api must be a URL like http://localhost:8080 (got "${api}")`);
  }

  const duration = text('duration');
  const parsed: Omit<SimulatorOptions, 'password'> = {
    devices: Math.floor(numberOption('devices', text('devices'), 4, 1, 100_000)),
    rate: numberOption('rate', text('rate'), 1, 0.01, 1000),
    api,
    tenant: text('tenant') ?? '000000',
    account: text('account') ?? 'admin',
    mqtt: mqttUrl,
    mqttDefaulted: text('mqtt') === undefined,
    broker,
    duration: duration === undefined ? undefined : numberOption('duration', duration, 0, 0.1, 10 * 365 * 86_400),
    speed: numberOption('speed', text('speed'), 60, 0.01, 100_000),
    faults: numberOption('faults', text('faults'), 0.05, 0, 1),
    disconnectEvery: numberOption('disconnect-every', text('disconnect-every'), 300, 0, 10 * 365 * 86_400),
    maxInflight: Math.floor(numberOption('max-inflight', text('max-inflight'), 20, 1, 65_535)),
    seed: Math.floor(numberOption('seed', text('seed'), 1, 0, 2 ** 32 - 1)),
    credentialsFile: text('credentials'),
  };
  const platform = parsed.tenant === '000000';
  const password =
    text('password') ??
    ((platform ? env.ADMIN_PASSWORD?.trim() : undefined) || passwordFromDataDir(env, cwd, parsed.tenant));
  if (!password)
    throw new SimulatorError(
      platform
        ? 'no password for the console: pass --password, set ADMIN_PASSWORD, or run from the folder whose ' +
            'DATA_DIR (default ./data) holds admin-password.txt'
        : `no password for tenant ${parsed.tenant}: pass --password, or run from the folder whose ` +
            'DATA_DIR (default ./data) holds the demo-password.txt of npm run seed:demo for that tenant',
    );
  return { ...parsed, password };
}
