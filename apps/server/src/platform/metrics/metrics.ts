import { timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import client from 'prom-client';

/**
 * The process's metrics in the Prometheus text format (docs/operations.md "Metrics"): one registry
 * for the whole process, whatever the number of contexts a test builds, so every metric is defined
 * once here. The parts that own a figure register themselves as a source (a pool, an ingestion, a
 * broker, the live streams) and are read when `/metrics` is scraped: a message, a query or a stream
 * costs nothing more than it did. What is only known as it happens (a request's time, a batch's
 * commit, a failed job) is counted where it happens, once per request, batch or job.
 */
const registry = new client.Registry();

// Event-loop delay (nodejs_eventloop_lag_*), GC (nodejs_gc_duration_seconds), heap, handles, CPU.
client.collectDefaultMetrics({ register: registry });

/** A source that is read when scraped; the returned function takes it off again. */
function sourceSet<T>() {
  const items = new Set<T>();
  return {
    items,
    add(item: T): () => void {
      items.add(item);
      return () => void items.delete(item);
    },
  };
}

/** A gauge that is, when scraped, the sum of one figure over the sources registered now. */
function summedGauge<T>(name: string, help: string, sources: ReadonlySet<T>, read: (source: T) => number): void {
  new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      let sum = 0;
      for (const source of sources) sum += read(source);
      this.set(sum);
    },
  });
}

// ---- HTTP ----------------------------------------------------------------------------------------

const httpRequests = new client.Counter({
  name: 'mes_http_requests_total',
  help: 'HTTP requests answered, by method, matched route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpDuration = new client.Histogram({
  name: 'mes_http_request_duration_seconds',
  help: 'Time from request to response, by method and matched route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/**
 * One answered request. `route` is the matched pattern (`/api/blade-system/user/detail`), never the
 * raw URL: ids and query strings would make a series per request. Unmatched requests share one label.
 */
export function observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  const pattern = route ?? 'unmatched';
  httpRequests.inc({ method, route: pattern, status: String(status) });
  httpDuration.observe({ method, route: pattern }, seconds);
}

// ---- Database pool -------------------------------------------------------------------------------

const pools = sourceSet<{ name: string; pool: pg.Pool }>();

new client.Gauge({
  name: 'mes_db_pool_connections',
  help: 'Connections of the database pool, by state (total = open, idle = open and free)',
  labelNames: ['pool', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const { name, pool } of pools.items) {
      this.inc({ pool: name, state: 'total' }, pool.totalCount);
      this.inc({ pool: name, state: 'idle' }, pool.idleCount);
    }
  },
});

new client.Gauge({
  name: 'mes_db_pool_waiting',
  help: 'Callers waiting for a connection of the database pool (all connections busy)',
  labelNames: ['pool'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const { name, pool } of pools.items) this.inc({ pool: name }, pool.waitingCount);
  },
});

const poolWaits = new client.Counter({
  name: 'mes_db_pool_waits_total',
  help: 'Connection requests that had to wait because every connection of the pool was busy',
  labelNames: ['pool'] as const,
  registers: [registry],
});

/** The pool of a database connection; its figures are read when scraped. */
export function watchPool(name: string, pool: pg.Pool): () => void {
  // A checkout that found the pool full: `connect` is wrapped only to count, one comparison per checkout.
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    if (pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? 10)) poolWaits.inc({ pool: name });
    return connect(...args);
  };
  return pools.add({ name, pool });
}

// ---- MQTT ingestion ------------------------------------------------------------------------------

/** What an ingestion already counts for itself (modules/telemetry/batch-context.ts). */
export interface IngestionSource {
  readonly counters: {
    readonly received: number;
    readonly stored: number;
    readonly batches: number;
    readonly failedBatches: number;
    readonly deadLetters: number;
  };
  readonly queued: number;
}

const ingestions = sourceSet<IngestionSource>();

/**
 * A counter that follows the sources' own running counts: at each scrape it adds what they counted
 * since the last one. A source that goes away keeps what it added (counters never go down).
 */
function followedCounter(name: string, help: string, read: (source: IngestionSource) => number) {
  const seen = new WeakMap<IngestionSource, number>();
  return new client.Counter({
    name,
    help,
    registers: [registry],
    collect() {
      for (const source of ingestions.items) {
        const now = read(source);
        const before = seen.get(source) ?? 0;
        if (now > before) this.inc(now - before);
        seen.set(source, now);
      }
    },
  });
}

