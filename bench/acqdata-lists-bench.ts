/**
 * `node --import tsx bench/acqdata-lists-bench.ts`: the reads of `mes_acqdata` and its views with
 * and without the two time-led indexes migration 0037 dropped (`time (collect_time)`,
 * `receive (receive_time, id)`), alternating in one run (docs/ingest-performance.md "Indexes of
 * `mes_acqdata`"). Page 1 (10 rows, the default last 24 hours) in the SQL shapes the series list
 * sends (engine/series/series-page.ts) for a caller's tenant — the platform administrator's lists
 * are its own tenant's too — and the points-estimate sample as each layout's code reads it. For
 * the record, also a page across tenants, which no route sends: the plain ORDER BY, and a merge
 * of each tenant's own first rows (a LATERAL read per tenant on the tenant-led indexes).
 *
 * 1,000,000 rows (`BENCH_ACQ_ROWS`) over the last 2 days (about half in the range), 3 and 50
 * tenants (`BENCH_ACQ_TENANTS`, comma-separated), partitions 90 days back to 7 ahead as the
 * upkeep keeps them. A scratch database on DATABASE_URL's server (default the machine's
 * PostgreSQL), or an embedded cluster with `BENCH_EMBEDDED=1`. Medians of `BENCH_ACQ_REPS` (7).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { applyMigrations, connectDatabase } from '../apps/server/src/platform/db/database';
import { ensurePartition, periodStart, seriesTableOf } from '../apps/server/src/platform/series/partitions';
import { acquisitionResource } from '../packages/contracts/src/definitions/telemetry/acquisition';
import { startBenchPostgres } from './bench-postgres';

const env = process.env;
const ROWS = Number(env.BENCH_ACQ_ROWS ?? 1_000_000);
const REPS = Number(env.BENCH_ACQ_REPS ?? 7);
const TENANT_COUNTS = (env.BENCH_ACQ_TENANTS ?? '3,50').split(',').map(Number);
const DAY_MS = 24 * 60 * 60 * 1000;

const TIME_LED = [
  'create index mes_acqdata_time_idx on mes_acqdata (collect_time)',
  'create index mes_acqdata_receive_idx on mes_acqdata (receive_time, id)',
];
const DROP_TIME_LED = 'drop index mes_acqdata_time_idx, mes_acqdata_receive_idx';

const tenantIds = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? '000000' : String(100000 + i)));

/** One read: its SQL and parameters given the range's start and the tenants. */
interface Read {
  name: string;
  sql: (layout: Layout) => string;
  params: (from: Date, tenants: string[]) => unknown[];
}
type Layout = 'before' | 'after';

const ACQ_COLS = 'id, tenant_id, device_code, collect_time, data_values, topic, protocol';
const MQTT_COLS = 'id, topic, client_id, payload, device_code, parsed_ok, error, create_time, tenant_id';

/** A list's relation and order: its columns, time column and the direction of the id after the time. */
interface ListShape {
  label: string;
  relation: string;
  cols: string;
  time: string;
  id: 'asc' | 'desc';
}
const ACQ: ListShape = {
  label: 'acquisition data',
  relation: 'mes_acqdata',
  cols: ACQ_COLS,
  time: 'collect_time',
  id: 'asc',
};
const MQTT: ListShape = {
  label: 'MQTT messages',
  relation: 'mes_mqtt_message',
  cols: MQTT_COLS,
  time: 'create_time',
  id: 'desc',
};
const IOT: ListShape = { label: 'IoT data', relation: 'mes_telemetry', cols: '*', time: 'ts', id: 'asc' };

const order = (l: ListShape, alias = '') => `${alias}${l.time} desc, ${alias}id ${l.id}`;

