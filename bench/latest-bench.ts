/**
 * `npm run bench:latest` (`node --import tsx bench/latest-bench.ts`): the latest values of a
 * batch written the old way (one row per tenant, device and field, upserted point by point) and
 * the new way (one row per device, its fields merged in one jsonb, `device-latest.ts`), in one
 * run on one embedded PostgreSQL (docs/ingest-performance.md "Latest values, one row per device").
 *
 * For each layout and each fleet (BENCH_LATEST_DEVICES, default `4,1000`): BENCH_LATEST_BATCHES
 * (20) batches of BENCH_LATEST_MESSAGES (2,000) messages of BENCH_LATEST_FIELDS (10) fields, the
 * messages spread evenly over the devices, each batch one transaction, times rising batch to batch
 * (every batch's values win), after one warm-up batch that creates the rows. Per batch: the
 * statement's wall time (building it included), PostgreSQL's CPU, the rows it inserted or
 * updated (pg_stat_user_tables) and the WAL it wrote. Layouts alternate batch by batch so that
 * the machine's other load falls on both alike.
 *
 * The old layout's table is created here as migration 0010 made it (`mes_telemetry_latest` is
 * gone since migration 0026), with the old statement: the bench is its only remaining user.
 */
import fs from 'node:fs';
import pg from 'pg';
import type { TelemetryRow } from '../apps/server/src/modules/telemetry/telemetry-row';
import { latestByDevice, latestMerge } from '../apps/server/src/modules/telemetry/device-latest';
import { nextId } from '../apps/server/src/platform/db/ids';
import { startBenchPostgres } from './bench-postgres';
import { postgresCpuMs } from './support';

const env = process.env;
const FLEETS = (env.BENCH_LATEST_DEVICES ?? '4,1000').split(',').map(Number);
const BATCHES = Number(env.BENCH_LATEST_BATCHES ?? 20);
const MESSAGES = Number(env.BENCH_LATEST_MESSAGES ?? 2000);
const FIELDS = Number(env.BENCH_LATEST_FIELDS ?? 10);
const TENANT = '000000';

const { work, embedded, databaseUrl, clusterDir } = await startBenchPostgres('mes-latest-bench-');
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });

// The old layout, as migration 0010 created it.
await pool.query(`
  create table bench_telemetry_latest (
    id bigint primary key not null,
    device_code varchar(64) default '' not null,
    field varchar(64) default '' not null,
    ts timestamp (3) with time zone,
    num_value numeric(24, 6),
    text_value varchar(255),
    quality integer default 0 not null,
    tenant_id varchar(12) default '000000' not null,
    create_user bigint, create_dept bigint,
    create_time timestamp (3) with time zone default now() not null,
    update_user bigint,
    update_time timestamp (3) with time zone default now() not null,
    status integer default 1 not null,
    is_deleted integer default 0 not null);
  create unique index bench_telemetry_latest_key_uq on bench_telemetry_latest (tenant_id, device_code, field) where is_deleted = 0`);

/** The old statement (batch-statements.ts `latestUpsert` before migration 0026): a row per point. */
function perFieldUpsert(rows: readonly TelemetryRow[]) {
  return {
    text: `insert into bench_telemetry_latest (id, tenant_id, device_code, field, ts, num_value, text_value, quality)
      select * from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[], $6::numeric[], $7::varchar[], $8::int[])
      on conflict (tenant_id, device_code, field) where is_deleted = 0 do update
        set ts = excluded.ts, num_value = excluded.num_value, text_value = excluded.text_value,
            quality = excluded.quality, update_time = now()
        where bench_telemetry_latest.ts is null or bench_telemetry_latest.ts <= excluded.ts`,
    values: [
      rows.map(() => nextId()),
      rows.map((r) => r.tenantId),
      rows.map((r) => r.deviceCode),
      rows.map((r) => r.field),
      rows.map((r) => r.ts),
      rows.map((r) => r.num),
      rows.map((r) => r.text),
      rows.map(() => 0),
    ],
  };
}

