/**
 * `npm run bench:api`: requests/s and p99 latency, in the same run on this machine, of
 * - a bare Fastify JSON route (the first baseline),
 * - the minimal pipeline (the second baseline, `minimal-pipeline.ts`): Fastify, a token checked
 *   with jose, one prepared pg query for a page of the same 100,000 users, plain JSON,
 * - an authenticated `GET /api/blade-user/info` (token check, revocation lookup, one query),
 * - `GET /api/blade-user/page?size=10` with 100,000 users in one tenant (API-scope check, data
 *   scope, page query, exact total, names of roles/departments/posts),
 * with the ratios to both baselines. The page and the minimal pipeline are measured in turns
 * (minimal, page, minimal, page, ...), so load from elsewhere on the machine falls on both alike;
 * the page is to keep at least half the minimal pipeline's rate with a p99 of at most 50 ms. Then
 * the signed-in route on a second server process with the API log off (`API_LOG=off`, same
 * database), in turns with the first (log on), and the ratio on / off (the API log must keep at
 * least 90 %). The servers run on an embedded PostgreSQL the bench starts itself, so it can load
 * the 100,000 users with one SQL statement.
 *
 * Besides requests/s, each measurement reports the CPU time per answered request of the server
 * process and of PostgreSQL (Linux /proc): on a machine shared with other work the request rates
 * swing with the load, while CPU per request barely moves, so the CPU ratios say what the rates
 * would on an idle machine (where the server, PostgreSQL and the load generator share the cores).
 *
 * Every measured process runs `server-probe.ts`, which reports per measurement its event-loop
 * delay and garbage-collection pauses (a p99 beside the pauses that could explain it), and the
 * load generator's own CPU per request is printed too: it shares the cores with the rest.
 *
 * `BENCH_SECONDS` (10) per measurement, `BENCH_ROUNDS` (3) turns per comparison,
 * `BENCH_SERVER=<main.js>` runs another build of the server, `BENCH_PROFILE=<dir>` writes CPU
 * profiles of the last turn of each route (exactly those 10 s) there,
 * `BENCH_NODE_FLAGS` adds Node flags to both server processes (`--max-semi-space-size=32`),
 * `BENCH_PARTS=page` or `=log` runs only one of the two comparisons.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { SignJWT } from 'jose';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/server/src/platform/db/embedded-postgres';
import {
  CONNECTIONS,
  freePort,
  measure,
  loadAverage,
  md5,
  postgresCpuMs,
  processCpuMs,
  startProcess,
  stop,
  waitFor,
  type CpuSamplers,
  type Measured,
} from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-bench-'));
fs.chmodSync(dataDir, 0o755);
const password = 'Bench#Password1';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const pgRoot = path.join(dataDir, 'pg');
fs.mkdirSync(pgRoot, { mode: 0o755 });
const embedded = await startEmbeddedPostgres(pgRoot, quiet);
const databaseUrl = await embedded.ensureDatabase('mes');
// Where the cluster lives (in the folder, or where `pg-location` says), for its CPU time.
const locationFile = path.join(pgRoot, 'pg-location');
const clusterDir = fs.existsSync(locationFile) ? fs.readFileSync(locationFile, 'utf8').trim() : path.join(pgRoot, 'pg');
const databaseCpu = () => postgresCpuMs(clusterDir);

const serverMain = path.resolve(process.env.BENCH_SERVER ?? path.join(root, 'apps/server/dist/main.js'));
const profileDir = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : undefined;
if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
const minimalSecret = randomBytes(32).toString('base64url');

// The probe, bundled to plain JS so that the measured processes load no TypeScript loader for it.
const probeFile = path.join(dataDir, 'server-probe.mjs');
buildSync({
  entryPoints: [path.join(root, 'bench/server-probe.ts')],
  outfile: probeFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
});
const probeArgs = ['--import', probeFile];
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
/** Which comparisons to run: `page` (baselines, info, page against the minimal pipeline), `log`. */
const parts = (process.env.BENCH_PARTS ?? 'page,log').split(',');
const probePorts = { server: await freePort(), serverOff: await freePort(), minimal: await freePort() };

