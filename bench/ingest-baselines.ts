/**
 * The bare-insert baselines of the ingest bench (docs/ingest-performance.md "Real messages"): the
 * rows of real model messages inserted from the bench process, in batches of the ingester's size,
 * one transaction per batch, no broker and no ingester. Every layout gets the same rows, checked
 * and scaled by the server's own `BatchRows`, so they differ only in what PostgreSQL is given:
 *
 * - today's layout: a telemetry row per point, the per-minute and per-quarter-hour rollups, the
 *   latest value per device and field, the acquisition row and the message-log row (the server's
 *   statement builders, in the order of its commit);
 * - "store once": one row per message and nothing else, with the values as jsonb (in
 *   `mes_acqdata` as it is, and in a table of the bench's reduced to key and values) or as a
 *   float8[] / numeric[] aligned to the model's field order (tables of the bench); each by a
 *   multi-row unnest INSERT and by a text-format `COPY FROM STDIN`.
 *
 * The bench's tables have `mes_acqdata`'s keys and indexes (primary key (id, time); (tenant,
 * device, time); (tenant, time); (time)) and are partitioned by time like it, so a layout's
 * figure is its columns' cost, not fewer indexes.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  BatchRows,
  pointsOf,
  valuesJson,
  type AcquisitionRow,
  type LogRow,
  type StoredValue,
} from '../apps/server/src/modules/telemetry/batch-rows';
import {
  acquisitionInsert,
  messageLogInsert,
  telemetryInsert,
} from '../apps/server/src/modules/telemetry/batch-statements';
import type { KnownDevice } from '../apps/server/src/modules/telemetry/device-directory';
import { mergeDeviceLatest } from '../apps/server/src/modules/telemetry/device-latest';
import { addToRollups } from '../apps/server/src/modules/telemetry/rollups';
import { nextId } from '../apps/server/src/platform/db/ids';
import type { BenchModel } from './ingest-model';
import { postgresCpuMs } from './support';

export interface BaselineSettings {
  pool: pg.Pool;
  clusterDir: string;
  batch: number;
  devices: number;
  messages: number;
  /** Times each layout is measured, in alternating order; the least CPU (and best rate) is kept. */
  rounds: number;
}

export interface Baseline {
  name: string;
  rate: number;
  cpuUsPerMessage: { postgres: number; inserter: number };
}

/** One batch as every layout sees it: the server's rows of its messages. */
interface Batch {
  tenant: string;
  rows: BatchRows;
  acquisition: (AcquisitionRow & { id: string })[];
  logs: LogRow[];
}

type Writer = (client: pg.PoolClient, batch: Batch) => Promise<void>;

const counters = () => ({ unknownField: 0, wrongType: 0, badText: 0, aheadOfClock: 0, inexact: 0 });

/** The messages `from` … `from + n - 1` of a tenant, each its own millisecond, built into the server's rows. */
function buildBatch(model: BenchModel, tenant: string, devices: number, from: number, n: number): Batch {
  const now = Date.now();
  const rows = new BatchRows({ now, maxAheadMs: 300_000 });
  const known = Array.from({ length: devices }, (_, d): KnownDevice => ({
    deviceId: String(d + 1),
    tenantId: tenant,
    deviceCode: `D${d}`,
    productId: '1',
    fields: new Map(model.fields.map((f) => [f.field, f])),
    inactivitySeconds: 3600,
  }));
  const acquisition: Batch['acquisition'] = [];
  const logs: LogRow[] = [];
  const count = counters();
  for (let i = 0; i < n; i++) {
    const seq = from + i;
    const d = seq % devices;
    const device = known[d] as KnownDevice;
    const ts = new Date(now - n + i);
    const sent = model.values(d, seq);
    const values: Record<string, StoredValue> = {};
    for (const [name, raw] of Object.entries(sent)) {
      const added = rows.addValue(device, name, raw, ts, count);
      if (typeof added === 'string') throw new Error(`baseline message refused: ${added}`);
      values[added.field] = added.value;
    }
    const topic = `mes/${tenant}/D${d}/telemetry`;
    acquisition.push({
      id: nextId(),
      tenantId: tenant,
      deviceCode: device.deviceCode,
      gateway: '',
      groupId: '',
      collectTime: ts,
      values,
      errors: null,
      topic,
      protocol: 'json',
      seq: null,
    });
    logs.push({
      tenantId: tenant,
      topic,
      clientId: '',
      qos: 1,
      retain: false,
      payload: JSON.stringify({ ts: ts.getTime(), values: sent }),
      deviceCode: device.deviceCode,
      parsedOk: true,
      error: null,
      at: new Date(now),
    });
  }
  return { tenant, rows, acquisition, logs };
}

