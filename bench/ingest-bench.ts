/**
 * `npm run bench:ingest`: sustained MQTT ingestion at QoS 1 (docs/ingest-performance.md), in one run:
 *
 * 1. bare-insert baselines (bench/ingest-baselines.ts): the rows of the same messages inserted
 *    from the bench process in batches, one transaction each — today's layout (a telemetry row per
 *    point, rollups, latest values, acquisition and message-log rows; ingestion's own statements)
 *    and the "store once" candidates (one row per message, jsonb or a numeric array, by unnest
 *    INSERT or COPY);
 * 2. ingestion through a Mosquitto of the bench's own (`/usr/sbin/mosquitto` on a free port, with
 *    the inflight window and queue of docs/mqtt.md), the server's external subscriber on a shared
 *    subscription;
 * 3. ingestion through the embedded broker (aedes; each publisher is a device);
 * 4. memory of the ingesting process while PostgreSQL is paused (SIGSTOP) for `BENCH_PAUSE_S`
 *    (30) seconds under a steady load, through Mosquitto and through the embedded broker.
 *
 * The messages are real reports of a demo product (bench/ingest-model.ts): WL-PRO's 10 model
 * fields by default, ST-B23's 8 with `BENCH_MODEL=st-b23` (`wl-pro,st-b23` runs both), the
 * simulator's values as the simulator sends them, and the devices have that product's model,
 * alarm rules and PLC limits. Every message carries a sequence number (in the model's
 * `cycleCount`); at the end of each run the stored reports are counted per sequence number
 * (`storedCopies`): lost = acknowledged but not stored, duplicated = stored more than once.
 *
 * The ingestion runs in a child process (apps/server/test/support/ingest-process.ts bundled to
 * plain JS: `startMqtt` of the server's code, the server's tuning), so its CPU and memory are its
 * own and can be sampled apart from the publishers (mqtt.js clients in this process), Mosquitto and
 * PostgreSQL (an embedded cluster the bench starts, so it can be paused). CPU time of each is
 * printed per message and per point (a model field of a message): on the shared 2-core machine
 * rates swing with the other work, CPU per message much less.
 *
 * `BENCH_MESSAGES` (200,000) per throughput run, `BENCH_PUBLISHERS` (4), `BENCH_WINDOW` (1,000
 * unacknowledged per publisher), `BENCH_BATCH` (2,000 messages per transaction), `BENCH_PAUSE_S`
 * (30), `BENCH_PAUSE_RATE` (5,000 msg/s during the pause), `BENCH_PARTS` (`bare,mosquitto,embedded,pause`),
 * `BENCH_MODEL` (`wl-pro`), `BENCH_ROUNDS` (2 rounds of the baselines), `BENCH_PROFILE=<dir>` writes CPU profiles of the ingesting process.
 * `BENCH_ALARMS=0` leaves the bench's devices without product, device rows and alarm rules (the
 * alarm engine then finds no device).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { nextId } from '../apps/server/src/platform/db/ids';
import { bundleIngestProcess, IngestChild } from '../apps/server/test/support/ingest-child';
import { startBenchPostgres } from './bench-postgres';
import { runBaselines, type Baseline } from './ingest-baselines';
import { benchModel, parseModelNames, SEQUENCE_FIELD, type BenchModel } from './ingest-model';
import { freePort, loadAverage, postgresCpuMs, processCpuMs } from './support';

const env = process.env;
const MESSAGES = Number(env.BENCH_MESSAGES ?? 200_000);
const PUBLISHERS = Number(env.BENCH_PUBLISHERS ?? 4);
const WINDOW = Number(env.BENCH_WINDOW ?? 1000);
const BATCH = Number(env.BENCH_BATCH ?? 2000);
const PAUSE_S = Number(env.BENCH_PAUSE_S ?? 30);
const PAUSE_RATE = Number(env.BENCH_PAUSE_RATE ?? 5000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 2);
const parts = new Set((env.BENCH_PARTS ?? 'bare,mosquitto,embedded,pause').split(','));
const models = parseModelNames(env.BENCH_MODEL ?? 'wl-pro').map((name) => benchModel(name, PUBLISHERS));
const profileDir = env.BENCH_PROFILE ? path.resolve(env.BENCH_PROFILE) : undefined;

// ---------------------------------------------------------------- PostgreSQL, the ingesting process

const { work, embedded, databaseUrl, clusterDir } = await startBenchPostgres('mes-ingest-bench-');
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
// The cluster stops at the end (and is paused on purpose): an idle client's error is expected.
pool.on('error', () => undefined);
// An experiment on the schema (an index dropped, a setting): run once after the migrations.
if (env.BENCH_SETUP_SQL) await pool.query(env.BENCH_SETUP_SQL);

const entry = await bundleIngestProcess('bench');

/** The ingesting process: its reports (every 250 ms) and its CPU time. */
class Ingester extends IngestChild {
  constructor(name: string, model: BenchModel, extra: Record<string, string>) {
    const flags = [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : []),
      ...(env.BENCH_NODE_FLAGS ? env.BENCH_NODE_FLAGS.split(' ') : []),
    ];
    super(
      entry,
      {
        DATABASE_URL: databaseUrl,
        DEVICES: String(PUBLISHERS),
        FIELDS: JSON.stringify(model.fields),
        BATCH_SIZE: String(BATCH),
        BATCH_DELAY_MS: '20',
        MAX_QUEUE: String(Math.max(4 * BATCH, 10_000)),
        RECEIVE_MAXIMUM: '8192',
        REPORT_MS: '250',
        ...extra,
      },
      flags,
    );
  }
  cpuMs(): number {
    return processCpuMs(this.child.pid) ?? 0;
  }
}

