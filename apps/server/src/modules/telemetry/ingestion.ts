import type pg from 'pg';
import { AcquisitionProtocol, OnOffReason } from '@mes/contracts';
import type { DeviceDirectory, KnownDevice } from './device-directory';
import { applyPresence } from './device-presence';
import {
  BatchRows,
  DEFAULT_MAX_CLOCK_SKEW_MS,
  PLATFORM_TENANT,
  TENANT_ID,
  clip,
  errorText,
  parseJsonObject,
  parseTs,
  printable,
  type LogRow,
  type StoredValue,
} from './batch-rows';
import { SPARKPLUG_NAMESPACE, SparkplugSessions, parseSparkplugTopic } from '../../platform/mqtt/sparkplug';
import { textFault } from '../../platform/mqtt/device-text';
import { readTopic, type TopicReading } from './topic-cache';
import { type IncomingMessage, type MessageSink, type PresenceEvent } from '../../platform/mqtt/topics';
import type { BatchContext, IngestionCounters } from './batch-context';

export {
  parseTopic,
  TOPIC_KINDS,
  type IncomingMessage,
  type PresenceEvent,
  type TopicKind,
} from '../../platform/mqtt/topics';
export type { BatchContext, IngestionCounters } from './batch-context';
import { applyBirthChanges, loadBirths, type StoredBirth } from './sparkplug-births';
import { writeRollups } from './rollups';
import { messageLogInsert } from './batch-statements';
import { copyAcquisition } from './acquisition-copy';
import { mergeDeviceLatest } from './device-latest';
import { ingestSparkplug } from './sparkplug-ingest';
import { AlarmEngine, type AlarmWork } from './alarm-engine';
import type { RuleChanges } from './alarm-rules';
import { parseCycle } from './cycle-report';
import { cycleLiveEvent, storeCycles } from './cycle-store';
import { deviceLiveEvent } from './device-presence';
import { publishChanges } from './publish-changes';
import { refreshRunState, touchedDevices } from './run-state';
import type { TotalsWriters } from '../../engine/totals-invalidation';
import { acquisitionResource, mqttMessageResource, telemetryResource } from '@mes/contracts';
import { isWorthRetrying } from './retry-or-split';
import { deadLetterRow, failureReason, safeText } from './dead-letters';
import { DUPLICATE_TEXT, DuplicateReports, reportKey, storedReports } from './report-keys';
import { observeBatchCommit } from '../../platform/metrics/metrics';

export { convertValue } from './batch-rows';

/**
 * Ingestion of device messages (docs/mqtt.md): parsed (JSON topics here, Sparkplug B in
 * sparkplug-ingest.ts), checked against the product's model, scaled, and written in batches —
 * one transaction per batch to the acquisition data (one row per message, its values: the
 * telemetry series is a view over them), the rollups, the latest values, the MQTT message log
 * (for what is not stored as acquisition data), the devices' online state and the on/off records, the finished cycles and
 * their day counts, and the warnings the alarm rules raise and clear (docs/warnings.md), with the
 * live events of all that. A message's `ack` (its PUBACK) is called only after the batch holding
 * it committed.
 */

/**
 * A queued message and what acknowledges it, given the message back: the transport can pass one
 * function for all its messages instead of a closure per message (start-mqtt.ts).
 */
type Item =
  { message: IncomingMessage; ack: (message: IncomingMessage) => void } | { presence: PresenceEvent; ack?: undefined };
/** The device look-ups of one batch, shared by its tries and the halves it is split into. */
type DeviceLookups = Map<string, Promise<KnownDevice | undefined>>;
/** A batch's rows as `build` answers them. */
type Built = Awaited<ReturnType<Ingestion['build']>>;
/** A batch taken from the queue, and its rows when it was built ahead (during the previous commit). */
interface Prepared {
  batch: Item[];
  devices: DeviceLookups;
  built?: Promise<Built>;
}