/** COPY's text format: backslash, tab and line breaks escaped; null as `\N`. */
const copyField = (value: string | null) =>
  value === null
    ? '\\N'
    : value.replace(/[\\\t\n\r]/g, (c) => (c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\\\'));

async function copyLines(client: pg.PoolClient, sql: string, lines: (string | null)[][]): Promise<void> {
  const text = lines.map((cells) => cells.map(copyField).join('\t')).join('\n') + '\n';
  await pipeline(Readable.from([text]), client.query(copyFrom(sql)));
}

/** The values of a message aligned to the model's field order, as an array literal: booleans 1/0, absent null. */
function arrayLiteral(model: BenchModel, values: Readonly<Record<string, StoredValue>>): string {
  const cells = model.fields.map((f) => {
    const v = values[f.field];
    return typeof v === 'string' ? v : 'NULL';
  });
  return `{${cells.join(',')}}`;
}

/** A table of the bench: `mes_acqdata` reduced to key, time and `data_values` of the given type. */
async function createTable(pool: pg.Pool, table: string, valueType: string): Promise<void> {
  await pool.query(`drop table if exists ${table}`);
  await pool.query(
    `create table ${table} (
       id bigint not null, tenant_id varchar(12) not null, device_code varchar(64) not null,
       collect_time timestamp(3) with time zone not null, data_values ${valueType} not null,
       primary key (id, collect_time)
     ) partition by range (collect_time)`,
  );
  await pool.query(`create table ${table}_default partition of ${table} default`);
  await pool.query(`create index on ${table} (tenant_id, device_code, collect_time)`);
  await pool.query(`create index on ${table} (tenant_id, collect_time)`);
  await pool.query(`create index on ${table} (collect_time)`);
}

const ownColumns = 'id, tenant_id, device_code, collect_time, data_values';

/** The bench table's row of each message: id, tenant, device, time and the values as `encode` writes them. */
const ownLines = (batch: Batch, encode: (a: AcquisitionRow) => string) =>
  batch.acquisition.map((a) => [a.id, a.tenantId, a.deviceCode, a.collectTime.toISOString(), encode(a)]);

function layouts(model: BenchModel): { name: string; write: Writer }[] {
  const json = (a: AcquisitionRow) => valuesJson(a.values);
  const array = (a: AcquisitionRow) => arrayLiteral(model, a.values);
  const ownUnnest = (table: string, cast: string): Writer => {
    const text =
      `insert into ${table} (${ownColumns}) select id, t, d, ts, v::${cast} ` +
      `from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::text[]) as u(id, t, d, ts, v)`;
    const encode = cast === 'jsonb' ? json : array;
    return async (client, batch) => {
      const lines = ownLines(batch, encode);
      await client.query(
        text,
        [0, 1, 2, 3, 4].map((c) => lines.map((l) => l[c])),
      );
    };
  };
  const ownCopy =
    (table: string, encode: (a: AcquisitionRow) => string): Writer =>
    (client, batch) =>
      copyLines(client, `copy ${table} (${ownColumns}) from stdin`, ownLines(batch, encode));
  return [
    {
      name: "today's layout: telemetry + rollups + latest + acquisition + message log",
      write: async (client, { rows, acquisition, logs }) => {
        const points = pointsOf(acquisition);
        await client.query(telemetryInsert(points));
        await addToRollups(client, points);
        await mergeDeviceLatest(client, rows.latest);
        await client.query(acquisitionInsert(acquisition));
        await client.query(messageLogInsert(logs));
      },
    },
    {
      name: 'store once: mes_acqdata row, jsonb, unnest INSERT',
      write: async (client, { acquisition }) => {
        await client.query(acquisitionInsert(acquisition));
      },
    },
    {
      name: 'store once: mes_acqdata row, jsonb, COPY text',
      write: (client, { acquisition }) =>
        copyLines(
          client,
          'copy mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol) from stdin',
          acquisition.map((a) => [
            a.id,
            a.tenantId,
            a.deviceCode,
            a.collectTime.toISOString(),
            json(a),
            a.topic,
            a.protocol,
          ]),
        ),
    },
    { name: 'store once: key + jsonb, unnest INSERT', write: ownUnnest('bench_acq_jsonb', 'jsonb') },
    { name: 'store once: key + jsonb, COPY text', write: ownCopy('bench_acq_jsonb', json) },
    { name: 'store once: key + float8[], unnest INSERT', write: ownUnnest('bench_acq_float8', 'float8[]') },
    { name: 'store once: key + float8[], COPY text', write: ownCopy('bench_acq_float8', array) },
    { name: 'store once: key + numeric[], unnest INSERT', write: ownUnnest('bench_acq_numeric', 'numeric[]') },
    { name: 'store once: key + numeric[], COPY text', write: ownCopy('bench_acq_numeric', array) },
  ];
}

async function timeLayout(
  settings: BaselineSettings,
  model: BenchModel,
  tenant: string,
  name: string,
  write: Writer,
): Promise<Baseline> {
  const { pool, clusterDir, batch, devices, messages } = settings;
  // Each layout starts from a clean slate: the earlier layouts' rows vacuumed and their dirty pages
  // flushed, so neither autovacuum nor the checkpointer works on another layout's time (both count
  // in PostgreSQL's CPU).
  await pool.query('vacuum analyze');
  await pool.query('checkpoint');
  const client = await pool.connect();
  const started = Date.now();
  const dbBefore = postgresCpuMs(clusterDir) ?? 0;
  const benchBefore = process.cpuUsage();
  try {
    for (let from = 0; from < messages; from += batch) {
      const built = buildBatch(model, tenant, devices, from, Math.min(batch, messages - from));
      await client.query('begin');
      await write(client, built);
      await client.query('commit');
    }
  } finally {
    client.release();
  }
  const seconds = (Date.now() - started) / 1000;
  const benchCpu = process.cpuUsage(benchBefore);
  return {
    name,
    rate: messages / seconds,
    cpuUsPerMessage: {
      postgres: (((postgresCpuMs(clusterDir) ?? 0) - dbBefore) * 1000) / messages,
      inserter: (benchCpu.user + benchCpu.system) / messages,
    },
  };
}

/**
 * Every layout `rounds` times, in one run, forward then backward, so that a drift of the machine's
 * load weighs on all alike; per layout the round with the least PostgreSQL CPU is kept (the other
 * work of the shared machine only ever adds). The first is today's layout, which the others are
 * compared with.
 */
export async function runBaselines(settings: BaselineSettings, model: BenchModel): Promise<Baseline[]> {
  await createTable(settings.pool, 'bench_acq_jsonb', 'jsonb');
  await createTable(settings.pool, 'bench_acq_float8', 'float8[]');
  await createTable(settings.pool, 'bench_acq_numeric', 'numeric[]');
  const all = layouts(model);
  const best = new Map<number, Baseline>();
  let run = 0;
  for (let round = 0; round < settings.rounds; round++) {
    const order = all.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) {
      const { name, write } = all[i] as (typeof all)[number];
      const measured = await timeLayout(settings, model, `b${model.name.slice(0, 2)}${run++}`, name, write);
      const kept = best.get(i);
      best.set(
        i,
        kept && kept.cpuUsPerMessage.postgres <= measured.cpuUsPerMessage.postgres
          ? { ...kept, rate: Math.max(kept.rate, measured.rate) }
          : { ...measured, rate: Math.max(kept?.rate ?? 0, measured.rate) },
      );
    }
  }
  return all.map((_, i) => best.get(i) as Baseline);
}
