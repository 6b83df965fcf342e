import type pg from 'pg';
import { MqttDirection, OnOffReason, TelemetryQuality } from '@mes/contracts';
import { nextId } from '../db/ids';
import type { DeviceDirectory, KnownDevice, ModelField } from './device-directory';

/**
 * Ingestion of device messages (docs/mqtt.md): parsed, checked against the product's model,
 * scaled, and written in batches — one transaction per batch to the telemetry series, the
 * latest values, the MQTT message log and the on/off records. A message's `ack` (its PUBACK) is
 * called only after the batch holding it committed.
 */

export type TopicKind = 'telemetry' | 'status' | 'cycle';
export const TOPIC_KINDS: readonly TopicKind[] = ['telemetry', 'status', 'cycle'];

/** `mes/{tenantId}/{deviceCode}/{kind}`, or undefined for any other topic. */
export function parseTopic(topic: string): { tenantId: string; deviceCode: string; kind: TopicKind } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== 'mes') return undefined;
  const [, tenantId = '', deviceCode = '', kind = ''] = parts;
  if (!tenantId || !deviceCode || !(TOPIC_KINDS as readonly string[]).includes(kind)) return undefined;
  return { tenantId, deviceCode, kind: kind as TopicKind };
}

export interface IncomingMessage {
  topic: string;
  payload: Buffer;
  qos: number;
  retain: boolean;
  /** The publishing client, where the broker says (the embedded one); '' otherwise. */
  clientId: string;
  receivedAt: Date;
}

/** A connection event the embedded broker or the inactivity sweep reports. */
export interface PresenceEvent {
  tenantId: string;
  deviceCode: string;
  online: boolean;
  at: Date;
  reason: (typeof OnOffReason)[keyof typeof OnOffReason];
}

type Item = { message: IncomingMessage; ack: () => void } | { presence: PresenceEvent; ack?: undefined };

export interface IngestionCounters {
  received: number;
  stored: number;
  /** Payload or topic not understood (not JSON, no values, bad time). */
  malformed: number;
  unknownDevice: number;
  unknownField: number;
  wrongType: number;
  batches: number;
  failedBatches: number;
  /** The largest number of messages ever waiting at once (the queue's bound holds it below `maxQueue`). */
  maxQueued: number;
  /** How often reading from the broker was paused because the queue was full. */
  pauses: number;
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
}

interface TelemetryRow {
  tenantId: string;
  deviceCode: string;
  field: string;
  ts: Date;
  num: string | null;
  text: string | null;
}

interface LogRow {
  tenantId: string;
  topic: string;
  clientId: string;
  qos: number;
  retain: boolean;
  payload: string;
  deviceCode: string;
  parsedOk: boolean;
  error: string | null;
  at: Date;
}

interface OnOffRow {
  tenantId: string;
  deviceCode: string;
  event: 'online' | 'offline';
  onTime: Date | null;
  offTime: Date | null;
  duration: number | null;
  reason: string;
  at: Date;
}

const PLATFORM_TENANT = '000000';
const TENANT_ID = /^[A-Za-z0-9_-]{1,12}$/;
/** numeric(24, 6) holds |v| < 10^18; larger values would fail the whole batch's insert. */
const MAX_ABS_VALUE = 1e17;
const EARLIEST_TS = Date.UTC(2000, 0, 1);
const LATEST_AHEAD_MS = 24 * 60 * 60 * 1000;
const RETRY_MS = 1000;

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
/** PostgreSQL text refuses NUL. */
const printable = (text: string) => text.replaceAll(String.fromCharCode(0), '\uFFFD');

function parseTs(value: unknown, fallback: Date, now: number): Date | string {
  if (value === undefined || value === null) return fallback;
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) return 'ts is neither epoch milliseconds nor an ISO time';
  if (ms < EARLIEST_TS || ms > now + LATEST_AHEAD_MS) return 'ts is out of range';
  return new Date(ms);
}

/** `{ts, values:{k:v}}` or flat `{k: v, ts?}`. */
export function parseTelemetry(
  payload: Buffer,
  receivedAt: Date,
  now: number,
): { ts: Date; values: Record<string, unknown> } | string {
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    return 'payload is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'payload is not a JSON object';
  const record = body as Record<string, unknown>;
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
  }
  if (Object.keys(values).length === 0) return 'no values';
  return { ts, values };
}

/** `online` / `offline`, as text, a JSON string or `{status, reason?}`. */
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
  return { online: status === 'online', ...(typeof reason === 'string' ? { reason } : {}) };
}