export interface IngestionOptions {
  pool: pg.Pool;
  directory: DeviceDirectory;
  warn(message: string, error?: unknown): void;
  now(): number;
  /** Messages per transaction (default 500). */
  batchSize?: number;
  /** How long a partial batch waits for more (default 50 ms). */
  batchDelayMs?: number;
  /** Queue length at which reading pauses (default 5,000); it resumes at half. */
  maxQueue?: number;
  /** Stop / resume reading from the broker (the subscriber's socket). */
  flow?: { pause(): void; resume(): void };
  /**
   * Runs inside each batch's transaction, before COMMIT, with the batch's messages (the same
   * objects that were pushed): the external subscriber's delivery ledger, so that a batch
   * committed but not acknowledged before a crash is recognised when the broker redelivers it.
   */
  inTransaction?(client: pg.PoolClient, messages: readonly IncomingMessage[]): Promise<void>;
  /** The change feed: alarm rules cached per device are dropped when products, devices or PLC variables change. */
  changes?: RuleChanges;
  /** How far ahead of the server's clock a point may be (`MQTT_MAX_CLOCK_SKEW_SECONDS`; default 5 min). */
  maxClockSkewMs?: number;
  /** The list totals (the context's): told, after each commit, which resources' rows were written. */
  totals?: TotalsWriters;
}

/** Backoff of a batch while the database is unavailable: from the first to the longest wait. */
const RETRY_FIRST_MS = 200;
const RETRY_LONGEST_MS = 2000;
/** While a batch keeps failing, its warning is repeated at most this often. */
const RETRY_WARN_MS = 10_000;
/** Malformed cycle reports are logged at most this often (the message log keeps each one's error). */
const CYCLE_WARN_MS = 60_000;

/** A report's sequence number as acquisition data keeps it: an int4 ≥ 0, else none. */
const sequenceOf = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647 ? value : undefined;

/** `{ts, seq?, values:{k:v}}` or flat `{k: v, ts?, seq?}`; `seq` is kept for acquisition data. */
export function parseTelemetry(
  payload: Buffer,
  receivedAt: Date,
  now: number,
): { ts: Date; values: Record<string, unknown>; seq?: number } | string {
  const record = parseJsonObject(payload);
  if (typeof record === 'string') return record;
  const ts = parseTs(record.ts, receivedAt, now);
  if (typeof ts === 'string') return ts;
  let values: Record<string, unknown>;
  if ('values' in record) {
    if (typeof record.values !== 'object' || record.values === null || Array.isArray(record.values))
      return 'values is not an object';
    values = record.values as Record<string, unknown>;
  } else {
    values = { ...record };
    delete values.ts;
    delete values.seq;
  }
  if (Object.keys(values).length === 0) return 'no values';
  const seq = sequenceOf(record.seq);
  return seq === undefined ? { ts, values } : { ts, values, seq };
}

/** A Sparkplug birth: its metric definitions are what its log row shows, so it keeps one. */
function isBirth(topic: string): boolean {
  const type = topic.startsWith(`${SPARKPLUG_NAMESPACE}/`) ? parseSparkplugTopic(topic)?.type : undefined;
  return type === 'NBIRTH' || type === 'DBIRTH';
}

/** Longer than any reason a device means (`normal`), short enough to show. */
const STATUS_REASON_MAX = 64;

/** `online` / `offline`, as text, a JSON string or `{status, reason?}`; a reason must be a clean name. */
export function parseStatus(payload: Buffer): { online: boolean; reason?: string } | string {
  const text = payload.toString('utf8').trim();
  let value: unknown = text;
  if (text.startsWith('{') || text.startsWith('"')) {
    try {
      value = JSON.parse(text);
    } catch {
      return 'payload is not JSON';
    }
  }
  const status = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).status : value;
  const reason = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).reason : undefined;
  if (status !== 'online' && status !== 'offline') return 'status is neither online nor offline';
  if (typeof reason !== 'string') return { online: status === 'online' };
  const fault = textFault(reason, STATUS_REASON_MAX);
  return fault ? `status reason ${fault}` : { online: status === 'online', reason };
}