// ------------------------------------------------------------------------------- publishers

/** Message `seq` of device `D{device}`: a report of the model as the simulator sends it. */
const payload = (model: BenchModel, device: number, seq: number) =>
  JSON.stringify({ ts: Date.now(), values: model.values(device, seq) });

interface PublishTarget {
  url: string;
  tenant: string;
  /** Client options of publisher `p` (the embedded broker wants device credentials). */
  client(p: number): mqtt.IClientOptions;
}

/** Connects the publishers (device `D{p}` each). */
async function connectPublishers(target: PublishTarget): Promise<MqttClient[]> {
  return Promise.all(
    Array.from({ length: PUBLISHERS }, (_, p) =>
      mqtt.connectAsync(target.url, { protocolVersion: 4, reconnectPeriod: 0, keepalive: 120, ...target.client(p) }),
    ),
  );
}

/**
 * Publishes sequence numbers `from` … `from + count - 1` split over the publishers, each keeping
 * up to `WINDOW` unacknowledged; `rate` (msg/s over all) paces them, else as fast as acks allow.
 * Resolves with the number of PUBACKs received.
 */
async function publish(
  clients: MqttClient[],
  tenant: string,
  model: BenchModel,
  from: number,
  count: number,
  rate?: number,
  until?: () => boolean,
): Promise<number> {
  let acked = 0;
  const per = Math.ceil(count / clients.length);
  await Promise.all(
    clients.map(
      (client, p) =>
        new Promise<void>((resolve) => {
          const topic = `mes/${tenant}/D${p}/telemetry`;
          const first = from + p * per;
          const end = Math.min(from + count, first + per);
          let next = first;
          let outstanding = 0;
          let allowance = rate ? 0 : Infinity;
          const pump = () => {
            while (outstanding < WINDOW && next < end && allowance >= 1 && !until?.()) {
              allowance--;
              outstanding++;
              client.publish(topic, payload(model, p, next++), { qos: 1 }, (error) => {
                outstanding--;
                if (!error) acked++;
                if ((next >= end || until?.()) && outstanding === 0) resolve();
                else pump();
              });
            }
            if ((next >= end || until?.()) && outstanding === 0) resolve();
          };
          if (rate) {
            const tick = setInterval(() => {
              if (next >= end || until?.()) {
                clearInterval(tick);
                return pump();
              }
              allowance = Math.min(allowance + rate / clients.length / 100, WINDOW);
              pump();
            }, 10);
          }
          pump();
        }),
    ),
  );
  return acked;
}

// ------------------------------------------------------------------------------- accounting

/**
 * How many times each message of a tenant was stored, summed: `rows` (stored copies) and `distinct`
 * (messages stored at least once); lost = acknowledged − distinct, duplicated = rows − distinct.
 *
 * Counted on the acquisition data, one row per stored report whatever else the storage writes:
 * today beside a telemetry row per point (`mes_telemetry`), after the storage redesign alone, with
 * the report's values in `data_values` (jsonb). The sequence number rides in a model field
 * (`SEQUENCE_FIELD`), so it is in those values. If the values move to another column or table,
 * this query is the one place to change.
 */