/** What BatchRows.latest hands the writer: the newest point per device and field of the batch. */
function batchLatest(devices: number, batch: number): TelemetryRow[] {
  const newest = new Map<string, TelemetryRow>();
  const base = Date.UTC(2026, 10, 1) + batch * MESSAGES;
  for (let m = 0; m < MESSAGES; m++) {
    const deviceCode = `D${String(m % devices).padStart(4, '0')}`;
    for (let f = 0; f < FIELDS; f++) {
      const row = {
        tenantId: TENANT,
        deviceCode,
        field: `field${f}`,
        ts: new Date(base + m),
        num: String(((m * 7 + f) % 10_000) / 100),
        text: null,
      };
      newest.set(`${deviceCode}/${row.field}`, row);
    }
  }
  return [...newest.values()];
}

interface Sample {
  ms: number;
  pgCpuMs: number;
  rows: number;
  walBytes: number;
}

type Layout = 'per field' | 'per device';
const TABLES: Record<Layout, string> = { 'per field': 'bench_telemetry_latest', 'per device': 'mes_device_latest' };

async function written(client: pg.PoolClient, table: string): Promise<number> {
  // Counters of committed transactions reach the shared statistics at the next flush.
  await client.query('select pg_stat_force_next_flush()');
  await client.query('select pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ n: string }>(
    `select (n_tup_ins + n_tup_upd)::text as n from pg_stat_user_tables where relname = $1`,
    [table],
  );
  return Number(rows[0]?.n ?? 0);
}

async function runBatch(client: pg.PoolClient, layout: Layout, latest: TelemetryRow[]): Promise<Sample> {
  const table = TABLES[layout];
  const rowsBefore = await written(client, table);
  const wal = async () =>
    (await client.query<{ lsn: string }>(`select pg_current_wal_insert_lsn()::text as lsn`)).rows[0]?.lsn ?? '0/0';
  const walBefore = await wal();
  const cpuBefore = postgresCpuMs(clusterDir) ?? 0;
  const started = performance.now();
  await client.query('begin');
  await client.query(layout === 'per field' ? perFieldUpsert(latest) : latestMerge(latestByDevice(latest)));
  await client.query('commit');
  const ms = performance.now() - started;
  const pgCpuMs = (postgresCpuMs(clusterDir) ?? 0) - cpuBefore;
  const { rows } = await client.query<{ bytes: string }>(
    `select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::text as bytes`,
    [walBefore],
  );
  return { ms, pgCpuMs, rows: (await written(client, table)) - rowsBefore, walBytes: Number(rows[0]?.bytes ?? 0) };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const client = await pool.connect();
const lines: string[] = [];
try {
  for (const devices of FLEETS) {
    const samples: Record<Layout, Sample[]> = { 'per field': [], 'per device': [] };
    for (let batch = 0; batch <= BATCHES; batch++) {
      const latest = batchLatest(devices, batch);
      for (const layout of ['per field', 'per device'] as const) {
        const sample = await runBatch(client, layout, latest);
        if (batch > 0) samples[layout].push(sample);
      }
    }
    const size = async (table: string) =>
      Number((await client.query<{ b: string }>(`select pg_total_relation_size($1)::text as b`, [table])).rows[0]?.b);
    const base = samples['per field'];
    for (const layout of ['per field', 'per device'] as const) {
      const s = samples[layout];
      const line = [
        `${devices} devices`,
        layout,
        `${median(s.map((x) => x.ms)).toFixed(1)} ms`,
        `${(median(base.map((x) => x.ms)) / median(s.map((x) => x.ms))).toFixed(2)}×`,
        `${((mean(s.map((x) => x.pgCpuMs)) * 1000) / MESSAGES).toFixed(2)} µs/msg`,
        `${mean(s.map((x) => x.rows)).toFixed(0)} rows`,
        `${(mean(s.map((x) => x.walBytes)) / 1024).toFixed(0)} KiB WAL`,
        `${((await size(TABLES[layout])) / 1024).toFixed(0)} KiB table`,
      ];
      lines.push(`| ${line.join(' | ')} |`);
    }
    await client.query('truncate bench_telemetry_latest, mes_device_latest');
  }
} finally {
  client.release();
  await pool.end();
  await embedded.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

console.log(
  `Latest values of ${BATCHES} batches of ${MESSAGES} messages × ${FIELDS} fields (medians of the batch's statement + commit; CPU, rows and WAL per batch, means):`,
);
console.log('| fleet | layout | statement | × per field | PostgreSQL CPU | rows written | WAL | table after |');
console.log('| ----- | ------ | --------: | ----------: | -------------: | -----------: | --: | ----------: |');
for (const line of lines) console.log(line);
