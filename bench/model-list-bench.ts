/**
 * `npm run bench:iot` (`node --import tsx bench/model-list-bench.ts`): `GET iot/model-list` over
 * 1,000,000 points of one device's field (issue 14 point 7: p99 ≤ 200 ms at 10 connections).
 *
 * A scratch database on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres)
 * gets the server's migrations and seed, a product and a device through the API, then BENCH_IOT_POINTS (1,000,000) points of `chlorine`
 * (since "Stored once", docs/mqtt.md: messages of one value each in `mes_acqdata`),
 * one a second up to now, plus BENCH_IOT_NOISE (1,000,000) points of four other devices in the
 * same hours (raise it to see the `(tenant_id, device_code, collect_time)` index chosen for the whole
 * range: at half of the rows the planner scans). Day partitions cover the range as the series
 * upkeep would have made them. The plans of both statements are printed (BENCH_IOT_PLANS=1: whole).
 *
 * Measured with autocannon at BENCH_IOT_CONNECTIONS (10) connections, BENCH_SECONDS (10) each:
 * - the whole range, downsampled by the server (≤ 1000 buckets of 30 min: whole quarter hours
 *   from the per-quarter-hour rollup, whole minutes and part-minutes at the edges from the
 *   per-minute rollup and the raw points);
 * - the last 15 minutes, raw (900 points);
 * and SQL straight through pg (10 clients in a loop): the rollups' statement over quarter hours
 * (the server's), the same over the per-minute rollup alone (the server's before the quarter
 * level), the raw points' buckets it would run without any rollup, and the raw 15 minutes, so
 * the ratios are of one run. The whole range's reply is checked against buckets of the raw
 * points. The database is dropped at the end.
 *
 * The API runs in a child process (this file with IOT_BENCH_SERVER=1): the application as
 * `buildApp` makes it, without the MQTT side, so that the load generator does not share its
 * event loop and the figure does not depend on the broker.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import type { ModelListPoint } from '@mes/contracts';
import { buildApp } from '../apps/server/src/app';
import { applyMigrations, connectDatabase } from '../apps/server/src/platform/db/database';
import { createAppContext } from '../apps/server/src/runtime';
import { seedDatabase } from '../apps/server/src/seed-database';
import { freePort, loadAverage, md5, startProcess, stop, waitFor } from './support';

const BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const POINTS = Number(process.env.BENCH_IOT_POINTS ?? 1_000_000);
const NOISE = Number(process.env.BENCH_IOT_NOISE ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_IOT_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MAX_POINTS = 1000;
const DEVICE = 'BENCH-WL-1';
const FIELD = 'chlorine';
const TENANT = '000000';
const PASSWORD = 'Bench#12345';
const DAY_MS = 86_400_000;

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

interface Figures {
  name: string;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  points?: number;
  bucketSeconds?: number;
}

async function viaHttp(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
  return { name, rate: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** `CONNECTIONS` pg clients running `run` back to back for `SECONDS`: the SQL's own ceiling. */
async function viaSql(name: string, pool: pg.Pool, run: (client: pg.PoolClient) => Promise<unknown>): Promise<Figures> {
  const times: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < end) {
          const start = performance.now();
          try {
            await run(client);
            times.push(performance.now() - start);
          } catch {
            errors++;
          }
        }
      } finally {
        client.release();
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { name, rate: times.length / SECONDS, p50: percentile(times, 50), p99: percentile(times, 99), errors };
}

/**
 * The statements model-list runs (modules/device/iot-series.ts), written out: the raw points are
 * the device's messages (`mes_acqdata`, one row per message, docs/mqtt.md "Stored once") holding
 * the field.
 */
const WHERE = `tenant_id = $1 and device_code = $2 and (data_values -> $3::text) is not null and collect_time >= $4 and collect_time <= $5`;
const NUM = `(case when jsonb_typeof(data_values -> $3::text) = 'number' then (data_values ->> $3::text)::numeric end)`;
const RAW_SQL = `select collect_time, ${NUM} from mes_acqdata where ${WHERE} order by collect_time limit $6`;
const BUCKET_SQL = `select date_bin(make_interval(secs => $6), collect_time, timestamptz '1970-01-01 00:00:00+00'),
  avg(${NUM}::float8), min(${NUM}::float8), max(${NUM}::float8), count(*)
  from mes_acqdata where ${WHERE} group by 1`;