async function storedCopies(tenant: string): Promise<{ rows: number; distinct: number }> {
  const { rows } = await pool.query<{ rows: string; distinct: string }>(
    `select count(data_values ->> $2) as rows, count(distinct data_values ->> $2) as distinct
       from mes_acqdata where tenant_id = $1`,
    [tenant, SEQUENCE_FIELD],
  );
  return { rows: Number(rows[0]?.rows), distinct: Number(rows[0]?.distinct) };
}

/** Stored copies, reports with refused values (the model's checks: none expected), message-log rows. */
async function account(tenant: string): Promise<{ rows: number; distinct: number; refused: number; logs: number }> {
  const copies = await storedCopies(tenant);
  const r = await pool.query<{ n: string }>(
    'select count(*) as n from mes_acqdata where tenant_id = $1 and errors is not null',
    [tenant],
  );
  const l = await pool.query<{ n: string }>('select count(*) as n from mes_mqtt_message where tenant_id = $1', [
    tenant,
  ]);
  return { ...copies, refused: Number(r.rows[0]?.n), logs: Number(l.rows[0]?.n) };
}

/**
 * The rollups against the raw points: per-minute and per-quarter-hour rows that differ from the
 * buckets of the tenant's stored points (count, exact sum, extremes), each way. 0 when exact.
 */
async function rollupMismatches(tenant: string): Promise<{ minute: number; quarter: number }> {
  const level = async (table: string, column: string, bucket: string) => {
    const { rows } = await pool.query<{ n: string }>(
      `with raw as (
         select device_code, field, ${bucket} as at, count(*)::int as points, sum(num_value) as total,
                min(num_value) as low, max(num_value) as high
           from mes_telemetry where tenant_id = $1 and num_value is not null
          group by 1, 2, 3),
       rolled as (
         select device_code, field, ${column} as at, points, total, low, high from ${table} where tenant_id = $1)
       select count(*) as n from ((table raw except table rolled) union all (table rolled except table raw)) d`,
      [tenant],
    );
    return Number(rows[0]?.n);
  };
  return {
    minute: await level('mes_telemetry_minute', 'minute', "date_trunc('minute', ts)"),
    quarter: await level(
      'mes_telemetry_quarter',
      'quarter',
      "date_bin('15 minutes', ts, timestamptz '1970-01-01 00:00:00+00')",
    ),
  };
}

/** Waits until the ingester has stored `count` messages, or its count stops moving for 10 s. */
async function settle(ingester: Ingester, count: number): Promise<number> {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const stored = ingester.last.stored ?? 0;
    if (stored >= count) return Date.now();
    if (stored !== last) {
      last = stored;
      since = Date.now();
    } else if (Date.now() - since > 10_000) return Date.now();
    await new Promise((r) => setTimeout(r, 20));
  }
}

const cpu = () => ({
  ingester: 0,
  bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  postgres: postgresCpuMs(clusterDir) ?? 0,
  mosquitto: 0,
});

interface Throughput {
  name: string;
  /** Model fields per message. */
  fields: number;
  messages: number;
  acked: number;
  seconds: number;
  rate: number;
  lost: number;
  duplicated: number;
  cpuUsPerMessage: Record<string, number>;
  maxQueued: number;
  peakRssMb: number;
}

// ------------------------------------------------------------------------------- Mosquitto

let mosquitto: ChildProcess | undefined;
async function startMosquitto(): Promise<number> {
  const port = await freePort();
  const conf = path.join(work, 'mosquitto.conf');
  // The settings docs/mqtt.md recommends: a wide inflight window, a deep queue, no disk.
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_inflight_messages 0',
      'max_queued_messages 2000000',
      'max_queued_bytes 0',
      'set_tcp_nodelay true',
      'log_dest none',
      '',
    ].join('\n'),
  );
  mosquitto = spawn('/usr/sbin/mosquitto', ['-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = mqtt.connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 500 });
      c.once('connect', () => c.end(true, {}, () => resolve(true)));
      c.once('error', () => c.end(true, {}, () => resolve(false)));
    });
    if (ok) return port;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('mosquitto did not start');
}

// ------------------------------------------------------------------------------- runs