const round = (value: number, precision: number) => {
  const p = 10 ** Math.max(0, Math.min(6, Math.trunc(precision)));
  return Math.round(value * p) / p;
};

/** A value checked against its model field: the stored number or text, or why it was refused. */
export function convertValue(field: ModelField, raw: unknown): { num: string | null; text: string | null } | string {
  const numeric = (value: number) => {
    const scaled = field.scaling ? value * field.scaling.multiplier + field.scaling.offset : value;
    const rounded = round(scaled, field.precision);
    if (!Number.isFinite(rounded) || Math.abs(rounded) >= MAX_ABS_VALUE) return `${field.field} is out of range`;
    return { num: String(rounded), text: null };
  };
  switch (field.dataType) {
    case 'int':
      if (typeof raw !== 'number' || !Number.isInteger(raw)) return `${field.field} is not an integer`;
      return numeric(raw);
    case 'float':
      if (typeof raw !== 'number') return `${field.field} is not a number`;
      return numeric(raw);
    case 'bool':
      if (typeof raw !== 'boolean') return `${field.field} is not a boolean`;
      return { num: raw ? '1' : '0', text: null };
    case 'string':
      if (typeof raw !== 'string') return `${field.field} is not a string`;
      return { num: null, text: clip(printable(raw), 255) };
    case 'enum':
      if (typeof raw === 'number' && Number.isInteger(raw) && Math.abs(raw) < MAX_ABS_VALUE)
        return { num: String(raw), text: null };
      if (typeof raw === 'string') return { num: null, text: clip(printable(raw), 255) };
      return `${field.field} is not an enum value`;
    default:
      return `${field.field} has an unknown data type`;
  }
}

const keyOf = (tenantId: string, deviceCode: string) => `${tenantId}/${deviceCode}`;

interface Seen {
  tenantId: string;
  deviceCode: string;
  lastAt: number;
  inactivitySeconds: number;
}