/** Page 1 of one tenant's list, as the series list sends it. */
const tenantPage = (l: ListShape): Read => ({
  name: `${l.label}, a tenant's page 1`,
  sql: () =>
    `select ${l.cols} from ${l.relation} where tenant_id = $1 and ${l.time} >= $2 order by ${order(l)} limit 10`,
  params: (from, tenants) => [tenants[0], from],
});

/** Page 1 across tenants (no route sends it): the plain order, and each tenant's first rows merged. */
const acrossTenants = (l: ListShape): Read[] => [
  {
    name: `${l.label} across tenants, plain (no route)`,
    sql: () => `select ${l.cols} from ${l.relation} where ${l.time} >= $1 order by ${order(l)} limit 10`,
    params: (from) => [from],
  },
  {
    name: `${l.label} across tenants, per-tenant merge`,
    sql: () =>
      `select x.* from unnest($2::varchar[]) as t(tenant_id)
        cross join lateral (select ${l.cols} from ${l.relation} r where r.tenant_id = t.tenant_id and r.${l.time} >= $1
                             order by ${order(l, 'r.')} limit 10) x
        order by ${order(l, 'x.')} limit 10`,
    params: (from, tenants) => [from, tenants],
  },
];

const READS: Read[] = [
  tenantPage(ACQ),
  tenantPage(MQTT),
  tenantPage(IOT),
  {
    name: 'points-estimate sample (1,000 newest)',
    sql: (layout) =>
      `select avg((select count(*) from jsonb_object_keys(m.data_values)))::float8
         from (select data_values from mes_acqdata order by ${layout === 'before' ? 'collect_time' : 'id'} desc limit 1000) m`,
    params: () => [],
  },
  ...acrossTenants(ACQ),
  ...acrossTenants(MQTT),
];

async function median(pool: pg.Pool, sql: string, params: unknown[]): Promise<{ ms: number; ids: string }> {
  const first = await pool.query(sql, params);
  const times: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const start = performance.now();
    await pool.query(sql, params);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    ms: times[Math.floor(times.length / 2)] ?? 0,
    ids: first.rows.map((r: { id?: string; avg?: number }) => String(r.id ?? r.avg)).join(','),
  };
}

type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] };