/**
 * The devices `D0` … of a tenant with the demo product of the model, as the seed gives it
 * (seed/demo-devices.ts): its fields, its alarm rules (docs/warnings.md) and its PLC variables'
 * limits, which the alarm engine evaluates on every value. The simulator's values trip some of
 * them now and then (a low chlorine, a fault code), as on the demo devices.
 */
async function seedAlarmRules(tenant: string, model: BenchModel): Promise<void> {
  if (env.BENCH_ALARMS === '0') return;
  const { product } = model;
  const productId = nextId();
  await pool.query(
    `insert into mes_product (id, tenant_id, product_code, product_name, inactivity_seconds) values ($1, $2, $3, $4, $5)`,
    [productId, tenant, product.productCode, product.productName, product.inactivitySeconds],
  );
  for (const f of product.fields)
    await pool.query(
      `insert into mes_product_field (id, tenant_id, product_id, field_key, field_name, data_type, unit, precision)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [nextId(), tenant, productId, f.fieldKey, f.fieldName, f.dataType, f.unit, f.precision],
    );
  for (const r of product.alarmRules)
    await pool.query(
      `insert into mes_product_alarm_rule (id, tenant_id, product_id, rule_type, field_key, operator, threshold, duration_seconds, level)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [nextId(), tenant, productId, r.ruleType, r.fieldKey, r.operator, r.threshold, r.durationSeconds, r.level],
    );
  for (const v of product.plcVariables)
    await pool.query(
      `insert into mes_plc_variable (id, tenant_id, product_id, name, label, limit_hh, limit_h, limit_l, limit_ll)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        nextId(),
        tenant,
        productId,
        v.name,
        v.label,
        v.limits?.hh ?? null,
        v.limits?.h ?? null,
        v.limits?.l ?? null,
        v.limits?.ll ?? null,
      ],
    );
  for (let p = 0; p < PUBLISHERS; p++)
    await pool.query(
      `insert into mes_device (id, tenant_id, device_code, device_name, product_id, mqtt_client_id) values ($1, $2, $3, $3, $4, $5)`,
      [nextId(), tenant, `D${p}`, productId, `bench-${tenant}-D${p}`],
    );
}

/** Warnings the run raised, and how often they repeated (the flood control at work). */
async function warningCount(tenant: string): Promise<{ rows: number; raises: number }> {
  const { rows } = await pool.query<{ rows: string; raises: string }>(
    `select count(*) as rows, coalesce(sum(repeat_count), 0) as raises from mes_warning where tenant_id = $1`,
    [tenant],
  );
  return { rows: Number(rows[0]?.rows), raises: Number(rows[0]?.raises) };
}

async function throughput(
  name: string,
  tenant: string,
  via: 'mosquitto' | 'embedded',
  model: BenchModel,
  brokerPort?: number,
) {
  await seedAlarmRules(tenant, model);
  const ingester = new Ingester(
    `${via}-${model.name}`,
    model,
    via === 'mosquitto'
      ? {
          TENANT: tenant,
          MQTT_URL: `mqtt://127.0.0.1:${brokerPort}`,
          CLIENT_ID: `bench-${tenant}`,
          // A group of its own: an earlier run's session, kept by the broker after it stopped, would
          // otherwise go on taking its share (docs/mqtt.md, persistent session).
          SHARE_GROUP: `bench-${tenant}`,
        }
      : { TENANT: tenant, MQTT_URL: '', MQTT_PORT: '0' },
  );
  let peakRss = 0;
  ingester.onStatus((s) => (peakRss = Math.max(peakRss, s.rss ?? 0)));
  await ingester.ready;
  const port = via === 'mosquitto' ? brokerPort : ingester.last.port;
  const clients = await connectPublishers({
    url: `mqtt://127.0.0.1:${port}`,
    tenant,
    client: (p) => (via === 'embedded' ? { clientId: `dev-D${p}`, username: `dev-D${p}`, password: 'secret' } : {}),
  });
  // A short warm-up (JIT, connections, partitions), not counted.
  const warm = Math.min(10_000, MESSAGES / 10);
  await publish(clients, tenant, model, 0, warm);
  await settle(ingester, warm);
  const before = { ...cpu(), ingester: ingester.cpuMs(), mosquitto: processCpuMs(mosquitto?.pid) ?? 0 };
  const storedBefore = ingester.last.stored ?? 0;
  const started = Date.now();
  const acked = await publish(clients, tenant, model, warm, MESSAGES);
  const ended = await settle(ingester, storedBefore + MESSAGES);
  const after = { ...cpu(), ingester: ingester.cpuMs(), mosquitto: processCpuMs(mosquitto?.pid) ?? 0 };
  await Promise.all(clients.map((c) => c.endAsync()));
  const maxQueued = ingester.last.maxQueued ?? 0;
  await ingester.stop();
  const counted = await account(tenant);
  const stored = counted.distinct;
  const seconds = (ended - started) / 1000;
  const per = (k: keyof typeof before) => ((after[k] - before[k]) * 1000) / MESSAGES;
  const result: Throughput = {
    name,
    fields: model.fields.length,
    messages: MESSAGES,
    acked: acked + warm,
    seconds,
    rate: (stored - storedBefore) / seconds,
    lost: Math.max(0, acked + warm - stored),
    duplicated: counted.rows - counted.distinct,
    cpuUsPerMessage: {
      ingester: per('ingester'),
      postgres: per('postgres'),
      publishers: per('bench'),
      ...(via === 'mosquitto' ? { mosquitto: per('mosquitto') } : {}),
    },
    maxQueued,
    peakRssMb: peakRss / 2 ** 20,
  };
  if (counted.logs !== counted.rows) console.warn(`${name}: ${counted.logs} log rows for ${counted.rows} messages`);
  if (counted.refused) console.warn(`${name}: ${counted.refused} reports with refused values`);
  const mismatches = await rollupMismatches(tenant);
  console.log(
    `${name}: rollups against the raw points: ${mismatches.minute} minute and ${mismatches.quarter} quarter rows differ`,
  );
  if (env.BENCH_ALARMS !== '0') {
    const warnings = await warningCount(tenant);
    console.log(`${name}: alarm rules fired ${warnings.raises} times into ${warnings.rows} warning rows`);
  }
  return result;
}

