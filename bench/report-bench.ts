/**
 * `npm run bench:report`: a 10,000-row report made through the real generation path of a running
 * server — `POST /blade-report/report/rest/generate`, the `report.generate` job, the data read as
 * the caller, exceljs on the job's thread for xlsx, the PDF worker thread for PDF, the bytes
 * stored — timed from the request to the file row's `done` (goals: xlsx ≤ 5 s, PDF ≤ 15 s), and
 * the API's latency (a cheap signed-in `GET /api/blade-user/info` under autocannon) measured
 * alone and while each report is being made, with the ratios of the p99s.
 *
 * The report is the built-in monthly disinfection ledger (detail rows, 11 columns, landscape A4)
 * over 10,000 records the bench inserts with one SQL statement into the embedded PostgreSQL it
 * starts itself. `BENCH_ROWS` (10000), `BENCH_SECONDS` (10, the latency alone),
 * `BENCH_SERVER=<main.js>` runs another build of the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import autocannon from 'autocannon';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/server/src/platform/db/embedded-postgres';
import { CONNECTIONS, freePort, loadAverage, md5, processCpuMs, startProcess, stop, waitFor } from './support';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const GOALS = { xlsx: 5, pdf: 15 } as const;
const LEDGER = 'builtin.disinfection-ledger-monthly';
const FROM = '2026-01-01';
const TO = '2026-01-31';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-report-bench-'));
fs.chmodSync(dataDir, 0o755);
const password = 'Bench#Password1';
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const pgRoot = path.join(dataDir, 'pg');
fs.mkdirSync(pgRoot, { mode: 0o755 });
const embedded = await startEmbeddedPostgres(pgRoot, quiet);
const databaseUrl = await embedded.ensureDatabase('mes');

const serverMain = path.resolve(process.env.BENCH_SERVER ?? path.join(root, 'apps/server/dist/main.js'));
const probeFile = path.join(dataDir, 'server-probe.mjs');
buildSync({
  entryPoints: [path.join(root, 'bench/server-probe.ts')],
  outfile: probeFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'warning',
});
const probePort = await freePort();
const port = await freePort();
const server = startProcess(['--import', probeFile, serverMain], {
  PORT: String(port),
  PROBE_PORT: String(probePort),
  DATA_DIR: path.join(dataDir, 'data'),
  DATABASE_URL: databaseUrl,
  ADMIN_PASSWORD: password,
  LOG_LEVEL: 'warn',
});
const api = `http://127.0.0.1:${port}/api`;
const basic = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

async function signIn(): Promise<Record<string, string>> {
  const res = await fetch(`${api}/blade-auth/oauth/token`, {
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

/** `ROWS` disinfection records of the platform tenant in January, over the seeded departments. */
async function loadRecords(): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into mes_disinfection_record (id, tenant_id, record_no, device_code, dept_id, record_type, program_name,
         start_time, end_time, batch_no, load, result, operator_name, chain_seq)
       select 3000000000000000000 + n, '000000', 'R' || lpad(n::text, 8, '0'), 'DEV-' || (n % 40),
              case when n % 3 = 0 then 1000000000000000302 else 1000000000000000303 end, 1 + n % 2,
              '标准程序 ' || (n % 5),
              timestamptz '2026-01-01 08:00:00+08' + (n * interval '4 minutes'),
              timestamptz '2026-01-01 08:30:00+08' + (n * interval '4 minutes'),
              'B' || (n % 997), '器械包 ' || (n % 13) || ' 件', 1 + (n % 50 = 0)::int, '操作员' || (n % 7),
              n / 40 + 1
       from generate_series(1, $1::int) as n`,
      [ROWS],
    );
    await client.query('analyze mes_disinfection_record');
  } finally {
    await client.end();
  }
}

async function json<T>(url: string, headers: Record<string, string>, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const body = (await res.json()) as { success: boolean; data: T; msg?: string };
  if (!res.ok || !body.success) throw new Error(`${url}: ${res.status} ${body.msg ?? ''}`);
  return body.data;
}

interface Made {
  format: 'xlsx' | 'pdf';
  seconds: number;
  rows: number;
  bytes: number;
  serverCpuSeconds: number | undefined;
}

/** Asks for the report and waits for its row to be done; the time is request to `done`. */
async function generate(headers: Record<string, string>, templateId: string, format: 'xlsx' | 'pdf'): Promise<Made> {
  const cpuBefore = processCpuMs(server.pid);
  const started = performance.now();
  const id = await json<string>(`${api}/blade-report/report/rest/generate`, headers, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ templateId, format, params: { from: FROM, to: TO } }),
  });
  for (;;) {
    const row = await json<{ state: number; rowCount: number; size: number; error: string }>(
      `${api}/blade-report/report/rest/detail?id=${id}`,
      headers,
    );
    if (row.state === 3) throw new Error(`the ${format} report failed: ${row.error}`);
    if (row.state === 2) {
      const cpuAfter = processCpuMs(server.pid);
      return {
        format,
        seconds: (performance.now() - started) / 1000,
        rows: row.rowCount,
        bytes: row.size,
        serverCpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / 1000,
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Latency {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  loopDelayP99: number | undefined;
}

async function probe(what: string): Promise<unknown> {
  try {
    return await (await fetch(`http://127.0.0.1:${probePort}${what}`)).json();
  } catch {
    return undefined;
  }
}

