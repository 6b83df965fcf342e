/**
 * `npm run bench:api`: requests/s and p99 latency of an authenticated `GET /api/blade-user/info`
 * (token check, revocation lookup, three queries, envelope) against a bare Fastify JSON route,
 * measured in the same run on this machine, and their ratio.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, measure, md5, startProcess, stop, waitFor, type Measured } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-bench-'));
fs.chmodSync(dataDir, 0o755);
const password = 'Bench#Password1';

const barePort = await freePort();
const appPort = await freePort();
const bare = startProcess(['--import', 'tsx', path.join(root, 'bench/bare-fastify.ts')], { PORT: String(barePort) });
const server = startProcess([path.join(root, 'apps/server/dist/main.js')], {
  PORT: String(appPort),
  DATA_DIR: path.join(dataDir, 'data'),
  ADMIN_PASSWORD: password,
  LOG_LEVEL: 'warn',
});

try {
  await waitFor(`http://127.0.0.1:${barePort}/json`);
  await waitFor(`http://127.0.0.1:${appPort}/api/health`);
  const basic = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
  const res = await fetch(`http://127.0.0.1:${appPort}/api/blade-auth/oauth/token`, {
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
  const authed = { 'blade-auth': `bearer ${token}`, authorization: basic };

  // Warm both up (JIT, connection pool), then measure each alone.
  await measure('warm-up', `http://127.0.0.1:${barePort}/json`, {}, 2);
  await measure('warm-up', `http://127.0.0.1:${appPort}/api/blade-user/info`, authed, 2);
  const results: Measured[] = [
    await measure('bare Fastify GET /json', `http://127.0.0.1:${barePort}/json`, {}, seconds),
    await measure(
      'GET /api/blade-user/info (signed in)',
      `http://127.0.0.1:${appPort}/api/blade-user/info`,
      authed,
      seconds,
    ),
  ];
  const [baseline, app] = results as [Measured, Measured];
  console.log(
    `\nAPI benchmark: 32 connections, ${seconds} s each, ${os.cpus().length} cores, Node ${process.version}\n`,
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
  if (app.non2xx || app.errors) {
    console.error('the signed-in route answered errors: the figures are not valid');
    process.exitCode = 1;
  }
} finally {
  await Promise.all([stop(bare), stop(server)]);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