/** SIGSTOP / SIGCONT to every process of the PostgreSQL cluster (postmaster and its children). */
function signalPostgres(signal: 'SIGSTOP' | 'SIGCONT'): void {
  const postmaster = Number.parseInt(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8'), 10);
  const pids = [postmaster];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(postmaster)) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  // Children first on stop, the postmaster first on continue: none sees the other half-stopped for long.
  for (const pid of signal === 'SIGSTOP' ? pids.reverse() : pids) process.kill(pid, signal);
}

async function pause(name: string, tenant: string, via: 'mosquitto' | 'embedded', brokerPort?: number) {
  const model = models[0] as BenchModel;
  await seedAlarmRules(tenant, model);
  const ingester = new Ingester(
    `pause-${via}`,
    model,
    via === 'mosquitto'
      ? {
          TENANT: tenant,
          MQTT_URL: `mqtt://127.0.0.1:${brokerPort}`,
          CLIENT_ID: `bench-${tenant}`,
          SHARE_GROUP: `bench-${tenant}`,
          REPORT_MS: '1000',
        }
      : { TENANT: tenant, MQTT_URL: '', MQTT_PORT: '0', REPORT_MS: '1000' },
  );
  await ingester.ready;
  const port = via === 'mosquitto' ? brokerPort : ingester.last.port;
  const clients = await connectPublishers({
    url: `mqtt://127.0.0.1:${port}`,
    tenant,
    client: (p) => (via === 'embedded' ? { clientId: `dev-D${p}`, username: `dev-D${p}`, password: 'secret' } : {}),
  });
  type Phase = 'baseline' | 'paused' | 'after';
  let phase: Phase = 'baseline' as Phase;
  const samples: Record<Phase, { rss: number; heap: number; queued: number }[]> = {
    baseline: [],
    paused: [],
    after: [],
  };
  ingester.onStatus((s) => samples[phase].push({ rss: s.rss ?? 0, heap: s.heapUsed ?? 0, queued: s.queued ?? 0 }));
  let stopPublishing = false;
  const total = PAUSE_RATE * (PAUSE_S + 20);
  const publishing = publish(clients, tenant, model, 0, total, PAUSE_RATE, () => stopPublishing);
  await new Promise((r) => setTimeout(r, 8000));
  phase = 'paused';
  signalPostgres('SIGSTOP');
  await new Promise((r) => setTimeout(r, PAUSE_S * 1000));
  signalPostgres('SIGCONT');
  phase = 'after';
  await new Promise((r) => setTimeout(r, 5000));
  stopPublishing = true;
  const acked = await publishing;
  await Promise.all(clients.map((c) => c.endAsync()));
  // Mosquitto may still hold what it queued during the pause: wait until the count stops moving.
  const debug = env.BENCH_DEBUG ? setInterval(() => console.log(JSON.stringify(ingester.last)), 1000) : undefined;
  await settle(ingester, acked);
  clearInterval(debug);
  const maxQueued = ingester.last.maxQueued ?? 0;
  const pauses = ingester.last.pauses ?? 0;
  await ingester.stop();
  const counted = await account(tenant);
  const peak = (list: { rss: number; heap: number }[], k: 'rss' | 'heap') =>
    list.reduce((m, s) => Math.max(m, s[k]), 0) / 2 ** 20;
  const mean = (list: { rss: number; heap: number }[], k: 'rss' | 'heap') =>
    list.reduce((m, s) => m + s[k], 0) / Math.max(1, list.length) / 2 ** 20;
  return {
    name,
    acked,
    lost: Math.max(0, acked - counted.distinct),
    duplicated: counted.rows - counted.distinct,
    baselineRssMb: mean(samples.baseline, 'rss'),
    pausedPeakRssMb: peak(samples.paused, 'rss'),
    baselineHeapMb: mean(samples.baseline, 'heap'),
    pausedPeakHeapMb: peak(samples.paused, 'heap'),
    maxQueued,
    pauses,
    rssBySecond: samples.paused.map((s) => Math.round(s.rss / 2 ** 20)),
  };
}