/** autocannon on the signed-in route until `until` settles (or for `seconds`). */
async function latency(
  name: string,
  headers: Record<string, string>,
  until: Promise<unknown> | number,
): Promise<Latency> {
  await probe('/reset');
  let stopRun: (() => void) | undefined;
  const running = new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${api}/blade-user/info`,
        headers,
        connections: CONNECTIONS,
        duration: typeof until === 'number' ? until : 3600,
        pipelining: 1,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    stopRun = () => instance.stop();
  });
  // Stops when the report is done (or failed): the measurement is the generation's time exactly.
  if (typeof until !== 'number') void until.then(stopRun, stopRun);
  const r = await running;
  const reading = (await probe('/read')) as { eventLoopDelayMs?: { p99: number } } | undefined;
  return {
    name,
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    loopDelayP99: reading?.eventLoopDelayMs?.p99,
  };
}

try {
  await waitFor(`${api}/health`);
  await loadRecords();
  const headers = await signIn();
  const templates = await json<{ records: { id: string; code: string }[] }>(
    `${api}/blade-report/template/list?size=100`,
    headers,
  );
  const templateId = templates.records.find((t) => t.code === LEDGER)?.id;
  if (!templateId) throw new Error(`no ${LEDGER} template`);
  const loadBefore = loadAverage();

  // Warm up: the route, and one small run of each format (JIT, the worker's first font read).
  await latency('warm-up', headers, 2);
  await generate(headers, templateId, 'xlsx');

  const alone = await latency('GET /api/blade-user/info alone', headers, seconds);
  const made: Made[] = [];
  const during: Latency[] = [];
  for (const format of ['xlsx', 'pdf'] as const) {
    const run = generate(headers, templateId, format);
    during.push(await latency(`GET /api/blade-user/info while the ${format} report is made`, headers, run));
    made.push(await run);
  }
  // The same two reports with nothing else asking the server.
  const quietRuns: Made[] = [];
  for (const format of ['xlsx', 'pdf'] as const) quietRuns.push(await generate(headers, templateId, format));

  console.log(
    `\nReport benchmark: ${ROWS.toLocaleString('en')} rows of ${LEDGER}, ${os.cpus().length} cores, Node ${process.version}; ` +
      `load average before ${loadBefore}, after ${loadAverage()}\n`,
  );
  const goalOf = (m: Made) => GOALS[m.format];
  console.table(
    [
      ...quietRuns.map((m) => ({ m, when: 'alone' })),
      ...made.map((m) => ({ m, when: `under ${CONNECTIONS} connections` })),
    ].map(({ m, when }) => ({
      report: `${m.format} (${when})`,
      rows: m.rows,
      's (request → done)': m.seconds.toFixed(2),
      'goal s': goalOf(m),
      met: m.seconds <= goalOf(m) ? 'yes' : 'NO',
      'server main-thread+worker CPU s': m.serverCpuSeconds?.toFixed(2) ?? 'n/a',
      'size KB': Math.round(m.bytes / 1024),
    })),
  );
  console.table(
    [alone, ...during].map((l) => ({
      route: l.name,
      'req/s': Math.round(l.requestsPerSecond),
      'p50 ms': l.p50,
      'p99 ms': l.p99,
      'max ms': l.max,
      'p99 / alone': (l.p99 / Math.max(alone.p99, 0.001)).toFixed(2),
      'req/s / alone': (l.requestsPerSecond / Math.max(alone.requestsPerSecond, 0.001)).toFixed(2),
      'loop delay p99 ms': l.loopDelayP99 ?? 'n/a',
    })),
  );
  for (const m of quietRuns)
    console.log(
      `${m.format}: ${m.seconds.toFixed(2)} s alone (goal ≤ ${goalOf(m)} s): ${m.seconds <= goalOf(m) ? 'MET' : 'NOT MET'}`,
    );
  for (const [i, l] of during.entries())
    console.log(
      `API p99 while the ${made[i]?.format} report is made: ${l.p99} ms against ${alone.p99} ms alone ` +
        `(ratio ${(l.p99 / Math.max(alone.p99, 0.001)).toFixed(2)}); requests/s ratio ${(l.requestsPerSecond / Math.max(alone.requestsPerSecond, 0.001)).toFixed(2)}`,
    );
  if (quietRuns.some((m) => m.rows !== ROWS)) {
    console.error(`a report did not hold ${ROWS} rows: the figures are not valid`);
    process.exitCode = 1;
  }
} finally {
  await stop(server);
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