export class Ingestion implements MessageSink {
  readonly counters: IngestionCounters = {
    received: 0,
    stored: 0,
    malformed: 0,
    unknownDevice: 0,
    unknownField: 0,
    wrongType: 0,
    badText: 0,
    aheadOfClock: 0,
    inexact: 0,
    unknownAlias: 0,
    staleDeath: 0,
    batches: 0,
    failedBatches: 0,
    deadLetters: 0,
    duplicateReports: 0,
    maxQueued: 0,
    pauses: 0,
  };
  private queue: Item[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private paused = false;
  private stopped = false;
  private stopping = false;
  /** Sparkplug births (metric aliases, bdSeq) of the edge nodes seen: stored ones, refreshed per batch. */
  readonly sparkplug = new SparkplugSessions();
  private readonly batchSize: number;
  private readonly batchDelayMs: number;
  private readonly maxQueue: number;
  /** Lets the subscriber be attached after the ingestion is made (it needs `push`). */
  flow: { pause(): void; resume(): void } | undefined;
  /** Warnings from the product alarm rules (alarm-engine.ts). */
  readonly alarms: AlarmEngine;
  private cycleWarnedAt = -Infinity;

  constructor(private readonly options: IngestionOptions) {
    this.alarms = new AlarmEngine({
      pool: options.pool,
      warn: options.warn,
      now: options.now,
      ...(options.changes ? { changes: options.changes } : {}),
    });
    this.batchSize = options.batchSize ?? 500;
    this.batchDelayMs = options.batchDelayMs ?? 50;
    this.maxQueue = options.maxQueue ?? 5000;
    this.flow = options.flow;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** A message from the broker; `ack(message)` is called once its batch is committed. */
  push(message: IncomingMessage, ack: (message: IncomingMessage) => void): void {
    this.counters.received++;
    this.enqueue({ message, ack });
  }

  /** A connection event (embedded broker connect / disconnect). */
  presence(event: PresenceEvent): void {
    this.enqueue({ presence: event });
  }

  private enqueue(item: Item): void {
    if (this.stopped) return;
    this.queue.push(item);
    if (this.queue.length > this.counters.maxQueued) this.counters.maxQueued = this.queue.length;
    if (this.queue.length >= this.maxQueue && !this.paused) {
      this.paused = true;
      this.counters.pauses++;
      this.flow?.pause();
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.flushing || this.timer) return;
    if (this.queue.length >= this.batchSize) {
      this.flushing = this.flushLoop();
    } else if (this.queue.length > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (!this.flushing) this.flushing = this.flushLoop();
      }, this.batchDelayMs);
    }
  }

  /**
   * Stores full batches one after the other. While a batch's commit is in flight the next full
   * batch is already read (parsed, checked, its rows built: {@link prepare}), so the server's work
   * and PostgreSQL's overlap; only its alarm evaluation and commit wait for the previous commit.
   */
  private async flushLoop(): Promise<void> {
    let next: Prepared | undefined;
    try {
      while (next || this.queue.length > 0) {
        const current: Prepared = next ?? { batch: this.queue.splice(0, this.batchSize), devices: new Map() };
        const ahead: { next?: Prepared | undefined } = {};
        const failedBefore = this.counters.failedBatches;
        next = undefined;
        await this.store(current.batch, current.devices, current.built, () => {
          ahead.next ??= this.prepare();
        });
        next = ahead.next;
        // A batch that was retried may have waited out an outage: the next one is read again.
        if (next && this.counters.failedBatches !== failedBefore) {
          this.queue.unshift(...next.batch);
          next = undefined;
        }
        if (this.paused && this.queue.length <= this.maxQueue / 2) {
          this.paused = false;
          this.flow?.resume();
        }
        if (!next && this.queue.length < this.batchSize) break;
      }
    } catch (error) {
      // `store` settles every message it was given; this only keeps a bug from becoming an unhandled rejection.
      this.options.warn('MQTT ingestion: the batch loop failed', error);
    } finally {
      // Messages read ahead but not stored go back to the front of the queue, in their order.
      if (next) this.queue.unshift(...next.batch);
      this.flushing = undefined;
      if (!this.stopped) this.schedule();
    }
  }

  /**
   * The next full batch, taken from the queue and built now (during the previous batch's
   * commit), or none: not while stopping, not a partial batch (it waits for more as usual), and
   * not a batch with Sparkplug messages, whose reading depends on the births the commit in
   * flight may store. Building reads no other state a commit changes.
   */
  private prepare(): Prepared | undefined {
    if (this.stopping || this.queue.length < this.batchSize) return undefined;
    const batch = this.queue.slice(0, this.batchSize);
    if (batch.some((item) => 'message' in item && item.message.topic.startsWith(`${SPARKPLUG_NAMESPACE}/`)))
      return undefined;
    this.queue.splice(0, batch.length);
    const devices: DeviceLookups = new Map();
    const built = this.build(batch, devices);
    // Awaited by the batch's first try, which handles a failure; never an unhandled rejection meanwhile.
    built.catch(() => undefined);
    return { batch, devices, built };
  }