/**
 * What the server read for buckets of a minute or more before the quarter-hour level (and still
 * reads for buckets of 1 to 10 minutes): the per-minute rollup `mes_telemetry_minute` that
 * ingestion keeps in each batch's transaction, over the window's whole minutes.
 */
const ROLLUP_SQL = `select date_bin(make_interval(secs => $6), minute, timestamptz '1970-01-01 00:00:00+00'),
  sum(total), min(low), max(high), sum(points)
  from mes_telemetry_minute
  where tenant_id = $1 and device_code = $2 and field = $3 and minute >= $4 and minute < $5 group by 1`;

/**
 * The same buckets with the whole quarter hours from `mes_telemetry_quarter` and only the minutes
 * at the two edges from `mes_telemetry_minute` ($4–$5 the whole minutes, $7–$8 the whole quarters
 * inside them), as iot-series.ts reads them (its part-minutes from the raw points aside).
 */
const QUARTER_SQL = `select bucket, sum(total), min(low), max(high), sum(points) from (
    select date_bin(make_interval(secs => $6), quarter, timestamptz '1970-01-01 00:00:00+00') as bucket, total, low, high, points
    from mes_telemetry_quarter
    where tenant_id = $1 and device_code = $2 and field = $3 and quarter >= $7 and quarter < $8
    union all
    select date_bin(make_interval(secs => $6), minute, timestamptz '1970-01-01 00:00:00+00'), total, low, high, points
    from mes_telemetry_minute
    where tenant_id = $1 and device_code = $2 and field = $3
      and ((minute >= $4 and minute < $7) or (minute >= $8 and minute < $5))
  ) parts group by 1`;

/**
 * Both rollups from the raw points as ingestion would have written them; the quarter hours from
 * the minutes by the statement migration 0018 backfills with.
 */
async function fillRollup(pool: pg.Pool): Promise<number> {
  const started = performance.now();
  await pool.query(`insert into mes_telemetry_minute (id, tenant_id, device_code, field, minute, points, total, low, high)
    select min(id), tenant_id, device_code, field, date_bin('1 minute', ts, timestamptz '1970-01-01 00:00:00+00'),
           count(*), sum(num_value), min(num_value), max(num_value)
    from mes_telemetry group by 2, 3, 4, 5`);
  await pool.query(`insert into mes_telemetry_quarter (id, tenant_id, device_code, field, quarter, points, total, low, high)
    select min(id), tenant_id, device_code, field, date_bin('15 minutes', minute, timestamptz '1970-01-01 00:00:00+00'),
           sum(points), sum(total), min(low), max(high)
    from mes_telemetry_minute group by 2, 3, 4, 5`);
  await pool.query('vacuum (analyze) mes_telemetry_minute');
  await pool.query('vacuum (analyze) mes_telemetry_quarter');
  return performance.now() - started;
}

/** The raw points' buckets as the reply writes them (average, minimum, maximum, count). */
async function rawBucketsOf(pool: pg.Pool, from: number, to: number, bucketSeconds: number) {
  const rows = await pool.query<{ ts: string; sum: string; min: string; max: string; count: string }>(
    `select extract(epoch from date_bin(make_interval(secs => $6), ts, timestamptz '1970-01-01 00:00:00+00')) * 1000 as ts,
       sum(num_value)::text as sum, min(num_value)::text as min, max(num_value)::text as max, count(*) as count
     from mes_telemetry where tenant_id = $1 and device_code = $2 and field = $3 and ts >= $4 and ts <= $5 group by 1 order by 1`,
    [...sqlArgs(from, to), bucketSeconds],
  );
  return rows.rows.map((r) => ({
    ts: Number(r.ts),
    value: Number(r.sum) / Number(r.count),
    min: Number(r.min),
    max: Number(r.max),
    count: Number(r.count),
  }));
}

const sqlArgs = (from: number, to: number) => [TENANT, DEVICE, FIELD, new Date(from), new Date(to)];

