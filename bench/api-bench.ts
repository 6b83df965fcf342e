/**
 * `npm run bench:api`: requests/s and p99 latency, in the same run on this machine, of
 * - a bare Fastify JSON route (the baseline),
 * - an authenticated `GET /api/blade-user/info` (token check, revocation lookup, one query),
 * - `GET /api/blade-user/page?size=10` with 100,000 users in one tenant (API-scope check, data
 *   scope, page query, exact total, names of roles/departments/posts),
 * and each one's ratio to the baseline; then the signed-in route on a second server process with
 * the API log off (`API_LOG=off`, same database), measured in turns with the first (log on), and
 * the ratio on / off (the API log must keep at least 90 %). The servers run on an embedded
 * PostgreSQL the bench starts itself, so it can load the 100,000 users with one SQL statement.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/server/src/platform/db/embedded-postgres';
import { CONNECTIONS, freePort, measure, md5, startProcess, stop, waitFor, type Measured } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-bench-'));
fs.chmodSync(dataDir, 0o755);
const password = 'Bench#Password1';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
fs.mkdirSync(path.join(dataDir, 'pg'), { mode: 0o755 });
const embedded = await startEmbeddedPostgres(path.join(dataDir, 'pg'), quiet);
const databaseUrl = await embedded.ensureDatabase('mes');

const barePort = await freePort();
const appPort = await freePort();
const offPort = await freePort();
const bare = startProcess(['--import', 'tsx', path.join(root, 'bench/bare-fastify.ts')], { PORT: String(barePort) });
const server = startProcess([path.join(root, 'apps/server/dist/main.js')], {
  PORT: String(appPort),
  DATA_DIR: path.join(dataDir, 'data'),
  DATABASE_URL: databaseUrl,
  ADMIN_PASSWORD: password,
  LOG_LEVEL: 'warn',
});
// The same server with the API log off, for the on / off ratio (its own data directory: one
// process per directory).
const serverOff = startProcess([path.join(root, 'apps/server/dist/main.js')], {
  PORT: String(offPort),
  DATA_DIR: path.join(dataDir, 'data-off'),
  DATABASE_URL: databaseUrl,
  ADMIN_PASSWORD: password,
  LOG_LEVEL: 'warn',
  API_LOG: 'off',
});
/** Minimum share of the log-off request rate the API log must keep. */
const MIN_LOG_RATIO = 0.9;

/** 100,000 users of the platform tenant, spread over the seeded departments, roles and posts. */
async function loadUsers(): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into blade_user (id, tenant_id, account, password, name, real_name, role_id, dept_id, post_id, user_type)
       select 2000000000000000000 + n, '000000', 'bench' || n, 'x', 'Bench ' || n, '压测' || (n % 1000),
              case when n % 2 = 0 then '1000000000000000202' else '1000000000000000203' end,
              case when n % 3 = 0 then '1000000000000000302' else '1000000000000000303' end,
              '1000000000000000401', 1
       from generate_series(1, $1::int) as n`,
      [USERS],
    );
    await client.query('analyze blade_user');
  } finally {
    await client.end();
  }
}

const basic = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

/** Signs the admin in at one server (each has its own token secret) and returns its headers. */
async function signIn(port: number): Promise<Record<string, string>> {
  const res = await fetch(`http://127.0.0.1:${port}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      tenantId: '000000',
      username: 'admin',
      password: md5(password),
      grant_type: 'password',
    }),
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  return { 'blade-auth': `bearer ${token}`, authorization: basic };
}

try {
  await waitFor(`http://127.0.0.1:${barePort}/json`);
  await waitFor(`http://127.0.0.1:${appPort}/api/health`);
  await waitFor(`http://127.0.0.1:${offPort}/api/health`);
  await loadUsers();
  const authed = await signIn(appPort);
  const authedOff = await signIn(offPort);

  // Warm both up (JIT, connection pool), then measure each alone.
  await measure('warm-up', `http://127.0.0.1:${barePort}/json`, {}, 2);
  await measure('warm-up', `http://127.0.0.1:${appPort}/api/blade-user/info`, authed, 2);
  const pageUrl = `http://127.0.0.1:${appPort}/api/blade-user/page?current=1&size=10`;
  await measure('warm-up', pageUrl, authed, 2);
  const results: Measured[] = [
    await measure('bare Fastify GET /json', `http://127.0.0.1:${barePort}/json`, {}, seconds),
    await measure(
      'GET /api/blade-user/info (signed in)',
      `http://127.0.0.1:${appPort}/api/blade-user/info`,
      authed,
      seconds,
    ),
    await measure(`GET /api/blade-user/page?size=10 (${USERS.toLocaleString('en')} users)`, pageUrl, authed, seconds),
  ];
  const [baseline, app, page] = results as [Measured, Measured, Measured];
  console.log(
    `\nAPI benchmark: ${CONNECTIONS} connections, ${seconds} s each, ${os.cpus().length} cores, Node ${process.version}\n`,
  );
  console.table(
    results.map((r) => ({
      route: r.name,
      'requests/s': Math.round(r.requestsPerSecond),
      'p99 ms': r.p99Ms,
      errors: r.errors,
      'non-2xx': r.non2xx,
    })),
  );
  console.log(
    `ratio (signed-in route / bare Fastify): ${(app.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)}`,
  );
  console.log(
    `ratio (user page of ${USERS.toLocaleString('en')} / bare Fastify): ${(page.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)}`,
  );

  // API log on / off: the same route on both servers, in turns (off, on, off, on), each alone.
  const infoOn = `http://127.0.0.1:${appPort}/api/blade-user/info`;
  const infoOff = `http://127.0.0.1:${offPort}/api/blade-user/info`;
  await measure('warm-up', infoOff, authedOff, 2);
  const turns: Measured[] = [];
  for (let round = 1; round <= 2; round++) {
    turns.push(await measure(`GET /api/blade-user/info, API log off (${round})`, infoOff, authedOff, seconds));
    turns.push(await measure(`GET /api/blade-user/info, API log on (${round})`, infoOn, authed, seconds));
  }
  const rate = (on: boolean) =>
    turns.filter((r) => r.name.includes(on ? 'log on' : 'log off')).reduce((sum, r) => sum + r.requestsPerSecond, 0) /
    2;
  console.log('\nAPI log on / off (same route, same database, in turns):');
  console.table(
    turns.map((r) => ({
      route: r.name,
      'requests/s': Math.round(r.requestsPerSecond),
      'p99 ms': r.p99Ms,
      errors: r.errors,
    })),
  );
  const logRatio = rate(true) / rate(false);
  console.log(
    `ratio (API log on / off): ${logRatio.toFixed(3)} (${Math.round(rate(true))} / ${Math.round(rate(false))} requests/s; ` +
      `required ≥ ${MIN_LOG_RATIO}): ${logRatio >= MIN_LOG_RATIO ? 'PASS' : 'FAIL'}`,
  );
  if (logRatio < MIN_LOG_RATIO) process.exitCode = 1;

  if (app.non2xx || app.errors || page.non2xx || page.errors || turns.some((r) => r.non2xx || r.errors)) {
    console.error('a signed-in route answered errors: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  await Promise.all([stop(bare), stop(server), stop(serverOff)]);
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