export class Ingestion {
  readonly counters: IngestionCounters = {
    received: 0,
    stored: 0,
    malformed: 0,
    unknownDevice: 0,
    unknownField: 0,
    wrongType: 0,
    batches: 0,
    failedBatches: 0,
    maxQueued: 0,
    pauses: 0,
  };
  private queue: Item[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private paused = false;
  private stopped = false;
  private stopping = false;
  /** Devices this process counts as online, with the time they came online. */
  private readonly onlineSince = new Map<string, Date>();
  /** Last message time of every device seen, for the inactivity sweep. */
  private readonly seen = new Map<string, Seen>();
  private readonly batchSize: number;
  private readonly batchDelayMs: number;
  private readonly maxQueue: number;
  /** Lets the subscriber be attached after the ingestion is made (it needs `push`). */
  flow: { pause(): void; resume(): void } | undefined;

  constructor(private readonly options: IngestionOptions) {
    this.batchSize = options.batchSize ?? 500;
    this.batchDelayMs = options.batchDelayMs ?? 50;
    this.maxQueue = options.maxQueue ?? 5000;
    this.flow = options.flow;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** A message from the broker; `ack` is called once its batch is committed. */
  push(message: IncomingMessage, ack: () => void): void {
    this.counters.received++;
    this.enqueue({ message, ack });
  }

  /** A connection event (embedded broker connect / disconnect, inactivity). */
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

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.batchSize);
        await this.writeBatch(batch);
        if (this.paused && this.queue.length <= this.maxQueue / 2) {
          this.paused = false;
          this.flow?.resume();
        }
        if (this.queue.length < this.batchSize) break;
      }
    } finally {
      this.flushing = undefined;
      if (!this.stopped) this.schedule();
    }
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
   * Devices silent for longer than their product's inactivity timeout go offline. Each process
   * sweeps the devices whose messages it received (docs/mqtt.md, several processes).
   */
  sweepInactive(): void {
    const now = this.options.now();
    for (const [key, seen] of this.seen) {
      if (now - seen.lastAt < seen.inactivitySeconds * 1000) continue;
      this.seen.delete(key);
      if (this.onlineSince.has(key))
        this.presence({
          tenantId: seen.tenantId,
          deviceCode: seen.deviceCode,
          online: false,
          at: new Date(now),
          reason: OnOffReason.inactivity,
        });
    }
  }

  private async writeBatch(batch: Item[]): Promise<void> {
    const devices = new Map<string, Promise<KnownDevice | undefined>>();
    const find = (tenantId: string, deviceCode: string) => {
      const key = keyOf(tenantId, deviceCode);
      let found = devices.get(key);
      if (!found) {
        found = this.options.directory.find(tenantId, deviceCode).catch((error: unknown) => {
          this.options.warn(`MQTT ingestion: device lookup failed for ${key}`, error);
          return undefined;
        });
        devices.set(key, found);
      }
      return found;
    };
    const telemetry: TelemetryRow[] = [];
    const latest = new Map<string, TelemetryRow>();
    const logs: LogRow[] = [];
    const onoff: OnOffRow[] = [];
    const marks: { tenantId: string; deviceCode: string; online: boolean; at: Date }[] = [];
    const transition = (event: PresenceEvent) => {
      const key = keyOf(event.tenantId, event.deviceCode);
      const since = this.onlineSince.get(key);
      if (event.online) {
        if (since) return;
        this.onlineSince.set(key, event.at);
        onoff.push({ ...event, event: 'online', onTime: event.at, offTime: null, duration: null, at: event.at });
      } else {
        if (!since) return;
        this.onlineSince.delete(key);
        const duration = Math.max(0, Math.round((event.at.getTime() - since.getTime()) / 1000));
        onoff.push({ ...event, event: 'offline', onTime: since, offTime: event.at, duration, at: event.at });
      }
      marks.push({ tenantId: event.tenantId, deviceCode: event.deviceCode, online: event.online, at: event.at });
    };

    let stored = 0;
    for (const item of batch) {
      if ('presence' in item) {
        const known = await find(item.presence.tenantId, item.presence.deviceCode);
        if (known) transition(item.presence);
        continue;
      }
      const m = item.message;
      const topic = parseTopic(m.topic);
      const log: LogRow = {
        tenantId: topic && TENANT_ID.test(topic.tenantId) ? topic.tenantId : PLATFORM_TENANT,
        topic: clip(printable(m.topic), 255),
        clientId: clip(printable(m.clientId), 128),
        qos: m.qos,
        retain: m.retain,
        payload: printable(m.payload.toString('utf8')),
        deviceCode: clip(printable(topic?.deviceCode ?? ''), 64),
        parsedOk: false,
        error: null,
        at: m.receivedAt,
      };
      logs.push(log);
      if (!topic) {
        this.counters.malformed++;
        log.error = 'topic is not mes/{tenantId}/{deviceCode}/{telemetry|status|cycle}';
        continue;
      }
      const device = await find(topic.tenantId, topic.deviceCode);
      if (!device) {
        this.counters.unknownDevice++;
        log.error = 'unknown device';
        continue;
      }
      const key = keyOf(device.tenantId, device.deviceCode);
      this.seen.set(key, {
        tenantId: device.tenantId,
        deviceCode: device.deviceCode,
        lastAt: m.receivedAt.getTime(),
        inactivitySeconds: device.inactivitySeconds,
      });
      const errors: string[] = [];
      if (topic.kind === 'telemetry') {
        const parsed = parseTelemetry(m.payload, m.receivedAt, this.options.now());
        if (typeof parsed === 'string') {
          this.counters.malformed++;
          log.error = parsed;
          continue;
        }
        for (const [name, raw] of Object.entries(parsed.values)) {
          const field = device.fields.get(name);
          if (!field) {
            this.counters.unknownField++;
            errors.push(`unknown field ${clip(name, 64)}`);
            continue;
          }
          const value = convertValue(field, raw);
          if (typeof value === 'string') {
            this.counters.wrongType++;
            errors.push(value);
            continue;
          }
          const row: TelemetryRow = {
            tenantId: device.tenantId,
            deviceCode: device.deviceCode,
            field: field.field,
            ts: parsed.ts,
            ...value,
          };
          telemetry.push(row);
          const fieldKey = `${key}/${field.field}`;
          const previous = latest.get(fieldKey);
          if (!previous || previous.ts <= row.ts) latest.set(fieldKey, row);
        }
        transition({ ...device, online: true, at: m.receivedAt, reason: OnOffReason.normal });
      } else if (topic.kind === 'status') {
        const status = parseStatus(m.payload);
        if (typeof status === 'string') {
          this.counters.malformed++;
          log.error = status;
          continue;
        }
        // An offline status is what devices send as their last will (DOMAIN.md): a device
        // signing off on purpose says so with `{"status":"offline","reason":"normal"}`.
        const reason = status.online
          ? OnOffReason.normal
          : status.reason === OnOffReason.normal
            ? OnOffReason.normal
            : OnOffReason.lastWill;
        transition({ ...device, online: status.online, at: m.receivedAt, reason });
      } else {
        try {
          JSON.parse(m.payload.toString('utf8'));
        } catch {
          this.counters.malformed++;
          log.error = 'payload is not JSON';
          continue;
        }
        transition({ ...device, online: true, at: m.receivedAt, reason: OnOffReason.normal });
      }
      log.tenantId = device.tenantId;
      log.parsedOk = true;
      log.error = errors.length ? clip(errors.join('; '), 500) : null;
      stored++;
    }

    for (;;) {
      try {
        await this.commit(telemetry, [...latest.values()], logs, onoff);
        break;
      } catch (error) {
        this.counters.failedBatches++;
        this.options.warn(`MQTT ingestion: a batch of ${batch.length} could not be written; retrying`, error);
        if (this.stopping) return;
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
    this.counters.batches++;
    this.counters.stored += stored;
    for (const item of batch) item.ack?.();
    for (const mark of marks) {
      await this.options.directory
        .markOnline(mark.tenantId, mark.deviceCode, mark.online, mark.at)
        .catch((error: unknown) =>
          this.options.warn(`MQTT ingestion: markOnline failed for ${mark.deviceCode}`, error),
        );
    }
  }

  /** One transaction; each table gets one INSERT of parallel arrays (unnest), parameterised. */
  private async commit(telemetry: TelemetryRow[], latest: TelemetryRow[], logs: LogRow[], onoff: OnOffRow[]) {
    const client = await this.options.pool.connect();
    try {
      await client.query('begin');
      if (telemetry.length)
        await client.query(
          `insert into mes_telemetry (id, tenant_id, device_code, field, ts, num_value, text_value, quality)
           select * from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[],
                                $6::numeric[], $7::varchar[], $8::int[])`,
          [
            telemetry.map(() => nextId()),
            telemetry.map((r) => r.tenantId),
            telemetry.map((r) => r.deviceCode),
            telemetry.map((r) => r.field),
            telemetry.map((r) => r.ts),
            telemetry.map((r) => r.num),
            telemetry.map((r) => r.text),
            telemetry.map(() => TelemetryQuality.good),
          ],
        );
      if (latest.length)
        await client.query(
          `insert into mes_telemetry_latest (id, tenant_id, device_code, field, ts, num_value, text_value, quality)
           select * from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[],
                                $6::numeric[], $7::varchar[], $8::int[])
           on conflict (tenant_id, device_code, field) where is_deleted = 0 do update
             set ts = excluded.ts, num_value = excluded.num_value, text_value = excluded.text_value,
                 quality = excluded.quality, update_time = now()
             where mes_telemetry_latest.ts is null or mes_telemetry_latest.ts <= excluded.ts`,
          [
            latest.map(() => nextId()),
            latest.map((r) => r.tenantId),
            latest.map((r) => r.deviceCode),
            latest.map((r) => r.field),
            latest.map((r) => r.ts),
            latest.map((r) => r.num),
            latest.map((r) => r.text),
            latest.map(() => TelemetryQuality.good),
          ],
        );
      if (logs.length)
        await client.query(
          `insert into mes_mqtt_message (id, tenant_id, topic, client_id, qos, retain, direction, payload,
                                         device_code, parsed_ok, error, create_time)
           select * from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::int[], $6::boolean[],
                                $7::int[], $8::text[], $9::varchar[], $10::boolean[], $11::varchar[], $12::timestamptz[])`,
          [
            logs.map(() => nextId()),
            logs.map((r) => r.tenantId),
            logs.map((r) => r.topic),
            logs.map((r) => r.clientId),
            logs.map((r) => r.qos),
            logs.map((r) => r.retain),
            logs.map(() => MqttDirection.inbound),
            logs.map((r) => r.payload),
            logs.map((r) => r.deviceCode),
            logs.map((r) => r.parsedOk),
            logs.map((r) => r.error),
            logs.map((r) => r.at),
          ],
        );
      if (onoff.length)
        await client.query(
          `insert into mes_onoff (id, tenant_id, device_code, event, on_time, off_time, duration_seconds, reason, create_time)
           select * from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[], $5::timestamptz[],
                                $6::timestamptz[], $7::int[], $8::varchar[], $9::timestamptz[])`,
          [
            onoff.map(() => nextId()),
            onoff.map((r) => r.tenantId),
            onoff.map((r) => r.deviceCode),
            onoff.map((r) => r.event),
            onoff.map((r) => r.onTime),
            onoff.map((r) => r.offTime),
            onoff.map((r) => r.duration),
            onoff.map((r) => r.reason),
            onoff.map((r) => r.at),
          ],
        );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