/** EXPLAIN ANALYZE of a statement with the settings the server runs it with (iot-series.ts). */
async function planOf(pool: pg.Pool, text: string, params: unknown[], buckets: boolean): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    if (buckets) await client.query('set local jit = off; set local enable_sort = off');
    const plan = await client.query(`explain (analyze, costs off) ${text}`, params);
    return plan.rows.map((r: Record<string, string>) => Object.values(r)[0] as string);
  } finally {
    await client.query('commit');
    client.release();
  }
}

async function sqlModelList(client: pg.PoolClient, from: Date, to: Date, bucketSeconds: number): Promise<number> {
  const args = [TENANT, DEVICE, FIELD, from, to];
  const raw = await client.query(RAW_SQL, [...args, MAX_POINTS + 1]);
  if (raw.rowCount !== null && raw.rowCount <= MAX_POINTS) return raw.rowCount;
  await client.query('begin');
  try {
    await client.query('set local jit = off');
    await client.query('set local enable_sort = off');
    const buckets = await client.query(BUCKET_SQL, [...args, bucketSeconds]);
    return buckets.rowCount ?? 0;
  } finally {
    await client.query('commit');
  }
}

async function api<T>(port: number, headers: Record<string, string>, method: string, url: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = (await res.json()) as { success: boolean; data: T; msg: string };
  if (!res.ok || !reply.success) throw new Error(`${method} ${url}: ${res.status} ${reply.msg}`);
  return reply.data;
}