followedCounter('mes_ingestion_messages_received_total', 'Device messages received', (s) => s.counters.received);
followedCounter('mes_ingestion_messages_stored_total', 'Device messages stored', (s) => s.counters.stored);
followedCounter('mes_ingestion_batches_total', 'Ingestion batches committed', (s) => s.counters.batches);
followedCounter(
  'mes_ingestion_failed_batches_total',
  'Attempts to store a batch that failed (retries and splits count)',
  (s) => s.counters.failedBatches,
);
followedCounter(
  'mes_ingestion_dead_letters_total',
  'Device messages set aside as dead letters (failed alone, the database being up)',
  (s) => s.counters.deadLetters,
);

summedGauge(
  'mes_ingestion_queue_depth',
  'Device messages received and waiting for their batch',
  ingestions.items,
  (s) => s.queued,
);

const batchCommit = new client.Histogram({
  name: 'mes_ingestion_batch_commit_seconds',
  help: 'Time to commit one ingestion batch (its transaction)',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

/** An ingestion's counters and queue, read when scraped. */
export const watchIngestion = (source: IngestionSource): (() => void) => ingestions.add(source);

/** One committed batch: once per batch, never per message. */
export const observeBatchCommit = (seconds: number): void => batchCommit.observe(seconds);

// ---- MQTT broker ---------------------------------------------------------------------------------

/** The embedded broker, or the subscriber of the external one. */
export interface BrokerSource {
  kind: 'embedded' | 'external';
  /** Embedded: listening; external: the subscriber is connected. */
  reachable(): boolean;
  /** Embedded: devices connected; external: the subscriber's own connection (0 or 1). */
  connections(): number;
}

const brokers = sourceSet<BrokerSource>();

new client.Gauge({
  name: 'mes_mqtt_connections',
  help: 'MQTT connections: devices on the embedded broker, or the subscriber to the external one',
  labelNames: ['broker'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const b of brokers.items) this.inc({ broker: b.kind }, b.connections());
  },
});

new client.Gauge({
  name: 'mes_mqtt_broker_up',
  help: '1 while the broker is reachable (embedded: listening; external: subscribed)',
  labelNames: ['broker'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const b of brokers.items) this.set({ broker: b.kind }, b.reachable() ? 1 : 0);
  },
});

export const watchBroker = (source: BrokerSource): (() => void) => brokers.add(source);

/**
 * Whether device messages can arrive: undefined while no broker was started in this process
 * (telemetry starts after the server listens), else whether every one is reachable.
 */
export function brokerReachable(): boolean | undefined {
  if (brokers.items.size === 0) return undefined;
  return [...brokers.items].every((b) => b.reachable());
}

// ---- Jobs ----------------------------------------------------------------------------------------

const jobRuns = new client.Counter({
  name: 'mes_jobs_runs_total',
  help: 'Job runs finished by this process, by job and outcome (done, failed)',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
});

/** A job run's end (once per run: jobs are not hot paths). */
export const countJobRun = (job: string, failed: boolean): void =>
  jobRuns.inc({ job, outcome: failed ? 'failed' : 'done' });

const jobDepths = sourceSet<() => Promise<{ job: string; queued: number }[]>>();

new client.Gauge({
  name: 'mes_jobs_queued',
  help: 'Jobs waiting to run (created or waiting for a retry), by job; the queue is shared by every process',
  labelNames: ['job'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const depth of jobDepths.items) {
      // A queue that cannot be read (database down) leaves its figures out; /api/health/ready says why.
      const rows = await depth().catch(() => []);
      for (const row of rows) this.set({ job: row.job }, row.queued);
    }
  },
});

/** The job queue's depth, asked of the database when scraped. */
export const watchJobQueue = (depth: () => Promise<{ job: string; queued: number }[]>): (() => void) =>
  jobDepths.add(depth);

// ---- Live streams --------------------------------------------------------------------------------

const liveSets = sourceSet<{ readonly size: number }>();

summedGauge(
  'mes_live_streams',
  'Open live event streams (browsers connected to this process)',
  liveSets.items,
  (streams) => streams.size,
);

export const watchLiveStreams = (streams: { readonly size: number }): (() => void) => liveSets.add(streams);

// ---- Fair shares ---------------------------------------------------------------------------------

const refusals = new client.Counter({
  name: 'mes_fair_share_refusals_total',
  help: 'Requests refused with 429 because a user or tenant was at its limit, by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const countRefusal = (kind: string): void => refusals.inc({ kind });

// ---- Exposition ----------------------------------------------------------------------------------

export const METRICS_CONTENT_TYPE = registry.contentType;

export const metricsText = (): Promise<string> => registry.metrics();

/** Whether an `Authorization` header carries the metrics token (compared in constant time). */
export function metricsTokenMatches(header: string | undefined, token: string): boolean {
  const match = /^bearer\s+(.+)$/i.exec(header ?? '');
  const given = Buffer.from(match?.[1]?.trim() ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