const barePort = await freePort();
const minimalPort = await freePort();
const appPort = await freePort();
const offPort = await freePort();
const bare = startProcess(['--import', 'tsx', path.join(root, 'bench/bare-fastify.ts')], { PORT: String(barePort) });
// Started once the server has created the tables (it reads the columns of blade_user).
let minimal: ReturnType<typeof startProcess> | undefined;
const server = startProcess([...nodeFlags, ...probeArgs, serverMain], {
  PORT: String(appPort),
  PROBE_PORT: String(probePorts.server),
  DATA_DIR: path.join(dataDir, 'data'),
  DATABASE_URL: databaseUrl,
  ADMIN_PASSWORD: password,
  LOG_LEVEL: 'warn',
});
// The same server with the API log off, for the on / off ratio (its own data directory: one
// process per directory).
const serverOff = startProcess([...nodeFlags, ...probeArgs, serverMain], {
  PORT: String(offPort),
  PROBE_PORT: String(probePorts.serverOff),
  DATA_DIR: path.join(dataDir, 'data-off'),
  DATABASE_URL: databaseUrl,
  ADMIN_PASSWORD: password,
  LOG_LEVEL: 'warn',
  API_LOG: 'off',
});
/** Minimum share of the log-off request rate the API log must keep. */
const MIN_LOG_RATIO = 0.9;
/** The generic page's targets: a share of the minimal pipeline's rate, and its p99. */
const PAGE_TARGET_RATIO = 0.5;
const PAGE_TARGET_P99_MS = 50;

/** CPU samplers of one server process (and its probe) and the database. */
const cpuOf = (
  child: ReturnType<typeof startProcess> | undefined,
  probePort: number,
  profileFile?: string,
): CpuSamplers => ({
  server: () => processCpuMs(child?.pid),
  database: databaseCpu,
  probePort,
  profileFile,
});

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