/** The plan's shape in a word or two: its sorts and the distinct indexes it reads (partitions folded). */
async function planShape(pool: pg.Pool, sql: string, params: unknown[]): Promise<string> {
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${sql}`, params);
  const walk = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(walk)];
  const all = walk(rows[0]!['QUERY PLAN'][0].Plan);
  const indexes = new Set(
    all.flatMap((n) =>
      n['Index Name'] ? [n['Index Name'].replace(/^mes_(acqdata|mqtt_log)_(p\d+|default)_/, '')] : [],
    ),
  );
  const sorts = all.filter((n) => /Sort/.test(n['Node Type'])).map((n) => n['Node Type']);
  const seq = all.some((n) => n['Node Type'] === 'Seq Scan') ? ['Seq Scan'] : [];
  return [...new Set(sorts), ...seq, ...indexes].join(' + ');
}

async function fill(pool: pg.Pool, tenants: string[], now: Date): Promise<void> {
  await pool.query('truncate mes_acqdata');
  await pool.query(
    'drop index if exists mes_acqdata_device_time_idx, mes_acqdata_tenant_time_idx, mes_acqdata_tenant_receive_idx',
  );
  const start = new Date(now.getTime() - 2 * DAY_MS);
  const step = (2 * DAY_MS) / ROWS;
  const chunk = 250_000;
  for (let first = 0; first < ROWS; first += chunk) {
    await pool.query(
      `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol, seq, receive_time)
       select 3000000000000000000 + g * 4, ($2::varchar[])[1 + g % $3::int], 'D' || (g % 100),
              $1::timestamptz + g * ($4::float8 * interval '1 ms'),
              jsonb_build_object('temp', g % 90, 'pressure', g % 7, 'phase', 'wash'), 'mes/t/D/telemetry', 'json', g % 256,
              $1::timestamptz + g * ($4::float8 * interval '1 ms') + interval '1 s'
         from generate_series($5::int, $6::int) g`,
      [start, tenants, tenants.length, step, first, Math.min(ROWS, first + chunk) - 1],
    );
  }
  await pool.query('create index mes_acqdata_device_time_idx on mes_acqdata (tenant_id, device_code, collect_time)');
  await pool.query('create index mes_acqdata_tenant_time_idx on mes_acqdata (tenant_id, collect_time)');
  await pool.query('create index mes_acqdata_tenant_receive_idx on mes_acqdata (tenant_id, receive_time, id)');
  await pool.query('vacuum analyze mes_acqdata');
}

async function run(url: string): Promise<void> {
  const database = connectDatabase(url, 4);
  await applyMigrations(database);
  const pool = database.pool;
  const server = (await pool.query<{ server_version: string }>('show server_version')).rows[0]?.server_version;
  console.log(`PostgreSQL ${server}; ${ROWS.toLocaleString('en')} rows over 2 days; medians of ${REPS}`);
  const now = new Date();
  const table = seriesTableOf(acquisitionResource);
  for (let d = 90; d >= -7; d--)
    await ensurePartition(database.db, table, periodStart(new Date(now.getTime() - d * DAY_MS), 'day'));
  const from = new Date(now.getTime() - DAY_MS);
  try {
    for (const count of TENANT_COUNTS) {
      const tenants = tenantIds(count);
      await fill(pool, tenants, now);
      console.log(
        `\n${count} tenants (load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
      );
      const ms: Record<string, Record<Layout, number[]>> = {};
      const answers: Record<string, string> = {};
      const plans: Record<string, Record<Layout, string>> = {};
      // after, before, after, before: the time-led indexes made and dropped between rounds.
      for (const layout of ['after', 'before', 'after', 'before'] as Layout[]) {
        if (layout === 'before') for (const ddl of TIME_LED) await pool.query(ddl);
        await pool.query('analyze mes_acqdata');
        for (const read of READS) {
          const result = await median(pool, read.sql(layout), read.params(from, tenants));
          (plans[read.name] ??= { before: '', after: '' })[layout] = await planShape(
            pool,
            read.sql(layout),
            read.params(from, tenants),
          );
          (ms[read.name] ??= { before: [], after: [] })[layout].push(result.ms);
          // Each read answers the same rows in both layouts, and the merge the plain read's rows.
          const key = read.name.replace(/, (plain \(no route\)|per-tenant merge)$/, '');
          if (answers[key] === undefined) answers[key] = result.ids;
          else if (answers[key] !== result.ids) console.log(`  !! ${read.name} (${layout}) answered other rows`);
        }
        if (layout === 'before') await pool.query(DROP_TIME_LED);
      }
      console.log(`${'read'.padEnd(52)} ${'before ms'.padStart(16)} ${'after ms'.padStart(16)}  after/before`);
      for (const [name, { before, after }] of Object.entries(ms)) {
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        const show = (xs: number[]) => xs.map((x) => x.toFixed(x < 10 ? 2 : 1)).join(' / ');
        console.log(
          `${name.padEnd(52)} ${show(before).padStart(16)} ${show(after).padStart(16)}  ${(mean(after) / mean(before)).toFixed(2)}`,
        );
      }
      console.log('plans (before → after):');
      for (const [name, { before, after }] of Object.entries(plans))
        console.log(`  ${name}: ${before === after ? `${before} (same)` : `${before} → ${after}`}`);
    }
  } finally {
    await database.close();
  }
}

if (env.BENCH_EMBEDDED === '1') {
  const bench = await startBenchPostgres('mes-acq-lists-');
  try {
    await run(bench.databaseUrl);
  } finally {
    await bench.embedded.stop();
    fs.rmSync(bench.work, { recursive: true, force: true });
  }
} else {
  const base = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `acq_lists_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  try {
    await run(u.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
