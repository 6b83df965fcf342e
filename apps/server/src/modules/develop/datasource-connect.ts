import pg from 'pg';

/** How long a connection test may take, connecting and querying together. */
export const TEST_TIMEOUT_MS = 5000;

export const DatasourceMessages = {
  onlyPostgres: '只支持 PostgreSQL 连接地址 (postgres://、postgresql:// 或 jdbc:postgresql://)',
  badUrl: '连接地址格式不正确',
  connected: '连接成功',
  failed: (why: string) => `连接失败: ${why}`,
  timeout: '连接超时',
  missingUrl: '请输入连接地址',
  inUse: '数据源已被租户使用,请先解除绑定',
  undecryptable: '数据源密码无法解密,请重新填写密码',
} as const;

export interface ConnectionTarget {
  url: string;
  username: string;
  password: string;
}

type ParseResult = { config: pg.ClientConfig } | { error: string };

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
  try {
    url = new URL(text);
  } catch {
    return { error: DatasourceMessages.badUrl };
  }
  if (!url.hostname) return { error: DatasourceMessages.badUrl };
  const port = url.port ? Number(url.port) : 5432;
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined;
  const params = url.searchParams;
  const password = target.password || decodeURIComponent(url.password);
  const sslmode = params.get('sslmode') ?? (params.get('ssl') === 'true' ? 'require' : undefined);
  return {
    config: {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      database,
      user: target.username || decodeURIComponent(url.username) || undefined,
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

/** A driver message fit to show: one line, no stack, and never the password. */
function cleanMessage(error: unknown, password: string): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() || 'unknown error';
  return password ? message.split(password).join('***') : message;
}

/**
 * Connects with `pg`, runs `select 1` and disconnects, all within TEST_TIMEOUT_MS. Returns
 * undefined on success, else the message to show.
 */
export async function testConnection(target: ConnectionTarget): Promise<string | undefined> {
  const parsed = connectionConfig(target);
  if ('error' in parsed) return parsed.error;
  const client = new pg.Client(parsed.config);
  // A connection that fails later must not become an unhandled 'error' event.
  client.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(DatasourceMessages.timeout)), TEST_TIMEOUT_MS + 500);
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
    return DatasourceMessages.failed(cleanMessage(error, target.password));
  } finally {
    clearTimeout(timer);
    client.end().catch(() => {});
  }
}
