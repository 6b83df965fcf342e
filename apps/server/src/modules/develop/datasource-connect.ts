import net from 'node:net';
import pg from 'pg';
import type { BilingualText } from '@mes/contracts';
import { OutboundError, resolveOutbound } from '../../platform/net/outbound-guard';
import type { OutboundPolicy } from '../../platform/net/outbound-policy';
import { ALLOWED_PORTS_PARAM, portAllowed, type PasswordDestination, type PortRanges } from './datasource-rules';

/** How long a connection test may take, connecting and querying together. */
export const TEST_TIMEOUT_MS = 4000;

export const DatasourceMessages = {
  onlyPostgres: {
    zh: '只支持 PostgreSQL 连接地址 (postgres://、postgresql:// 或 jdbc:postgresql://)',
    en: 'Only PostgreSQL connection URLs are supported (postgres://, postgresql:// or jdbc:postgresql://)',
  },
  badUrl: { zh: '连接地址格式不正确', en: 'The connection URL is malformed' },
  connected: { zh: '连接成功', en: 'Connected' },
  cannotConnect: {
    zh: '连接失败: 无法连接到数据库,请检查地址、端口、用户名和密码',
    en: 'Connection failed: the database cannot be reached, check the address, port, user name and password',
  },
  missingUrl: { zh: '请输入连接地址', en: 'Please enter the connection URL' },
  inUse: { zh: '数据源已被租户使用,请先解除绑定', en: 'A tenant uses the datasource: unbind it first' },
  undecryptable: {
    zh: '数据源密码无法解密,请重新填写密码',
    en: 'The datasource password cannot be decrypted: enter the password again',
  },
  passwordForNewTarget: {
    zh: '连接的主机、端口或用户已改变,请重新输入密码',
    en: 'The host, port or user of the connection changed: enter the password again',
  },
  portNotAllowed: (port: number, allowed: string) => ({
    zh: `端口 ${port} 不在平台允许的范围 ${allowed} 内;如需使用,请平台管理员修改参数 ${ALLOWED_PORTS_PARAM}`,
    en: `The port ${port} is outside the allowed range ${allowed}; to use it, the platform administrator can change the parameter ${ALLOWED_PORTS_PARAM}`,
  }),
} as const;

export interface ConnectionTarget {
  url: string;
  username: string;
  password: string;
}

type ParseResult =
  { config: pg.ClientConfig & { host: string; port: number; user?: string } } | { error: BilingualText };

/**
 * Turns a datasource URL into client settings. Only PostgreSQL: the JDBC form
 * `jdbc:postgresql://host:port/db?...` is the same URL behind a prefix. The user and password
 * of the datasource win over any in the URL; `user`/`password` query parameters are dropped so
 * they never override them.
 */
export function connectionConfig(target: ConnectionTarget): ParseResult {
  const raw = target.url.trim();
  if (!raw) return { error: DatasourceMessages.missingUrl };
  const text = raw.toLowerCase().startsWith('jdbc:') ? raw.slice(5) : raw;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme !== 'postgres' && scheme !== 'postgresql') return { error: DatasourceMessages.onlyPostgres };
  let url: URL;
  let database: string | undefined;
  let password: string;
  let user: string | undefined;
  try {
    url = new URL(text);
    database = decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined;
    password = target.password || decodeURIComponent(url.password);
    user = target.username || decodeURIComponent(url.username) || undefined;
  } catch {
    return { error: DatasourceMessages.badUrl };
  }
  if (!url.hostname) return { error: DatasourceMessages.badUrl };
  const port = url.port ? Number(url.port) : 5432;
  const params = url.searchParams;
  const sslmode = params.get('sslmode') ?? (params.get('ssl') === 'true' ? 'require' : undefined);
  return {
    config: {
      host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(),
      port,
      database,
      user,
      // A function, so that pg never falls back to PGPASSWORD or ~/.pgpass of this server and
      // sends them to whatever host the URL names.
      password: () => password,
      ssl: sslmode && sslmode !== 'disable' ? { rejectUnauthorized: sslmode === 'verify-full' } : undefined,
      connectionTimeoutMillis: TEST_TIMEOUT_MS,
      statement_timeout: TEST_TIMEOUT_MS,
      query_timeout: TEST_TIMEOUT_MS,
      application_name: 'mes-console-datasource-test',
    },
  };
}

