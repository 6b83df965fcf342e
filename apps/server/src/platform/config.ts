import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalText = z
  .string()
  .transform((v) => v.trim())
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const urlWithScheme = (schemes: string[], example: string) =>
  optionalText.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return schemes.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL like ${example}` },
  );

/** How much one user or tenant may hold at once (platform/http/fair-shares.ts, docs/operations.md). */
export interface FairShareLimits {
  /** `LIVE_STREAMS_PER_USER`: live event streams one user may hold open across all processes (a browser tab holds one). */
  liveStreamsPerUser: number;
  /** `EXPORTS_PER_TENANT`: xlsx exports one tenant may have under way at once across all processes. */
  exportsPerTenant: number;
  /** `REPORTS_PER_TENANT`: report files one tenant may have queued or generating (all processes: counted in the database). */
  reportsPerTenant: number;
  /**
   * `FAIR_SHARE_SLOT_SECONDS`: a held stream or export slot lapses this long after its process last
   * renewed it (every third of it), so the slots of a killed process come back within this time.
   */
  slotSeconds: number;
}

export const DEFAULT_FAIR_SHARES: FairShareLimits = {
  liveStreamsPerUser: 10,
  exportsPerTenant: 3,
  reportsPerTenant: 5,
  slotSeconds: 30,
};

const fairShareLimit = (fallback: number) =>
  z
    .string()
    .default(String(fallback))
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 10_000, {
      message: 'must be a whole number from 1 to 10000',
    })
    .transform(Number);

const API_LOG_VALUES = ['on', 'off'] as const;
/** `API_LOG`: record every API request in the API log (`on`, the default) or not (`off`). */
const apiLogSwitch = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(API_LOG_VALUES, { message: `must be one of ${API_LOG_VALUES.join(', ')}` }))
  .default('on');

/**
 * Whether the API log is on, read from `API_LOG` alone (the runtime's default when its caller
 * does not say). A bad value reads as on: `loadConfig` has already stopped a start with one.
 */
export function apiLogEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const parsed = apiLogSwitch.safeParse(env.API_LOG);
  return !parsed.success || parsed.data !== 'off';
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const isProxyEntry = (entry: string) => {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  if (rest.length) return false;
  const v4 = IPV4.test(address);
  const v6 = !v4 && address.includes(':') && /^[0-9a-f:.]+$/i.test(address);
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128);
};
/**
 * `TRUST_PROXY`: comma-separated addresses or CIDRs of the reverse proxies in front of the
 * server (or `loopback`, `linklocal`, `uniquelocal`). Only their `X-Forwarded-For` is believed;
 * unset, the client address is the connection's own.
 */
const trustProxyList = optionalText
  .transform((v) =>
    v === undefined
      ? []
      : v
          .split(',')
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
  )
  .refine((list) => list.every(isProxyEntry), {
    message: `must be comma-separated IP addresses or CIDRs (or ${PROXY_NAMES.join(', ')})`,
  });

/**
 * Every setting of the server, all from environment variables, checked once at start.
 * A bad value stops the start with a message that names the variable.
 */
const ConfigSchema = z.object({
  PORT: z
    .string()
    .default('8080')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, {
      message: 'must be a whole number from 1 to 65535',
    })
    .transform(Number),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: urlWithScheme(['postgres:', 'postgresql:'], 'postgres://user@127.0.0.1:5432/mes'),
  REDIS_URL: urlWithScheme(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  JWT_SECRET: optionalText.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters (or leave it unset to generate one into DATA_DIR)',
  }),
  /** Read by platform/crypto/secret-box.ts; validated here so a short key stops the start. */
  DATA_ENCRYPTION_KEY: optionalText.refine((v) => v === undefined || v.length >= 32, {
    message: 'must be at least 32 characters (or leave it unset to generate one into DATA_DIR)',
  }),
  ADMIN_PASSWORD: optionalText.refine((v) => v === undefined || v.length >= 8, {
    message: 'must be at least 8 characters',
  }),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  API_LOG: apiLogSwitch,
  TRUST_PROXY: trustProxyList,
  API_DOCS: z
    .string()
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(['on', 'off'], { message: 'must be on or off' }))
    .default('off'),
  /** MQTT (docs/mqtt.md): unset `MQTT_URL` runs the embedded broker on `MQTT_HOST:MQTT_PORT`. */
  MQTT_URL: urlWithScheme(['mqtt:', 'mqtts:', 'tcp:', 'ssl:', 'ws:', 'wss:'], 'mqtt://user:secret@127.0.0.1:1883'),
  MQTT_PORT: z
    .string()
    .default('1883')
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 65535, {
      message: 'must be a whole number from 0 (any free port) to 65535',
    })
    .transform(Number),
  MQTT_HOST: z.string().default('0.0.0.0'),
  /** How far ahead of the server's clock a device's point may be (docs/mqtt.md "Times"). */
  MQTT_MAX_CLOCK_SKEW_SECONDS: z
    .string()
    .default('300')
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 86_400, {
      message: 'must be a whole number of seconds from 0 to 86400',
    })
    .transform(Number),
  /** The largest MQTT packet a device (embedded) or the broker (external) may send us. */
  MQTT_MAX_PACKET_BYTES: z
    .string()
    .default(String(256 * 1024))
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1024 && Number(v) <= 268_435_455, {
      message: "must be a whole number of bytes from 1024 to 268435455 (MQTT's own limit)",
    })
    .transform(Number),
  /**
   * `/metrics` (docs/operations.md): served only to `Authorization: Bearer <METRICS_TOKEN>`; unset,
   * `/metrics` is 404. No default: a token in the code would be everyone's.
   */
  METRICS_TOKEN: optionalText.refine((v) => v === undefined || v.length >= 16, {
    message: 'must be at least 16 characters (or leave it unset: /metrics is then not served)',
  }),
  LIVE_STREAMS_PER_USER: fairShareLimit(DEFAULT_FAIR_SHARES.liveStreamsPerUser),
  EXPORTS_PER_TENANT: fairShareLimit(DEFAULT_FAIR_SHARES.exportsPerTenant),
  REPORTS_PER_TENANT: fairShareLimit(DEFAULT_FAIR_SHARES.reportsPerTenant),
  FAIR_SHARE_SLOT_SECONDS: z
    .string()
    .default(String(DEFAULT_FAIR_SHARES.slotSeconds))
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 3 && Number(v) <= 3600, {
      message: 'must be a whole number of seconds from 3 to 3600',
    })
    .transform(Number),
  /** `true`: the first start of a fresh install fills the demo tenant (docs/demo.md). */
  SEED_DEMO: z
    .string()
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(['true', 'false'], { message: 'must be true or false' }))
    .default('false'),
});

/** Where device telemetry arrives (docs/mqtt.md). */
export interface MqttConfig {
  /** `MQTT_URL`: an external broker to subscribe to; unset runs the embedded one. */
  url: string | undefined;
  /** `MQTT_PORT` of the embedded broker (default 1883; 0 = any free port). */
  port: number;
  /** `MQTT_HOST` the embedded broker listens on (default 0.0.0.0). */
  host: string;
  /**
   * `MQTT_MAX_CLOCK_SKEW_SECONDS` (default 300): a point further ahead of the server's clock is
   * refused by ingestion. Absent: the default.
   */
  maxClockSkewSeconds?: number;
  /** `MQTT_MAX_PACKET_BYTES` (default 256 KB): a bigger packet closes its connection. */
  maxPacketBytes?: number;
}

/**
 * The MQTT settings, read apart from {@link loadConfig} (which has already stopped a start with a
 * bad value): the embedded broker's port and host, or the external broker's URL, and the clock
 * skew ingestion allows.
 */
export function mqttConfig(env: NodeJS.ProcessEnv = process.env): MqttConfig {
  const c = ConfigSchema.pick({
    MQTT_URL: true,
    MQTT_PORT: true,
    MQTT_HOST: true,
    MQTT_MAX_CLOCK_SKEW_SECONDS: true,
    MQTT_MAX_PACKET_BYTES: true,
  }).parse(env);
  return {
    url: c.MQTT_URL,
    port: c.MQTT_PORT,
    host: c.MQTT_HOST,
    maxClockSkewSeconds: c.MQTT_MAX_CLOCK_SKEW_SECONDS,
    maxPacketBytes: c.MQTT_MAX_PACKET_BYTES,
  };
}

export interface AppConfig {
  port: number;
  host: string;
  /** Absolute path of the data directory (secrets, embedded database, uploads). */
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  jwtSecret: string | undefined;
  adminPassword: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** `API_LOG`: record every API request (default on). */
  apiLog: boolean;
  /** `TRUST_PROXY`: proxies whose `X-Forwarded-For` gives the client address. */
  trustProxy: string[];
  /** `API_DOCS=on`: the OpenAPI description without signing in. */
  apiDocs: boolean;
  /** `SEED_DEMO=true`: the start that creates a fresh install also fills the demo tenant. */
  seedDemo: boolean;
  /** `METRICS_TOKEN`: the bearer token `/metrics` asks for; undefined, `/metrics` is 404. */
  metricsToken: string | undefined;
  fairShares: FairShareLimits;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    jwtSecret: c.JWT_SECRET,
    adminPassword: c.ADMIN_PASSWORD,
    logLevel: c.LOG_LEVEL,
    apiLog: c.API_LOG === 'on',
    trustProxy: c.TRUST_PROXY,
    apiDocs: c.API_DOCS === 'on',
    seedDemo: c.SEED_DEMO === 'true',
    metricsToken: c.METRICS_TOKEN,
    fairShares: {
      liveStreamsPerUser: c.LIVE_STREAMS_PER_USER,
      exportsPerTenant: c.EXPORTS_PER_TENANT,
      reportsPerTenant: c.REPORTS_PER_TENANT,
      slotSeconds: c.FAIR_SHARE_SLOT_SECONDS,
    },
  };
}