/** A token of the platform administrator for the minimal pipeline (signed with its secret). */
async function minimalToken(): Promise<Record<string, string>> {
  const token = await new SignJWT({ tenant_id: '000000', account: 'admin' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(Buffer.from(minimalSecret, 'utf8'));
  return { 'blade-auth': `bearer ${token}` };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

interface Summary {
  /** Mean requests/s over the turns. */
  rate: number;
  /** Median p50 and p99 over the turns. */
  p50: number;
  p99: number;
  /** Mean of the turns' p99 / mean latency: the shape of the tail, whatever the rate. */
  tail: number;
  /** Mean load-generator CPU ms per request. */
  clientCpu: number;
  /** Mean CPU ms per request: server process, database, both. */
  serverCpu: number | undefined;
  databaseCpu: number | undefined;
  cpu: number | undefined;
}

/** The turns whose name contains `label`, summed up. */
function summary(turns: Measured[], label: string): Summary {
  const mine = turns.filter((r) => r.name.includes(label));
  const mean = (values: (number | undefined)[]) =>
    values.some((v) => v === undefined)
      ? undefined
      : (values as number[]).reduce((sum, v) => sum + v, 0) / Math.max(values.length, 1);
  const serverCpu = mean(mine.map((r) => r.cpuMsPerRequest?.server));
  const databaseCpu = mean(mine.map((r) => r.cpuMsPerRequest?.database));
  return {
    rate: mean(mine.map((r) => r.requestsPerSecond)) ?? 0,
    p50: median(mine.map((r) => r.p50Ms)),
    p99: median(mine.map((r) => r.p99Ms)),
    tail: mean(mine.map((r) => r.p99Ms / Math.max(r.meanMs, 0.001))) ?? 0,
    clientCpu: mean(mine.map((r) => r.clientCpuMsPerRequest)) ?? 0,
    serverCpu,
    databaseCpu,
    cpu: serverCpu === undefined || databaseCpu === undefined ? undefined : serverCpu + databaseCpu,
  };
}

const ms = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(3));
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? 'n/a' : (a / b).toFixed(3);

function table(results: Measured[], columns: (r: Measured) => Record<string, string | number>): void {
  console.table(
    results.map((r) => ({
      route: r.name,
      'req/s': Math.round(r.requestsPerSecond),
      'p50 ms': r.p50Ms,
      'p99 ms': r.p99Ms,
      'p99/mean': (r.p99Ms / Math.max(r.meanMs, 0.001)).toFixed(2),
      ...columns(r),
      'server CPU ms/req': ms(r.cpuMsPerRequest?.server),
      'db CPU ms/req': ms(r.cpuMsPerRequest?.database),
      'client CPU ms/req': ms(r.clientCpuMsPerRequest),
      'loop delay p99 ms': r.probe?.eventLoopDelayMs.p99 ?? 'n/a',
      'GC ms/s': r.probe ? (r.probe.gc.totalMs / seconds).toFixed(1) : 'n/a',
      'GC max ms': r.probe ? r.probe.gc.maxMs.toFixed(1) : 'n/a',
      'major GCs': r.probe ? (r.probe.gc.byKind.major?.count ?? 0) : 'n/a',
      errors: r.errors,
      'non-2xx': r.non2xx,
    })),
  );
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
  minimal = startProcess([...probeArgs, '--import', 'tsx', path.join(root, 'bench/minimal-pipeline.ts')], {
    PORT: String(minimalPort),
    PROBE_PORT: String(probePorts.minimal),
    DATABASE_URL: databaseUrl,
    TOKEN_SECRET: minimalSecret,
  });
  const authed = await signIn(appPort);
  const authedOff = await signIn(offPort);
  const minimalAuthed = await minimalToken();
  const minimalUrl = `http://127.0.0.1:${minimalPort}/page?current=1&size=10`;
  await waitFor(minimalUrl, 120_000, minimalAuthed);
  const loadBefore = loadAverage();

  // Warm each up (JIT, connection pool), then measure each alone.
  const infoUrl = `http://127.0.0.1:${appPort}/api/blade-user/info`;
  const pageUrl = `http://127.0.0.1:${appPort}/api/blade-user/page?current=1&size=10`;
  await measure('warm-up', `http://127.0.0.1:${barePort}/json`, {}, 2);
  await measure('warm-up', minimalUrl, minimalAuthed, 2);
  await measure('warm-up', infoUrl, authed, 2);
  await measure('warm-up', pageUrl, authed, 2);
  const users = USERS.toLocaleString('en');
  const checked: Measured[] = [];
  if (parts.includes('page')) {
    const bareResult = await measure('bare Fastify GET /json', `http://127.0.0.1:${barePort}/json`, {}, seconds, {
      server: () => processCpuMs(bare.pid),
    });
    const info = await measure(
      'GET /api/blade-user/info (signed in)',
      infoUrl,
      authed,
      seconds,
      cpuOf(server, probePorts.server),
    );
    // The page and the minimal pipeline in turns, so that load from elsewhere falls on both alike.
    const pageTurns: Measured[] = [];
    for (let round = 1; round <= rounds; round++) {
      const minimalName = `minimal pipeline GET /page?size=10 (${users} users) (${round})`;
      const profile = (what: string) =>
        profileDir && round === rounds ? path.join(profileDir, `${what}.cpuprofile`) : undefined;
      pageTurns.push(
        await measure(
          minimalName,
          minimalUrl,
          minimalAuthed,
          seconds,
          cpuOf(minimal, probePorts.minimal, profile('minimal')),
        ),
      );
      const pageName = `GET /api/blade-user/page?size=10 (${users} users) (${round})`;
      pageTurns.push(
        await measure(pageName, pageUrl, authed, seconds, cpuOf(server, probePorts.server, profile('page'))),
      );
    }
    const minimalRun = summary(pageTurns, 'minimal pipeline');
    const pageRun = summary(pageTurns, '/api/blade-user/page');
    console.log(
      `\nAPI benchmark: ${CONNECTIONS} connections, ${seconds} s each, ${rounds} turns per comparison, ` +
        `${os.cpus().length} cores, Node ${process.version}${nodeFlags.length ? ` (server: ${nodeFlags.join(' ')})` : ''}; load average before ${loadBefore}, after the pages ${loadAverage()}\n`,
    );
    table([bareResult, info, ...pageTurns], (r) => ({
      '/ bare': ratio(r.requestsPerSecond, bareResult.requestsPerSecond),
      '/ minimal': ratio(r.requestsPerSecond, minimalRun.rate),
    }));
    console.log(
      `ratio (signed-in route / bare Fastify): ${ratio(info.requestsPerSecond, bareResult.requestsPerSecond)}`,
    );
    console.log(`ratio (minimal pipeline / bare Fastify): ${ratio(minimalRun.rate, bareResult.requestsPerSecond)}`);
    console.log(`ratio (user page of ${users} / bare Fastify): ${ratio(pageRun.rate, bareResult.requestsPerSecond)}`);
    const pageRatio = pageRun.rate / minimalRun.rate;
    const pageMet = pageRatio >= PAGE_TARGET_RATIO && pageRun.p99 <= PAGE_TARGET_P99_MS;
    console.log(
      `ratio (user page / minimal pipeline, requests/s in turns): ${pageRatio.toFixed(3)} ` +
        `(${Math.round(pageRun.rate)} / ${Math.round(minimalRun.rate)}; target ≥ ${PAGE_TARGET_RATIO}); ` +
        `median p99 page ${pageRun.p99} ms (target ≤ ${PAGE_TARGET_P99_MS}), minimal ${minimalRun.p99} ms: ` +
        `${pageMet ? 'MET' : 'NOT MET'}`,
    );
    // With a fixed number of connections each waiting for its answer, mean latency is
    // connections / rate (Little's law): a slower route has a longer latency at every percentile
    // without any pause of its own. The tail's shape (p99 / mean) tells the two apart, and the p99
    // the page would have at the minimal pipeline's rate with its own tail is the like-for-like bar.
    const pageP99AtMinimalRate = ((CONNECTIONS / minimalRun.rate) * 1000 * pageRun.tail).toFixed(1);
    console.log(
      `latency, page / minimal: p50 ${pageRun.p50} / ${minimalRun.p50} ms, p99 ${pageRun.p99} / ${minimalRun.p99} ms ` +
        `(page p99 / minimal p99, the like-for-like bar: ${ratio(pageRun.p99, minimalRun.p99)}), ` +
        `p99 / mean ${pageRun.tail.toFixed(2)} / ${minimalRun.tail.toFixed(2)}; ` +
        `page p99 at the minimal pipeline's rate (its tail shape, ${CONNECTIONS} / rate as the mean): ${pageP99AtMinimalRate} ms; ` +
        `load generator CPU ${ms(pageRun.clientCpu)} / ${ms(minimalRun.clientCpu)} ms per request`,
    );
    console.log(
      `CPU per request, page / minimal: server ${ms(pageRun.serverCpu)} / ${ms(minimalRun.serverCpu)} ms, ` +
        `database ${ms(pageRun.databaseCpu)} / ${ms(minimalRun.databaseCpu)} ms; ` +
        `ratio (minimal / page CPU, server + database): ${ratio(minimalRun.cpu, pageRun.cpu)}, ` +
        `server alone: ${ratio(minimalRun.serverCpu, pageRun.serverCpu)}`,
    );
    checked.push(info, ...pageTurns);
  }

  if (parts.includes('log')) {
    // API log on / off: the same route on both servers, in turns (off, on, off, on, ...), each alone.
    const infoOff = `http://127.0.0.1:${offPort}/api/blade-user/info`;
    await measure('warm-up', infoOff, authedOff, 2);
    const turns: Measured[] = [];
    for (let round = 1; round <= rounds; round++) {
      const off = `GET /api/blade-user/info, API log off (${round})`;
      const profile = (what: string) =>
        profileDir && round === rounds ? path.join(profileDir, `${what}.cpuprofile`) : undefined;
      turns.push(
        await measure(off, infoOff, authedOff, seconds, cpuOf(serverOff, probePorts.serverOff, profile('log-off'))),
      );
      const onName = `GET /api/blade-user/info, API log on (${round})`;
      turns.push(await measure(onName, infoUrl, authed, seconds, cpuOf(server, probePorts.server, profile('log-on'))));
    }
    const on = summary(turns, 'log on');
    const offRun = summary(turns, 'log off');
    console.log(`\nAPI log on / off (same route, same database, in turns; load average now ${loadAverage()}):`);
    table(turns, () => ({}));
    const logRatio = on.rate / offRun.rate;
    console.log(
      `ratio (API log on / off): ${logRatio.toFixed(3)} (${Math.round(on.rate)} / ${Math.round(offRun.rate)} requests/s; ` +
        `required ≥ ${MIN_LOG_RATIO}): ${logRatio >= MIN_LOG_RATIO ? 'PASS' : 'FAIL'}`,
    );
    console.log(
      `CPU per request, log on / off: server ${ms(on.serverCpu)} / ${ms(offRun.serverCpu)} ms, ` +
        `database ${ms(on.databaseCpu)} / ${ms(offRun.databaseCpu)} ms; ` +
        `ratio (off / on CPU, server + database): ${ratio(offRun.cpu, on.cpu)}`,
    );
    if (logRatio < MIN_LOG_RATIO) process.exitCode = 1;
    checked.push(...turns);
  }

  if (checked.some((r) => r.non2xx || r.errors)) {
    console.error('a signed-in route answered errors: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  await Promise.all([stop(bare), stop(server), stop(serverOff), ...(minimal ? [stop(minimal)] : [])]);
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