async function signIn(port: number): Promise<Record<string, string>> {
  const basic = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
  const res = await fetch(`http://127.0.0.1:${port}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ tenantId: TENANT, username: 'admin', password: md5(PASSWORD), grant_type: 'password' }),
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  return { 'blade-auth': `bearer ${token}` };
}

/** Day partitions over the range (as the upkeep makes them), the rows, the statistics. */
async function fill(pool: pg.Pool, now: number): Promise<void> {
  const first = now - (POINTS - 1) * 1000;
  for (let day = Math.floor(first / DAY_MS) * DAY_MS; day <= now; day += DAY_MS) {
    const name = `mes_acqdata_p${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')}`;
    await pool.query(
      `create table if not exists ${name} partition of mes_acqdata for values from ('${new Date(day).toISOString()}') to ('${new Date(day + DAY_MS).toISOString()}')`,
    );
  }
  const started = performance.now();
  await pool.query(
    `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol)
     select g, $1, $2, $4::timestamptz + (g - 1) * interval '1 second',
            jsonb_build_object($3::text, round((0.5 + 0.3 * sin(g / 600.0))::numeric, 2)), '', 'json'
     from generate_series(1, $5::bigint) g`,
    [TENANT, DEVICE, FIELD, new Date(first), POINTS],
  );
  // Other devices report in the same hours: the index, not a scan of the partitions, must find the device.
  await pool.query(
    `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol)
     select $5::bigint + g, $1, 'BENCH-WL-' || (2 + g % 4), $3::timestamptz + (g * $6::float8) * interval '1 millisecond',
            jsonb_build_object($2::text, 1), '', 'json'
     from generate_series(1, $4::bigint) g`,
    [TENANT, FIELD, new Date(first), NOISE, POINTS, ((now - first) / Math.max(NOISE, 1)).toFixed(3)],
  );
  // Vacuumed as well as analysed, as days-old partitions are: otherwise autovacuum takes the
  // freshly inserted rows during the measurements (a p99 of 817 ms against 281 in the run before).
  await pool.query('vacuum (analyze) mes_acqdata');
  console.log(
    `${POINTS.toLocaleString('en')} points of ${DEVICE}.${FIELD} + ${NOISE.toLocaleString('en')} of 4 other devices, ` +
      `filled in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function main() {
  const name = `iot_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const databaseUrl = withDb(BASE_URL, name);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS });
  // Dropping the database at the end ends idle clients too; that is not an error of the run.
  pool.on('error', () => undefined);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-bench-'));
  const port = await freePort();
  const server = startProcess(['--import', 'tsx', fileURLToPath(import.meta.url)], {
    IOT_BENCH_SERVER: '1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/api/health`, 300_000);
    const headers = await signIn(port);
    const productId = await api<string>(port, headers, 'POST', '/api/basic/product/submit', {
      productCode: 'BENCH-WL',
      productName: 'bench',
      category: 1,
      protocol: 'mqtt-json',
      fields: [{ fieldKey: FIELD, fieldName: '有效氯', dataType: 'float', unit: 'mg/L', precision: 2, access: 'r' }],
    });
    await api(port, headers, 'POST', '/api/basic/device/submit', {
      productId,
      deviceCode: DEVICE,
      deviceName: 'bench',
    });
    const now = Math.floor(Date.now() / 1000) * 1000;
    await fill(pool, now);
    const rollupMs = await fillRollup(pool);

    const from = now - (POINTS - 1) * 1000;
    const shortFrom = now - 899_000;
    const base = `http://127.0.0.1:${port}/api/blade-business/iot/model-list?deviceCode=${DEVICE}&field=${FIELD}`;
    const wholeUrl = `${base}&startTime=${from}&endTime=${now}&maxPoints=${MAX_POINTS}`;
    const shortUrl = `${base}&startTime=${shortFrom}&endTime=${now}`;
    const whole = await api<{ bucketSeconds: number; points: ModelListPoint[] }>(
      port,
      headers,
      'GET',
      wholeUrl.slice(`http://127.0.0.1:${port}`.length),
    );
    const short = await api<{ bucketSeconds: number; points: unknown[] }>(
      port,
      headers,
      'GET',
      shortUrl.slice(`http://127.0.0.1:${port}`.length),
    );
    const counted = whole.points.reduce((n, p) => n + p.count, 0);
    const raw = await rawBucketsOf(pool, from, now, whole.bucketSeconds);
    const same = JSON.stringify(raw) === JSON.stringify(whole.points);
    console.log(
      `whole range reply against buckets of the raw points: ${same ? 'identical' : 'DIFFERENT'} ` +
        `(${raw.length} buckets)`,
    );
    console.log(
      `whole range: ${whole.points.length} buckets of ${whole.bucketSeconds} s holding ${counted.toLocaleString('en')} points; ` +
        `last 15 min: ${short.points.length} raw points (bucketSeconds ${short.bucketSeconds})`,
    );

    // How each partition is read: by which index, or by a sequential scan.
    const access = (plan: string[]) => {
      const ways = new Map<string, number>();
      for (const line of plan) {
        const way =
          /(Index Only Scan|Index Scan|Bitmap Index Scan) (?:using|on) mes_telemetry_\w+?_((?:tenant_id_)?(?:device_code_field_)?ts)_idx/.exec(
            line,
          );
        const key = way ? `${way[1]} (${way[2]?.replace(/_/g, ', ')})` : line.includes('Seq Scan') ? 'Seq Scan' : '';
        if (key) ways.set(key, (ways.get(key) ?? 0) + 1);
      }
      return [...ways].map(([way, n]) => `${n}× ${way}`).join(', ');
    };
    const wholePlan = await planOf(pool, BUCKET_SQL, [...sqlArgs(from, now), whole.bucketSeconds], true);
    const shortPlan = await planOf(pool, RAW_SQL, [...sqlArgs(shortFrom, now), MAX_POINTS + 1], false);
    if (process.env.BENCH_IOT_PLANS) console.log([...wholePlan, ...shortPlan].join('\n'));
    console.log(
      `plans: whole range ${wholePlan[0]?.trim()}, partitions read by ${access(wholePlan)}, ${wholePlan.at(-1)?.trim()}; ` +
        `last 15 min: ${access(shortPlan)}, ${shortPlan.at(-1)?.trim()}`,
    );

    const wholeSql = (c: pg.PoolClient) => sqlModelList(c, new Date(from), new Date(now), whole.bucketSeconds);
    const shortSql = (c: pg.PoolClient) => sqlModelList(c, new Date(shortFrom), new Date(now), 0);
    // Warm-up: JIT of the server, the pools, the pages of the index and table.
    await viaHttp('warm-up', wholeUrl, headers);
    await viaSql('warm-up', pool, wholeSql);
    const firstMinute = Math.ceil(from / 60_000) * 60_000;
    const endMinute = Math.floor((now + 1) / 60_000) * 60_000;
    const minuteArgs = [TENANT, DEVICE, FIELD, new Date(firstMinute), new Date(endMinute), whole.bucketSeconds];
    const rollupSql = (c: pg.PoolClient) => c.query(ROLLUP_SQL, minuteArgs);
    const quarterArgs = [
      ...minuteArgs,
      new Date(Math.ceil(from / 900_000) * 900_000),
      new Date(Math.floor((now + 1) / 900_000) * 900_000),
    ];
    const quarterSql = (c: pg.PoolClient) => c.query(QUARTER_SQL, quarterArgs);
    // Both statements answer the same sums (the edges' part-minutes aside, which neither reads).
    const [byMinute, byQuarter] = [
      await pool.query(ROLLUP_SQL, minuteArgs),
      await pool.query(QUARTER_SQL, quarterArgs),
    ];
    const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(Object.values(r as object))).sort();
    console.log(
      `minute-only and quarter-hour statements: ${
        JSON.stringify(sorted(byMinute.rows)) === JSON.stringify(sorted(byQuarter.rows)) ? 'identical' : 'DIFFERENT'
      } (${byQuarter.rowCount} buckets)`,
    );
    const rows: Figures[] = [];
    rows.push(
      await viaSql(`SQL via pg: whole range (${POINTS.toLocaleString('en')} raw points), buckets`, pool, wholeSql),
    );
    rows.push(await viaHttp(`GET model-list: whole range, ${whole.points.length} buckets`, wholeUrl, headers));
    rows.push(await viaSql('SQL via pg: last 15 min, raw', pool, shortSql));
    rows.push(await viaHttp(`GET model-list: last 15 min, ${short.points.length} raw points`, shortUrl, headers));
    rows.push(await viaSql('SQL via pg: whole range from the per-minute rollup alone (before)', pool, rollupSql));
    rows.push(await viaSql('SQL via pg: whole range, quarter hours + edge minutes (now)', pool, quarterSql));

    console.log(
      `\nmodel-list benchmark: ${CONNECTIONS} connections, ${SECONDS} s each, ${os.cpus().length} cores, ` +
        `load average ${loadAverage()}`,
    );
    console.table(
      rows.map((r) => ({
        measurement: r.name,
        'req/s': Math.round(r.rate * 10) / 10,
        'p50 ms': Math.round(r.p50 * 10) / 10,
        'p99 ms': Math.round(r.p99 * 10) / 10,
        errors: r.errors,
      })),
    );
    const [wholeDb, wholeHttp, shortDb, shortHttp, rollup, quarter] = rows as [
      Figures,
      Figures,
      Figures,
      Figures,
      Figures,
      Figures,
    ];
    console.log(
      `ratio server / SQL (req/s): whole range ${(wholeHttp.rate / quarter.rate).toFixed(2)} of the rollups' SQL ` +
        `(${(wholeHttp.rate / wholeDb.rate).toFixed(1)}× the raw buckets' SQL), ` +
        `last 15 min ${(shortHttp.rate / shortDb.rate).toFixed(2)}; ` +
        `goal p99 ≤ 200 ms: whole range ${wholeHttp.p99 <= 200 ? 'met' : 'NOT met'} (${wholeHttp.p99} ms), ` +
        `last 15 min ${shortHttp.p99 <= 200 ? 'met' : 'NOT met'} (${shortHttp.p99} ms)`,
    );
    console.log(
      `rollups: filled in ${(rollupMs / 1000).toFixed(1)} s; the per-minute statement answers ` +
        `${(rollup.rate / wholeDb.rate).toFixed(1)}× the requests/s of the raw buckets (p99 ${rollup.p99.toFixed(1)} ms ` +
        `against ${wholeDb.p99.toFixed(1)} ms); the quarter-hour statement ${(quarter.rate / rollup.rate).toFixed(1)}× ` +
        `the per-minute one's (p99 ${quarter.p99.toFixed(1)} ms against ${rollup.p99.toFixed(1)} ms)`,
    );
  } finally {
    await stop(server);
    await pool.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The API process: migrated and seeded database, the application, no MQTT. */
async function serve() {
  const databaseUrl = process.env.DATABASE_URL as string;
  const database = connectDatabase(databaseUrl, 10);
  await applyMigrations(database);
  await seedDatabase(database.db, PASSWORD);
  const ctx = await createAppContext({
    database,
    databaseUrl,
    jwtSecret: randomBytes(32).toString('hex'),
    dataDir: process.env.DATA_DIR as string,
  });
  const app = await buildApp(ctx);
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(() => ctx.close())
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
}

await (process.env.IOT_BENCH_SERVER === '1' ? serve() : main());