// ------------------------------------------------------------------------------- main

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const modelLine = models.map((m) => `${m.product.productCode}: ${m.fields.length} model fields per message`).join('; ');
console.log(
  `ingest bench: ${modelLine}; ${MESSAGES.toLocaleString('en-US')} messages per run, ${PUBLISHERS} publishers × window ${WINDOW}, ` +
    `batches of ${BATCH}, ${os.cpus().length} cores (shared: figures taken under the machine's other load; load average ${loadAverage()})`,
);
/** A run's name with its model, e.g. `WL-PRO (10 fields): through Mosquitto`. */
const named = (model: BenchModel, run: string) =>
  `${model.product.productCode} (${model.fields.length} fields): ${run}`;
/** The goal of issue 27: server + PostgreSQL CPU per 10-field WL-PRO message through Mosquitto. */
const GOAL_US = 20;
try {
  const results: (Throughput & { model: BenchModel })[] = [];
  const baselines: { model: BenchModel; runs: Baseline[] }[] = [];
  if (parts.has('bare'))
    for (const model of models)
      baselines.push({
        model,
        runs: await runBaselines(
          { pool, clusterDir, batch: BATCH, devices: PUBLISHERS, messages: MESSAGES, rounds: ROUNDS },
          model,
        ),
      });
  let brokerPort: number | undefined;
  if (parts.has('mosquitto') || parts.has('pause')) brokerPort = await startMosquitto();
  for (const model of models) {
    const tag = model.name === 'wl-pro' ? 'wl' : 'st';
    if (parts.has('mosquitto'))
      results.push({
        model,
        ...(await throughput(
          named(model, 'through Mosquitto (external subscriber)'),
          `mq${tag}`,
          'mosquitto',
          model,
          brokerPort,
        )),
      });
    if (parts.has('embedded'))
      results.push({
        model,
        ...(await throughput(named(model, 'through the embedded broker (aedes)'), `em${tag}`, 'embedded', model)),
      });
  }
  /** Today's layout of the same model, the bare insert every run is compared with. */
  const today = (model: BenchModel) => baselines.find((b) => b.model === model)?.runs[0];
  const times = (rate: number, base: Baseline | undefined) => (base ? fmt(rate / base.rate, 2) : '');

  console.log(`\nThroughput (QoS 1, every message accounted for in PostgreSQL; load average now ${loadAverage()})`);
  console.log(
    "| run | msg/s | × today's bare | lost | dup | max queued | peak RSS MB | CPU µs/msg: ingester | postgres | publishers | mosquitto |",
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const { model, runs } of baselines)
    for (const b of runs)
      console.log(
        `| ${named(model, `bare insert, ${b.name}`)} | ${fmt(b.rate)} | ${times(b.rate, runs[0])} | | | | | ${fmt(b.cpuUsPerMessage.inserter, 1)} (inserter) | ${fmt(b.cpuUsPerMessage.postgres, 1)} | | |`,
      );
  for (const r of results)
    console.log(
      `| ${r.name} | ${fmt(r.rate)} | ${times(r.rate, today(r.model))} | ${r.lost} | ${r.duplicated} | ${fmt(r.maxQueued)} | ${fmt(r.peakRssMb)} | ${fmt(r.cpuUsPerMessage.ingester ?? 0, 1)} | ${fmt(r.cpuUsPerMessage.postgres ?? 0, 1)} | ${fmt(r.cpuUsPerMessage.publishers ?? 0, 1)} | ${r.cpuUsPerMessage.mosquitto === undefined ? '' : fmt(r.cpuUsPerMessage.mosquitto, 1)} |`,
    );

  if (results.length) {
    console.log(
      `\nServer and PostgreSQL CPU per message and per point (a point: one model field of a message; goal ≤ ${GOAL_US} µs per WL-PRO message, server + PostgreSQL)`,
    );
    console.log(
      '| run | points/msg | server µs/msg | server µs/point | PostgreSQL µs/msg | PostgreSQL µs/point | server + PostgreSQL µs/msg | × goal |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const r of results) {
      const server = r.cpuUsPerMessage.ingester ?? 0;
      const database = r.cpuUsPerMessage.postgres ?? 0;
      console.log(
        `| ${r.name} | ${r.fields} | ${fmt(server, 1)} | ${fmt(server / r.fields, 2)} | ${fmt(database, 1)} | ${fmt(database / r.fields, 2)} | ${fmt(server + database, 1)} | ${fmt((server + database) / GOAL_US, 1)} |`,
      );
    }
  }

  for (const { model, runs } of baselines) {
    const base = runs[0] as Baseline;
    console.log(
      `\nBare-insert baselines, ${named(model, `${fmt(MESSAGES)} messages`)} in batches of ${BATCH}, one transaction each, from the bench process; ` +
        `each layout ${ROUNDS} times, the round with the least PostgreSQL CPU shown`,
    );
    console.log(
      "| layout | msg/s | × today's rate | PostgreSQL µs/msg | PostgreSQL µs/point | PostgreSQL ÷ today's | inserter µs/msg |",
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const b of runs)
      console.log(
        `| ${b.name} | ${fmt(b.rate)} | ${fmt(b.rate / base.rate, 2)} | ${fmt(b.cpuUsPerMessage.postgres, 1)} | ${fmt(b.cpuUsPerMessage.postgres / model.fields.length, 2)} | ${fmt(b.cpuUsPerMessage.postgres / base.cpuUsPerMessage.postgres, 2)} | ${fmt(b.cpuUsPerMessage.inserter, 1)} |`,
      );
  }

  if (parts.has('pause')) {
    const paused = [];
    if (!parts.has('pause-embedded-only'))
      paused.push(await pause(`Mosquitto, PostgreSQL stopped ${PAUSE_S} s`, 'mq2', 'mosquitto', brokerPort));
    if (!parts.has('pause-mosquitto-only'))
      paused.push(await pause(`embedded, PostgreSQL stopped ${PAUSE_S} s`, 'em2', 'embedded'));
    console.log(`\nMemory of the ingesting process, ${fmt(PAUSE_RATE)} msg/s offered, PostgreSQL paused (SIGSTOP)`);
    console.log(
      '| run | acked | lost | dup | RSS MB baseline → peak | heap MB baseline → peak | max queued | read pauses |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const p of paused)
      console.log(
        `| ${p.name} | ${fmt(p.acked)} | ${p.lost} | ${p.duplicated} | ${fmt(p.baselineRssMb)} → ${fmt(p.pausedPeakRssMb)} | ${fmt(p.baselineHeapMb)} → ${fmt(p.pausedPeakHeapMb)} | ${fmt(p.maxQueued)} | ${p.pauses} |`,
      );
    for (const p of paused) console.log(`RSS MB each second while paused (${p.name}): ${p.rssBySecond.join(' ')}`);
  }
} finally {
  mosquitto?.kill('SIGTERM');
  await pool.end();
  await embedded.stop();
  fs.rmSync(entry, { force: true });
  fs.rmSync(work, { recursive: true, force: true });
}