  /** Waits until everything queued so far is committed (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.queue.length > 0 || this.flushing || this.timer) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.flushing ??= this.flushLoop();
      }
      await (this.flushing ?? new Promise((r) => setTimeout(r, 5)));
    }
  }

  /** Commits what is queued; a batch that fails while stopping is given up unacknowledged (the broker keeps it). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.drain();
    this.stopped = true;
  }

  /**
   * Stores a batch, or parts of it, until every message of it is stored (and acknowledged) or set
   * aside as a dead letter (and acknowledged); never rejects. While the database is unavailable the
   * whole batch is tried again with backoff, never judged. Any other failure splits the batch in
   * halves, each stored the same way, down to the message that fails alone: a dead letter. Only
   * while stopping is a batch given up unacknowledged (the broker keeps it).
   */
  private async store(
    batch: Item[],
    devices: DeviceLookups = new Map(),
    prebuilt?: Promise<Built>,
    committing?: () => void,
  ): Promise<void> {
    let wait = RETRY_FIRST_MS;
    let warnedAt = -Infinity;
    for (;;) {
      const error = await this.attempt(batch, devices, prebuilt, committing);
      prebuilt = undefined;
      committing = undefined;
      if (error === undefined) return;
      this.counters.failedBatches++;
      if (await this.unavailable(error)) {
        if (this.stopping) {
          this.options.warn(`MQTT ingestion: stopping; a batch of ${batch.length} is left to the broker`, error);
          return;
        }
        if (Date.now() - warnedAt >= RETRY_WARN_MS) {
          warnedAt = Date.now();
          this.options.warn(
            `MQTT ingestion: the database is unavailable; a batch of ${batch.length} is kept and retried`,
            error,
          );
        }
        await new Promise((r) => setTimeout(r, wait));
        wait = Math.min(wait * 2, RETRY_LONGEST_MS);
        // Devices are looked up again after an outage; the halves of a split reuse what was found.
        devices.clear();
        continue;
      }
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        await this.store(batch.slice(0, half), devices);
        await this.store(batch.slice(half), devices);
        return;
      }
      // One message, which failed in every batch that held it and now alone: set aside.
      await this.deadLetter(batch[0]!, error);
      return;
    }
  }

  /**
   * Whether a failure is the database's (retry) rather than the batch's (split). An error that
   * does not say so itself is checked by asking the database: an outage is never a verdict.
   */
  private async unavailable(error: unknown): Promise<boolean> {
    if (isWorthRetrying(error)) return true;
    try {
      await this.options.pool.query('select 1');
      return false;
    } catch {
      return true;
    }
  }

  /**
   * One try at storing a batch: look-ups, parsing, alarm evaluation, commit, then the acks. Answers
   * the failure, or undefined once stored. A report found stored already (same device, `ts` and
   * `seq`) is marked and the batch built again without it.
   */
  private async attempt(
    batch: Item[],
    devices: DeviceLookups,
    prebuilt?: Promise<Built>,
    committing?: () => void,
  ): Promise<unknown> {
    for (;;) {
      let alarms: AlarmWork | undefined;
      try {
        const built = await (prebuilt ?? this.build(batch, devices));
        prebuilt = undefined;
        alarms = await this.alarms.evaluate(built.rows.acquisition, built.rows.cycles);
        committing?.();
        committing = undefined;
        const commitStart = performance.now();
        await this.commit(built.rows, built.messages, alarms, built.keyed);
        observeBatchCommit((performance.now() - commitStart) / 1000);
        // List totals follow the rows within about a second, batched (engine/totals-invalidation.ts).
        this.options.totals?.written({
          // The series is the reports' values (the `mes_telemetry` view): the same tenants.
          [telemetryResource.code]: built.rows.acquisition,
          [acquisitionResource.code]: built.rows.acquisition,
          // The MQTT message list shows the log rows and the stored messages (the mes_mqtt_message view).
          [mqttMessageResource.code]: [...built.rows.logs, ...built.rows.acquisition],
        });
        this.counters.batches++;
        this.counters.stored += built.stored;
        for (const item of batch) this.ackOne(item);
        return undefined;
      } catch (error) {
        if (alarms) this.alarms.undo(alarms);
        if (error instanceof DuplicateReports) {
          for (const m of error.messages) this.markDuplicate(m);
          continue;
        }
        return error ?? new Error('a batch failed without an error');
      }
    }
  }

  private readonly duplicates = new WeakSet<IncomingMessage>();

  private markDuplicate(m: IncomingMessage): void {
    if (this.duplicates.has(m)) return;
    this.duplicates.add(m);
    this.counters.duplicateReports++;
  }

  /** The rows of a batch. A look-up that fails fails the batch (it is retried): only "no such device" is a verdict. */
  private async build(batch: readonly Item[], devices: DeviceLookups) {
    const find = (tenantId: string, deviceCode: string) => {
      const key = `${tenantId}/${deviceCode}`;
      let found = devices.get(key);
      if (!found) {
        const looking = this.options.directory.find(tenantId, deviceCode);
        // A look-up that failed is not kept: the next try asks again.
        looking.catch(() => {
          if (devices.get(key) === looking) devices.delete(key);
        });
        devices.set(key, (found = looking));
      }
      return found;
    };
    const now = this.options.now();
    const rows = new BatchRows({ now, maxAheadMs: this.options.maxClockSkewMs ?? DEFAULT_MAX_CLOCK_SKEW_MS });
    const messages = batch.flatMap((item) => ('message' in item ? [item.message] : []));
    const ctx: BatchContext = { rows, counters: this.counters, sessions: this.sparkplug, now, find, known: new Map() };

    await this.loadSparkplugBirths(messages);

    let stored = 0;
    /** Reports with the device's own `ts` and a `seq`, by key: what the commit checks against stored ones. */
    const keyed = new Map<string, IncomingMessage>();
    /**
     * The message being read's log row, one object for the batch: most messages are stored as
     * their acquisition row and keep no log row, so a row is copied only for a message that keeps one.
     */
    const log: LogRow = {
      tenantId: PLATFORM_TENANT,
      topic: '',
      clientId: '',
      qos: 0,
      retain: false,
      payload: '',
      deviceCode: '',
      parsedOk: false,
      error: null,
      at: new Date(0),
    };
    for (const item of batch) {
      if ('presence' in item) {
        rows.addPresence(item.presence);
        continue;
      }
      const m = item.message;
      const duplicate = this.duplicates.has(m);
      // A duplicate is read into rows of its own, of which only its log row is kept.
      const target = duplicate ? new BatchRows(rows.clock) : rows;
      log.tenantId = PLATFORM_TENANT;
      log.topic = readTopic(m.topic).stored;
      log.clientId = m.clientId && clip(printable(m.clientId), 128);
      log.qos = m.qos;
      log.retain = m.retain;
      log.payload = '';
      log.deviceCode = '';
      log.parsedOk = false;
      log.error = null;
      log.at = m.receivedAt;
      const own = duplicate ? { ...ctx, rows: target } : ctx;
      const reports = target.acquisition.length;
      const sparkplug = m.topic.startsWith(`${SPARKPLUG_NAMESPACE}/`);
      let ok = sparkplug ? await ingestSparkplug(m, log, own) : this.ingestJson(m, log, own);
      if (typeof ok !== 'boolean') ok = await ok;
      // A JSON payload is made storable text only for a log row that keeps it (a stored report's is its row).
      const keepLog = () => {
        if (!sparkplug) log.payload = printable(m.payload.toString('utf8'));
        rows.logs.push({ ...log });
      };
      if (duplicate) {
        log.error = DUPLICATE_TEXT;
        keepLog();
        continue;
      }
      if (ok) stored++;
      const report = target.acquisition[reports];
      // Stored as one report: that row is the message's entry in the message log too (docs/mqtt.md
      // "Stored once"). Anything else — refused, status, cycle, births, a Sparkplug message split
      // by its metrics' times — keeps a log row of its own.
      if (ok && report && target.acquisition.length === reports + 1 && !isBirth(m.topic))
        // The message itself when its client id is stored as sent (always, from the external subscriber).
        report.message =
          log.clientId === m.clientId
            ? m
            : { clientId: log.clientId, qos: m.qos, retain: m.retain, receivedAt: m.receivedAt };
      else keepLog();
      const key = report && reportKey(report, m.receivedAt);
      if (key === undefined) continue;
      const first = keyed.get(key);
      if (first === undefined) keyed.set(key, m);
      // The same report twice in one batch: the first is kept, the batch is built again without the second.
      else throw new DuplicateReports([m]);
    }
    return { rows, messages, stored, keyed };
  }

  /**
   * The stored births of the batch's Sparkplug edge nodes replace what this process remembers of
   * them: every earlier batch, of any process, committed its births, so PostgreSQL is ahead of
   * this process's memory (also of what a failed try of this batch left in it).
   */
  private async loadSparkplugBirths(messages: readonly IncomingMessage[]): Promise<void> {
    const nodes = new Map<string, { tenantId: string; edgeNode: string }>();
    for (const m of messages) {
      if (!m.topic.startsWith(`${SPARKPLUG_NAMESPACE}/`)) continue;
      const topic = parseSparkplugTopic(m.topic);
      if (topic && TENANT_ID.test(topic.group) && topic.edge.length <= 64)
        nodes.set(`${topic.group}/${topic.edge}`, { tenantId: topic.group, edgeNode: topic.edge });
    }
    if (!nodes.size) return;
    // A failure fails the batch, which is retried: it is built again from the stored births.
    const byNode = new Map<string, StoredBirth[]>([...nodes.keys()].map((key) => [key, []]));
    for (const birth of await loadBirths(this.options.pool, [...nodes.values()]))
      byNode.get(`${birth.tenantId}/${birth.edgeNode}`)?.push(birth);
    for (const [key, births] of byNode) {
      const node = nodes.get(key)!;
      this.sparkplug.replaceNode(node.tenantId, node.edgeNode, births);
    }
  }

  /**
   * A message on `mes/{tenant}/{device}/{kind}`: true when it was understood (stored or applied).
   * Synchronous once the batch has found the device (no promise and no await per message).
   */
  private ingestJson(m: IncomingMessage, log: LogRow, ctx: BatchContext): boolean | Promise<boolean> {
    const reading = readTopic(m.topic);
    const topic = reading.parsed;
    if (reading.tenantShown && topic) log.tenantId = topic.tenantId;
    log.deviceCode = reading.loggedDevice;
    if (!topic) {
      this.counters.malformed++;
      log.error = 'topic is not mes/{tenantId}/{deviceCode}/{telemetry|status|cycle}';
      return false;
    }
    const known = ctx.known;
    if (known?.has(reading.key)) return this.ingestJsonOf(m, log, ctx, topic, known.get(reading.key));
    return ctx.find(topic.tenantId, topic.deviceCode).then((device) => {
      known?.set(reading.key, device);
      return this.ingestJsonOf(m, log, ctx, topic, device);
    });
  }

  private ingestJsonOf(
    m: IncomingMessage,
    log: LogRow,
    ctx: BatchContext,
    topic: NonNullable<TopicReading['parsed']>,
    device: KnownDevice | undefined,
  ): boolean {
    if (!device) {
      this.counters.unknownDevice++;
      log.error = 'unknown device';
      return false;
    }
    // Most reports have no refused value: no array for them.
    let errors: string[] | undefined;
    const { tenantId, deviceCode } = device;
    if (topic.kind === 'telemetry') {
      const parsed = parseTelemetry(m.payload, m.receivedAt, ctx.now);
      if (typeof parsed === 'string') {
        this.counters.malformed++;
        log.error = parsed;
        return false;
      }
      const values: Record<string, StoredValue> = {};
      // for…in over JSON.parse's plain object: its own keys, without an array of entries per message.
      for (const name in parsed.values) {
        const refused = ctx.rows.putValue(device, name, parsed.values[name], parsed.ts, this.counters, values);
        if (refused !== undefined) (errors ??= []).push(refused);
      }
      ctx.rows.acquisition.push({
        tenantId,
        deviceCode,
        gateway: '',
        groupId: '',
        collectTime: parsed.ts,
        values,
        errors: errors ? errorText(errors) : null,
        topic: log.topic,
        protocol: AcquisitionProtocol.json,
        seq: parsed.seq ?? null,
      });
      ctx.rows.addActivity(tenantId, deviceCode, m.receivedAt);
    } else if (topic.kind === 'status') {
      const status = parseStatus(m.payload);
      if (typeof status === 'string') {
        this.counters.malformed++;
        log.error = status;
        return false;
      }
      // An offline status is what devices send as their last will (DOMAIN.md): a device
      // signing off on purpose says so with `{"status":"offline","reason":"normal"}`.
      const reason = status.online
        ? OnOffReason.normal
        : status.reason === OnOffReason.normal
          ? OnOffReason.normal
          : OnOffReason.lastWill;
      ctx.rows.addPresence({ tenantId, deviceCode, online: status.online, at: m.receivedAt, reason });
    } else {
      const cycle = parseCycle(m.payload, m.receivedAt, ctx.rows.clock, device);
      if (typeof cycle === 'string') {
        this.counters.malformed++;
        log.error = `cycle not stored: ${cycle}`;
        if (ctx.now - this.cycleWarnedAt >= CYCLE_WARN_MS) {
          this.cycleWarnedAt = ctx.now;
          this.options.warn(`MQTT ingestion: a cycle report of ${tenantId}/${deviceCode} was not stored: ${cycle}`);
        }
        return false;
      }
      ctx.rows.cycles.push(cycle);
      ctx.rows.addActivity(tenantId, deviceCode, m.receivedAt);
    }
    log.tenantId = tenantId;
    log.parsedOk = true;
    log.error = errors ? errorText(errors) : null;
    return true;
  }

  /**
   * Cycles and warnings behind a savepoint: a statement of theirs that fails is rolled back alone
   * and logged, and the batch's telemetry commits without them, so a report the checks let through
   * but PostgreSQL refuses can never hold ingestion up in the retry loop.
   */
  private async guarded<T>(client: pg.PoolClient, what: string, write: () => Promise<T>, fallback: T): Promise<T> {
    await client.query('savepoint guarded');
    try {
      const done = await write();
      await client.query('release savepoint guarded');
      return done;
    } catch (error) {
      await client.query('rollback to savepoint guarded');
      this.options.warn(`MQTT ingestion: ${what} of a batch could not be written; its other rows are stored`, error);
      return fallback;
    }
  }

  /**
   * One transaction; each table gets one INSERT of parallel arrays (unnest), parameterised. The
   * client is kept from emitting an unhandled `error` while checked out (a connection dropped
   * mid-batch fails the batch's query instead) and is discarded after a failure.
   */
  private async commit(
    rows: BatchRows,
    messages: readonly IncomingMessage[],
    alarms: AlarmWork,
    keyed: ReadonlyMap<string, IncomingMessage>,
  ) {
    const { latest, logs, acquisition } = rows;
    const client = await this.options.pool.connect();
    const ignore = () => undefined;
    client.on('error', ignore);
    let failure: Error | undefined;
    let xid: string | undefined;
    let committing = false;
    let released = false;
    try {
      await client.query('begin');
      // The transaction's id, so that a COMMIT whose reply is lost can be asked about (commitOutcome).
      xid = (await client.query<{ xid: string }>('select txid_current()::text as xid')).rows[0]?.xid;
      const stored = await storedReports(client, keyed);
      if (stored.length) throw new DuplicateReports(stored);
      // The points themselves are the acquisition rows' values (the `mes_telemetry` view).
      // The rollups (per minute, per quarter hour) `iot/model-list` reads long ranges from: exact, late points included.
      await writeRollups(client, rows.rollups);
      await mergeDeviceLatest(client, latest);
      await copyAcquisition(client, acquisition);
      if (logs.length) await client.query(messageLogInsert(logs));
      const presence = rows.presence.length ? await applyPresence(client, rows.presence) : undefined;
      const cycles = rows.cycles.length
        ? await this.guarded(client, 'the cycles', () => storeCycles(client, rows.cycles), [])
        : [];
      const cameOnline = presence?.transitions.filter((t) => t.online) ?? [];
      const warnings =
        alarms.transitions.length || cycles.length || cameOnline.length
          ? await this.guarded(client, 'the warnings', () => this.alarms.write(client, alarms, cycles, cameOnline), [])
          : [];
      const states = await this.guarded(
        client,
        'the run states',
        () => refreshRunState(client, touchedDevices(rows, warnings), new Date(this.options.now())),
        [],
      );
      const events = [
        ...(presence?.transitions.map(deviceLiveEvent) ?? []),
        ...states,
        ...cycles.map(cycleLiveEvent),
        ...warnings,
      ];
      await publishChanges(client, events);
      if (rows.births.length) await applyBirthChanges(client, rows.births);
      if (messages.length && this.options.inTransaction) await this.options.inTransaction(client, messages);
      committing = true;
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      if (!(error instanceof DuplicateReports)) failure = error instanceof Error ? error : new Error(String(error));
      client.removeListener('error', ignore);
      client.release(failure);
      released = true;
      // The connection dropped while the COMMIT was on its way: PostgreSQL may have committed the
      // batch. Retrying it blindly would store it twice, so ask what became of the transaction.
      if (committing && xid && isWorthRetrying(error) && (await this.commitOutcome(xid)) === 'committed') return;
      throw error;
    } finally {
      if (!released) {
        client.removeListener('error', ignore);
        client.release(failure);
      }
    }
  }

  /**
   * What became of a transaction whose COMMIT got no reply (`txid_status`): asked again, with
   * backoff, until the database answers — or, while stopping, given up as unknown (the batch is
   * then left unacknowledged to the broker).
   */
  private async commitOutcome(xid: string): Promise<string> {
    let wait = RETRY_FIRST_MS;
    for (;;) {
      try {
        const { rows } = await this.options.pool.query<{ status: string | null }>(
          'select txid_status($1::bigint) as status',
          [xid],
        );
        const status = rows[0]?.status ?? 'unknown';
        if (status !== 'in progress') return status;
      } catch (error) {
        if (!isWorthRetrying(error)) return 'unknown';
      }
      if (this.stopping) return 'unknown';
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, RETRY_LONGEST_MS);
    }
  }

  /**
   * A message that failed alone, the database being up: logged as a dead letter with the reason,
   * counted, and acknowledged. Its row is escaped and clipped; should even that be refused, a row
   * without the payload, and last the server's log. While the database is unavailable it waits.
   */
  private async deadLetter(item: Item, error: unknown): Promise<void> {
    const reason = failureReason(error);
    if (!('message' in item)) {
      this.options.warn(`MQTT ingestion: a presence change could not be stored and is dropped: ${reason}`);
      return;
    }
    const m = item.message;
    this.counters.deadLetters++;
    this.options.warn(
      `MQTT ingestion: dead letter: a message on ${safeText(m.topic, 255)} from ${safeText(m.clientId, 128)} failed alone and is set aside: ${reason}`,
    );
    let wait = RETRY_FIRST_MS;
    for (const minimal of [false, true]) {
      for (;;) {
        try {
          await this.writeLog(deadLetterRow(m, reason, minimal), m);
          return this.ackOne(item);
        } catch (failure) {
          if (!(await this.unavailable(failure))) {
            this.options.warn('MQTT ingestion: a dead letter could not be written', failure);
            break;
          }
          if (this.stopping) return;
          await new Promise((r) => setTimeout(r, wait));
          wait = Math.min(wait * 2, RETRY_LONGEST_MS);
        }
      }
    }
    // Nothing could keep it: the warning above is its record.
    this.ackOne(item);
  }

  private ackOne(item: Item): void {
    try {
      if (item.ack) item.ack(item.message);
    } catch (error) {
      this.options.warn('MQTT ingestion: an acknowledgement failed', error);
    }
  }

  /** One message-log row in a transaction of its own (with the delivery ledger's row, as a batch has). */
  private async writeLog(log: LogRow, m: IncomingMessage): Promise<void> {
    const client = await this.options.pool.connect();
    const ignore = () => undefined;
    client.on('error', ignore);
    let failure: Error | undefined;
    try {
      await client.query('begin');
      await client.query(messageLogInsert([log]));
      if (this.options.inTransaction) await this.options.inTransaction(client, [m]);
      await client.query('commit');
      this.options.totals?.written({ [mqttMessageResource.code]: [log] });
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.removeListener('error', ignore);
      client.release(failure);
    }
  }
}
