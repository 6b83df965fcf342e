/**
 * `npm run bench:ingest`: sustained MQTT ingestion at QoS 1 (docs/ingest-performance.md), in one run:
 *
 * 1. the bare batched insert of the same rows into the same tables (telemetry, latest values,
 *    message log; one transaction per batch, the unnest INSERTs of ingestion.ts) — the baseline,
 *    with two variants that show where the database time goes (without the message log row, and
 *    telemetry alone);
 * 2. ingestion through a Mosquitto of the bench's own (`/usr/sbin/mosquitto` on a free port, with
 *    the inflight window and queue of docs/mqtt.md), the server's external subscriber on a shared
 *    subscription;
 * 3. ingestion through the embedded broker (aedes; each publisher is a device);
 * 4. memory of the ingesting process while PostgreSQL is paused (SIGSTOP) for `BENCH_PAUSE_S`
 *    (30) seconds under a steady load, through Mosquitto and through the embedded broker.
 *
 * Every published message carries a sequence number; at the end of each run the rows in
 * PostgreSQL are counted: lost = acknowledged but not stored, duplicated = stored more than once.
 *
 * The ingestion runs in a child process (apps/server/test/support/ingest-process.ts bundled to
 * plain JS: `startMqtt` of the server's code, the server's tuning), so its CPU and memory are its
 * own and can be sampled apart from the publishers (mqtt.js clients in this process), Mosquitto and
 * PostgreSQL (an embedded cluster the bench starts, so it can be paused). CPU time of each is
 * printed per message: on the shared 2-core machine rates swing with the other work, CPU per
 * message much less.
 *
 * `BENCH_MESSAGES` (200,000) per throughput run, `BENCH_PUBLISHERS` (4), `BENCH_WINDOW` (1,000
 * unacknowledged per publisher), `BENCH_BATCH` (2,000 messages per transaction), `BENCH_PAUSE_S`
 * (30), `BENCH_PAUSE_RATE` (5,000 msg/s during the pause), `BENCH_PARTS` (`bare,mosquitto,embedded,pause`),
 * `BENCH_PROFILE=<dir>` writes CPU profiles of the ingesting process. `BENCH_ALARMS=0` leaves the
 * bench's devices without product, device rows and alarm rules (the alarm engine then finds no
 * device); by default each tenant's devices get a product whose rules are evaluated on every value
 * and rarely fire (see `seedAlarmRules`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import type { TelemetryRow } from '../apps/server/src/modules/telemetry/batch-rows';
import { messageLogInsert, telemetryInsert } from '../apps/server/src/modules/telemetry/batch-statements';
import { latestByDevice, latestMerge } from '../apps/server/src/modules/telemetry/device-latest';
import { nextId } from '../apps/server/src/platform/db/ids';
import { bundleIngestProcess, IngestChild } from '../apps/server/test/support/ingest-child';
import { startBenchPostgres } from './bench-postgres';
import { freePort, postgresCpuMs, processCpuMs } from './support';

const env = process.env;
const MESSAGES = Number(env.BENCH_MESSAGES ?? 200_000);
const PUBLISHERS = Number(env.BENCH_PUBLISHERS ?? 4);
const WINDOW = Number(env.BENCH_WINDOW ?? 1000);
const BATCH = Number(env.BENCH_BATCH ?? 2000);
const PAUSE_S = Number(env.BENCH_PAUSE_S ?? 30);
const PAUSE_RATE = Number(env.BENCH_PAUSE_RATE ?? 5000);
const parts = new Set((env.BENCH_PARTS ?? 'bare,mosquitto,embedded,pause').split(','));
const profileDir = env.BENCH_PROFILE ? path.resolve(env.BENCH_PROFILE) : undefined;

// ---------------------------------------------------------------- PostgreSQL, the ingesting process

const { work, embedded, databaseUrl, clusterDir } = await startBenchPostgres('mes-ingest-bench-');
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
// The cluster stops at the end (and is paused on purpose): an idle client's error is expected.
pool.on('error', () => undefined);

const entry = await bundleIngestProcess('bench');

/** The ingesting process: its reports (every 250 ms) and its CPU time. */
class Ingester extends IngestChild {
  constructor(name: string, extra: Record<string, string>) {
    const flags = profileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
      : [];
    super(
      entry,
      {
        DATABASE_URL: databaseUrl,
        DEVICES: String(PUBLISHERS),
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

const payload = (seq: number) => JSON.stringify({ ts: Date.now(), values: { v: (seq % 1000) / 10, n: seq } });

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
              client.publish(topic, payload(next++), { qos: 1 }, (error) => {
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

async function account(tenant: string): Promise<{ rows: number; distinct: number; logs: number }> {
  const t = await pool.query<{ rows: string; distinct: string }>(
    `select count(*) as rows, count(distinct num_value) as distinct from mes_telemetry where tenant_id = $1 and field = 'n'`,
    [tenant],
  );
  const l = await pool.query<{ n: string }>('select count(*) as n from mes_mqtt_message where tenant_id = $1', [
    tenant,
  ]);
  return { rows: Number(t.rows[0]?.rows), distinct: Number(t.rows[0]?.distinct), logs: Number(l.rows[0]?.n) };
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
 * The devices `D0` … of a tenant with a product whose alarm rules (docs/warnings.md) watch both
 * fields on every message and rarely fire: `v > 99.85` fires when `v` (seq % 1000 / 10) reaches
 * 99.9, once per 1,000 messages of a device, and clears on the next (the same row re-opened each
 * time: repeat count); the others never fire (a 30 s hold above 1,000, a concentration below −1,
 * a rate of `n` above 10^9 per minute, the PLC limits of `n`), plus an offline and a cycle rule.
 */
async function seedAlarmRules(tenant: string): Promise<void> {
  if (env.BENCH_ALARMS === '0') return;
  const productId = nextId();
  await pool.query(
    `insert into mes_product (id, tenant_id, product_code, product_name, inactivity_seconds) values ($1, $2, 'BENCH', 'bench', 3600)`,
    [productId, tenant],
  );
  await pool.query(
    `insert into mes_product_field (id, tenant_id, product_id, field_key, field_name, data_type, unit, precision)
     values ($1, $3, $4, 'v', '数值', 'float', '', 3), ($2, $3, $4, 'n', '序号', 'int', '', 0)`,
    [nextId(), nextId(), tenant, productId],
  );
  const rules: [string, string, string, string | null, number, number][] = [
    ['threshold', 'v', '>', '99.85', 0, 3],
    ['threshold', 'v', '>', '1000', 30, 2],
    ['concentration', 'v', '<', '-1', 0, 2],
    ['rate', 'n', '>', '1000000000', 0, 3],
    ['offline', '', '>', null, 600, 2],
    ['cycle', '', '>', null, 0, 2],
  ];
  for (const [type, field, operator, threshold, duration, level] of rules)
    await pool.query(
      `insert into mes_product_alarm_rule (id, tenant_id, product_id, rule_type, field_key, operator, threshold, duration_seconds, level)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [nextId(), tenant, productId, type, field, operator, threshold, duration, level],
    );
  await pool.query(
    `insert into mes_plc_variable (id, tenant_id, product_id, name, limit_hh, limit_h, limit_l, limit_ll, limit_level)
     values ($1, $2, $3, 'n', 1e13, 1e12, -1, -2, 2)`,
    [nextId(), tenant, productId],
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

async function throughput(name: string, tenant: string, via: 'mosquitto' | 'embedded', brokerPort?: number) {
  await seedAlarmRules(tenant);
  const ingester = new Ingester(
    `${via}`,
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
  await publish(clients, tenant, 0, warm);
  await settle(ingester, warm);
  const before = { ...cpu(), ingester: ingester.cpuMs(), mosquitto: processCpuMs(mosquitto?.pid) ?? 0 };
  const storedBefore = ingester.last.stored ?? 0;
  const started = Date.now();
  const acked = await publish(clients, tenant, warm, MESSAGES);
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
  if (env.BENCH_ALARMS !== '0') {
    const warnings = await warningCount(tenant);
    console.log(`${name}: alarm rules fired ${warnings.raises} times into ${warnings.rows} warning rows`);
  }
  return result;
}

/** The rows ingestion writes for `count` messages of one tenant, inserted in batches as it does. */
async function bare(name: string, tenant: string, count: number, what: 'all' | 'no-log' | 'telemetry') {
  const client = await pool.connect();
  const started = Date.now();
  const dbBefore = postgresCpuMs(clusterDir) ?? 0;
  const benchBefore = process.cpuUsage();
  try {
    for (let from = 0; from < count; from += BATCH) {
      const n = Math.min(BATCH, count - from);
      const seqs = Array.from({ length: n }, (_, i) => from + i);
      const devices = seqs.map((s) => `D${s % PUBLISHERS}`);
      const now = new Date();
      // Each message its own time, as the publishers' `ts` (equal keys would make the indexes cheaper).
      const points: TelemetryRow[] = seqs.flatMap((seq, i) => {
        const at = new Date(now.getTime() - n + i);
        const point = { tenantId: tenant, deviceCode: devices[i] ?? '', ts: at, text: null };
        return [
          { ...point, field: 'v', num: String((seq % 1000) / 10) },
          { ...point, field: 'n', num: String(seq) },
        ];
      });
      // Ingestion's own statements (batch-statements.ts), so the baseline is its writes minus the broker.
      await client.query('begin');
      await client.query(telemetryInsert(points));
      if (what !== 'telemetry') {
        const latest = [...new Set(devices)].flatMap((d) =>
          ['v', 'n'].map((field) => ({ tenantId: tenant, deviceCode: d, field, ts: now, num: '1', text: null })),
        );
        await client.query(latestMerge(latestByDevice(latest)));
      }
      if (what === 'all')
        await client.query(
          messageLogInsert(
            seqs.map((seq, i) => ({
              tenantId: tenant,
              topic: `mes/${tenant}/${devices[i]}/telemetry`,
              clientId: '',
              qos: 1,
              retain: false,
              payload: payload(seq),
              deviceCode: devices[i] ?? '',
              parsedOk: true,
              error: null,
              at: now,
            })),
          ),
        );
      await client.query('commit');
    }
  } finally {
    client.release();
  }
  const seconds = (Date.now() - started) / 1000;
  const benchCpu = process.cpuUsage(benchBefore);
  return {
    name,
    rate: count / seconds,
    seconds,
    cpuUsPerMessage: {
      postgres: (((postgresCpuMs(clusterDir) ?? 0) - dbBefore) * 1000) / count,
      inserter: (benchCpu.user + benchCpu.system) / count,
    },
  };
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
  await seedAlarmRules(tenant);
  const ingester = new Ingester(
    `pause-${via}`,
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
  const publishing = publish(clients, tenant, 0, total, PAUSE_RATE, () => stopPublishing);
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
console.log(
  `ingest bench: ${MESSAGES.toLocaleString('en-US')} messages per run, ${PUBLISHERS} publishers × window ${WINDOW}, ` +
    `batches of ${BATCH}, ${os.cpus().length} cores (shared: figures taken under the machine's other load)`,
);
try {
  const results: Throughput[] = [];
  const bares: Awaited<ReturnType<typeof bare>>[] = [];
  if (parts.has('bare')) {
    bares.push(await bare('bare insert: telemetry + latest + message log', 'bare1', MESSAGES, 'all'));
    bares.push(await bare('bare insert: telemetry + latest (no message log)', 'bare2', MESSAGES, 'no-log'));
    bares.push(await bare('bare insert: telemetry only', 'bare3', MESSAGES, 'telemetry'));
  }
  let brokerPort: number | undefined;
  if (parts.has('mosquitto') || parts.has('pause')) brokerPort = await startMosquitto();
  if (parts.has('mosquitto'))
    results.push(await throughput('through Mosquitto (external subscriber)', 'mq1', 'mosquitto', brokerPort));
  if (parts.has('embedded')) results.push(await throughput('through the embedded broker (aedes)', 'em1', 'embedded'));
  const base = bares[0]?.rate;

  console.log('\nThroughput (QoS 1, every message accounted for in PostgreSQL)');
  console.log(
    '| run | msg/s | × bare | lost | dup | max queued | peak RSS MB | CPU µs/msg: ingester | postgres | publishers | mosquitto |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const b of bares)
    console.log(
      `| ${b.name} | ${fmt(b.rate)} | ${base ? fmt(b.rate / base, 2) : ''} | | | | | ${fmt(b.cpuUsPerMessage.inserter, 1)} (inserter) | ${fmt(b.cpuUsPerMessage.postgres, 1)} | | |`,
    );
  for (const r of results)
    console.log(
      `| ${r.name} | ${fmt(r.rate)} | ${base ? fmt(r.rate / base, 2) : ''} | ${r.lost} | ${r.duplicated} | ${fmt(r.maxQueued)} | ${fmt(r.peakRssMb)} | ${fmt(r.cpuUsPerMessage.ingester ?? 0, 1)} | ${fmt(r.cpuUsPerMessage.postgres ?? 0, 1)} | ${fmt(r.cpuUsPerMessage.publishers ?? 0, 1)} | ${r.cpuUsPerMessage.mosquitto === undefined ? '' : fmt(r.cpuUsPerMessage.mosquitto, 1)} |`,
    );

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