/** Where the password of `target` would be sent, or the message why the URL is unusable. */
export function destinationOf(target: ConnectionTarget): PasswordDestination | { error: BilingualText } {
  const parsed = connectionConfig(target);
  if ('error' in parsed) return parsed;
  const { host, port, user } = parsed.config;
  return { host, port, user: user ?? '' };
}

/** The checks a URL must pass before any password goes out: an allowed port and address. */
export async function checkDestination(
  target: ConnectionTarget,
  rules: { policy: OutboundPolicy; ports: { ranges: PortRanges; text: string } },
): Promise<{ error: BilingualText } | { config: pg.ClientConfig; address: string }> {
  const parsed = connectionConfig(target);
  if ('error' in parsed) return parsed;
  const { config } = parsed;
  if (!portAllowed(rules.ports.ranges, config.port))
    return { error: DatasourceMessages.portNotAllowed(config.port, rules.ports.text) };
  try {
    const [first] = await resolveOutbound(rules.policy, config.host);
    if (!first) return { error: DatasourceMessages.cannotConnect };
    return { config, address: first.address };
  } catch (e) {
    if (e instanceof OutboundError && e.kind === 'refused') return { error: e.text };
    return { error: DatasourceMessages.cannotConnect };
  }
}

const sleepUntil = (deadline: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));

/**
 * Connects with `pg` to the address that was checked, runs `select 1` and disconnects, within
 * TEST_TIMEOUT_MS. Returns undefined on success, else the message to show. Every failure
 * (refused, silent, not PostgreSQL, wrong password) gives the same message at the same moment,
 * TEST_TIMEOUT_MS after the start, so the test cannot be used to tell open from closed ports;
 * the driver's own text, which may carry the password in some form, is never shown.
 */
export async function testConnection(
  checked: { config: pg.ClientConfig; address: string },
  log?: { info(obj: object, msg: string): void },
): Promise<BilingualText | undefined> {
  const started = Date.now();
  const { config, address } = checked;
  const host = String(config.host);
  const ssl =
    config.ssl && typeof config.ssl === 'object' && !net.isIP(host) ? { ...config.ssl, servername: host } : config.ssl;
  // The checked address, not the name: a second resolution could answer with another address.
  const client = new pg.Client({ ...config, host: address, ssl });
  // A connection that fails later must not become an unhandled 'error' event.
  client.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), TEST_TIMEOUT_MS);
  });
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        await client.query('select 1');
      })(),
      deadline,
    ]);
    return undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    log?.info({ code: typeof code === 'string' ? code : 'unknown', host }, 'datasource test failed');
    await sleepUntil(started + TEST_TIMEOUT_MS);
    return DatasourceMessages.cannotConnect;
  } finally {
    clearTimeout(timer);
    client.end().catch(() => {});
  }
}

/**
 * Runs `work` on a connection to the address that was checked (as `testConnection` connects),
 * within the test's timeouts, and disconnects. Undefined when the connection fails, so that the
 * caller answers with the one "cannot connect" message and never the driver's own text.
 */
export async function withConnection<T>(
  checked: { config: pg.ClientConfig; address: string },
  work: (client: pg.Client) => Promise<T>,
): Promise<{ value: T } | undefined> {
  const { config, address } = checked;
  const host = String(config.host);
  const ssl =
    config.ssl && typeof config.ssl === 'object' && !net.isIP(host) ? { ...config.ssl, servername: host } : config.ssl;
  const client = new pg.Client({ ...config, host: address, ssl, application_name: 'mes-console-code-generator' });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch {
    return undefined;
  }
  try {
    return { value: await work(client) };
  } finally {
    client.end().catch(() => {});
  }
}
