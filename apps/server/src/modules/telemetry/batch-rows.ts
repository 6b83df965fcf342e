import { OnOffReason } from '@mes/contracts';
import type { KnownDevice, ModelField } from './device-directory';
import type { PresenceEvent } from '../../platform/mqtt/topics';
import type { BirthChange } from './sparkplug-births';
import { clipText, shownName, storableText, textFault } from '../../platform/mqtt/device-text';
import { MinuteRollups } from './rollups';
import type { TelemetryRow } from './telemetry-row';

/**
 * The rows one ingestion batch writes, collected message by message (JSON topics and Sparkplug
 * alike) before the batch's one transaction: telemetry points, the latest value per field,
 * acquisition data, the message log and the presence changes. Every name, text, time and number
 * is checked here against what its column keeps (docs/mqtt.md "What a value must be"): a value
 * that cannot be kept as sent is refused with its reason, never changed and never left to fail
 * the batch's commit.
 */

export const PLATFORM_TENANT = '000000';
export const TENANT_ID = /^[A-Za-z0-9_-]{1,12}$/;
/**
 * The largest magnitude kept exactly: 2^53 − 1. Beyond it a JSON number (a double) no longer
 * tells the integer sent (9007199254740993 reads as …992), and scaled values lose integer digits.
 * numeric(24, 6) itself would hold up to 10^18.
 */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;
/** numeric(24, 6) keeps 6 decimals: a nonzero value below its least step would be stored as 0. */
const COLUMN_STEP = 0.000001;
const COLUMN_SCALE = 6;
/** varchar(64) of the field key, varchar(255) of a text value. */
export const FIELD_NAME_MAX = 64;
export const TEXT_VALUE_MAX = 255;
const EARLIEST_TS = Date.UTC(2000, 0, 1);
/** A report more than a day ahead is unreadable as a whole; a point beyond the allowed skew is refused alone. */
const REPORT_AHEAD_MS = 24 * 60 * 60 * 1000;
/** `MQTT_MAX_CLOCK_SKEW_SECONDS`' default: how far ahead of the server's clock a point may be. */
export const DEFAULT_MAX_CLOCK_SKEW_MS = 300_000;

/** At most `max` characters, never cutting a surrogate pair. */
export const clip = clipText;
/** Text the message log can store (PostgreSQL refuses NUL and lone surrogates): escaped, not dropped. */
export const printable = storableText;

/** A payload that must be a JSON object: the object, or why it is not one. */
export function parseJsonObject(payload: Buffer): Record<string, unknown> | string {
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    return 'payload is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'payload is not a JSON object';
  return body as Record<string, unknown>;
}

/** `ts is 82800 s (23 h) ahead of the server's clock, more than …`. */
export function aheadText(aheadMs: number, limit: string): string {
  const hours = aheadMs >= 3_600_000 ? ` (${Math.round(aheadMs / 3_600_000)} h)` : '';
  return `ts is ${Math.ceil(aheadMs / 1000)} s${hours} ahead of the server's clock, more than ${limit}`;
}

const allowed = (maxAheadMs: number) => `the ${Math.round(maxAheadMs / 1000)} s allowed`;

/**
 * A report time: epoch milliseconds or ISO text, from 2000 to `maxAheadMs` ahead of `now`
 * (default a day: the points of a report are then held to the clock skew one by one, `addValue`);
 * absent → the fallback.
 */
export function parseTs(value: unknown, fallback: Date, now: number, maxAheadMs = REPORT_AHEAD_MS): Date | string {
  if (value === undefined || value === null) return fallback;
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) return 'ts is neither epoch milliseconds nor an ISO time';
  if (ms < EARLIEST_TS) return 'ts is out of range';
  if (ms > now + maxAheadMs) return aheadText(ms - now, maxAheadMs === REPORT_AHEAD_MS ? 'a day' : allowed(maxAheadMs));
  return new Date(ms);
}

/** Why a value was refused, and which counter counts it. */
class Refusal {
  constructor(
    readonly why: string,
    readonly counter: 'wrongType' | 'inexact' | 'badText',
  ) {}
}

type Stored = { num: string | null; text: string | null };

/**
 * The decimal text of a number rounded to `decimals`: the double's exact value rounded, no
 * exponent. An integer (within ±2^53 here) is its own text; otherwise `toFixed`, its trailing
 * zeros trimmed by hand (a regular expression per value was a measurable share of ingestion).
 */
function decimalText(value: number, decimals: number): string {
  if (Number.isInteger(value)) return value === 0 ? '0' : String(value);
  const text = value.toFixed(decimals);
  if (!text.includes('.')) return text === '-0' ? '0' : text;
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48 /* 0 */) end--;
  if (text.charCodeAt(end - 1) === 46 /* . */) end--;
  const trimmed = end === text.length ? text : text.slice(0, end);
  return trimmed === '-0' ? '0' : trimmed;
}

/**
 * A number as the field keeps it, or why it cannot be kept as sent. Scaling, then rounding to the
 * field's precision (0–6 decimals), is the model's declared behaviour; a number the store cannot
 * keep is refused: beyond ±(2^53 − 1) as sent or after scaling, or nonzero but below the column's
 * least step (it would become 0 at any precision).
 */
function numeric(field: ModelField, raw: number): StoredValue | Refusal {
  const f = field.field;
  if (!Number.isFinite(raw)) return new Refusal(`${f} is not a finite number`, 'wrongType');
  if (Math.abs(raw) > MAX_EXACT)
    return new Refusal(
      `${f} is beyond ±${MAX_EXACT}, the largest ${field.dataType === 'int' ? 'integer' : 'magnitude'} kept exactly`,
      'inexact',
    );
  const multiplied = field.scaling ? raw * field.scaling.multiplier : raw;
  if (multiplied !== 0 && Math.abs(multiplied) < COLUMN_STEP)
    return new Refusal(
      `${f} ${String(multiplied)} is smaller than ${COLUMN_STEP.toFixed(COLUMN_SCALE)}, the least the column keeps: it would be stored as 0`,
      'inexact',
    );
  const scaled = field.scaling ? multiplied + field.scaling.offset : raw;
  if (!Number.isFinite(scaled) || Math.abs(scaled) > MAX_EXACT)
    return new Refusal(`${f} is beyond ±${MAX_EXACT} after scaling, the largest magnitude kept exactly`, 'inexact');
  const decimals = Math.max(0, Math.min(COLUMN_SCALE, Math.trunc(field.precision)));
  return decimalText(scaled, decimals);
}

function textValue(field: ModelField, raw: string): StoredValue | Refusal {
  const fault = textFault(raw, TEXT_VALUE_MAX, 'text');
  return fault ? new Refusal(`${field.field} ${fault}`, 'badText') : { text: raw };
}

const TRUE: StoredValue = '1';
const FALSE: StoredValue = '0';

/**
 * A value checked against its model field: what the report stores (text, or a number as its
 * decimal text), or why it was refused and how it counts. The stored value is the report's own
 * object: no intermediate one per value.
 */
function checkValue(field: ModelField, raw: unknown): StoredValue | Refusal {
  const wrong = (what: string) => new Refusal(`${field.field} is not ${what}`, 'wrongType');
  switch (field.dataType) {
    case 'int':
      if (typeof raw !== 'number' || (Number.isFinite(raw) && !Number.isInteger(raw))) return wrong('an integer');
      return numeric(field, raw);
    case 'float':
      if (typeof raw !== 'number') return wrong('a number');
      return numeric(field, raw);
    case 'bool':
      if (typeof raw !== 'boolean') return wrong('a boolean');
      return raw ? TRUE : FALSE;
    case 'string':
      if (typeof raw !== 'string') return wrong('a string');
      return textValue(field, raw);
    case 'enum':
      if (typeof raw === 'number' && Number.isInteger(raw)) {
        if (Number.isSafeInteger(raw)) return String(raw);
        return new Refusal(`${field.field} is beyond ±${MAX_EXACT}, the largest integer kept exactly`, 'inexact');
      }
      if (typeof raw === 'string') return textValue(field, raw);
      return wrong('an enum value');
    default:
      return new Refusal(`${field.field} has an unknown data type`, 'wrongType');
  }
}

/** A value checked against its model field: the stored number or text, or why it was refused. */
export function convertValue(field: ModelField, raw: unknown): Stored | string {
  const checked = checkValue(field, raw);
  if (checked instanceof Refusal) return checked.why;
  return typeof checked === 'string' ? { num: checked, text: null } : { num: null, text: checked.text };
}

export interface LogRow {
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

/** One finished cycle as parsed from its report (`cycle-report.ts`), stored by `cycle-store.ts`. */
export interface CycleRow {
  tenantId: string;
  deviceCode: string;
  programNo: number;
  programName: string;
  start: Date;
  end: Date;
  durationSeconds: number;
  result: number;
  faultCode: number;
  maxTemperature: number | null;
  minTemperature: number | null;
  maxPressure: number | null;
  minConcentration: number | null;
  holdSeconds: number | null;
  figures: Record<string, number>;
}

/** A device's run of report activity in a batch after its first event: see `BatchRows.addActivity`. */
interface ActivityRun {
  earliest?: PresenceEvent;
  latest?: PresenceEvent;
  last?: PresenceEvent;
}

const activityEvent = (tenantId: string, deviceCode: string, at: Date): PresenceEvent => ({
  tenantId,
  deviceCode,
  online: true,
  at,
  reason: OnOffReason.normal,
});

/** One acquisition-data row: a report and what was stored from it. */
export interface AcquisitionRow {
  tenantId: string;
  deviceCode: string;
  gateway: string;
  groupId: string;
  collectTime: Date;
  /** Stored values by field: numbers as their exact decimal text, text values as `{ text }`. */
  values: Record<string, StoredValue>;
  errors: string | null;
  topic: string;
  protocol: string;
  seq: number | null;
  /**
   * The MQTT message this row stands for in the message log (docs/mqtt.md "Stored once"): set
   * when the message was stored as this one row, which then replaces its log row.
   */
  message?: { clientId: string; qos: number; retain: boolean; receivedAt: Date };
}

/** Counters a report's values move (a subset of the ingestion's counters). */
export interface ValueCounters {
  unknownField: number;
  wrongType: number;
  /** Names and texts refused: control characters, lone surrogates, too long. */
  badText: number;
  /** Points further ahead of the server's clock than the allowed skew. */
  aheadOfClock: number;
  /** Numbers the field cannot keep exactly. */
  inexact: number;
}

/** The server's clock for one batch, and how far ahead of it a point may be. */
export interface BatchClock {
  now: number;
  maxAheadMs: number;
}

/** What `textFault` says of each model field's name, asked once per field rather than once per value. */
const modelNameFaults = new WeakMap<ModelField, { name: string; fault: string | undefined }>();

function modelNameFault(field: ModelField, name: string): string | undefined {
  let known = modelNameFaults.get(field);
  if (known?.name !== name) modelNameFaults.set(field, (known = { name, fault: textFault(name, FIELD_NAME_MAX) }));
  return known.fault;
}

/**
 * The points of reports as rows of one value each (what the `mes_telemetry` view shows of them):
 * for what still reads points one by one (tests, the bench's layout of before). Ingestion keeps no
 * such row per value: the reports hold the values, the rollups and latest values are folded as they
 * are read.
 */
export function pointsOf(reports: readonly AcquisitionRow[]): TelemetryRow[] {
  const points: TelemetryRow[] = [];
  for (const r of reports)
    for (const field in r.values) {
      const value = r.values[field]!;
      const num = typeof value === 'string' ? value : null;
      points.push({
        tenantId: r.tenantId,
        deviceCode: r.deviceCode,
        field,
        ts: r.collectTime,
        num,
        text: num === null ? (value as { text: string }).text : null,
      });
    }
  return points;
}

export class BatchRows {
  /** The numeric points folded per device, field and minute, for the rollups. */
  readonly rollups = new MinuteRollups();
  /** The newest point per device and field; the last device's fields are kept at hand (a message's points share it). */
  private readonly latestByDevice = new Map<string, Map<string, TelemetryRow>>();
  private lastDevice: KnownDevice | undefined;
  private lastLatest: Map<string, TelemetryRow> | undefined;
  readonly logs: LogRow[] = [];
  readonly acquisition: AcquisitionRow[] = [];
  /** Presence changes in order (add them with {@link addPresence} or {@link addActivity}). */
  readonly presence: PresenceEvent[] = [];
  /** Per tenant and device, its reports' run of activity since its last other presence change (`addActivity`). */
  private readonly activityRuns = new Map<string, Map<string, ActivityRun>>();
  /** Sparkplug births and deaths, for the stored births. */
  readonly births: BirthChange[] = [];
  /** Finished cycles (`cycle` topic). */
  readonly cycles: CycleRow[] = [];

  constructor(readonly clock: BatchClock) {}

  /** A presence change other than a report's activity (connect, disconnect, status, will): kept as is, in order. */
  addPresence(event: PresenceEvent): void {
    this.activityRuns.get(event.tenantId)?.delete(event.deviceCode);
    this.presence.push(event);
  }

  /**
   * A report's sign of life: the device is online at `at` (reason normal). Of a run of these with
   * no other change of the device between, `applyPresence` reads the first (the device may come
   * online with it), the last in order (its activity time) and the earliest and latest times
   * (the batch's usual, online-only case): so a run keeps at most four events, the last three
   * updated in place, rather than an object per report living until the commit.
   */
  addActivity(tenantId: string, deviceCode: string, at: Date): void {
    let runs = this.activityRuns.get(tenantId);
    if (!runs) this.activityRuns.set(tenantId, (runs = new Map()));
    const run = runs.get(deviceCode);
    if (!run) {
      this.presence.push(activityEvent(tenantId, deviceCode, at));
      runs.set(deviceCode, {});
    } else if (!run.last || !run.earliest || !run.latest) {
      run.earliest = activityEvent(tenantId, deviceCode, at);
      run.latest = activityEvent(tenantId, deviceCode, at);
      run.last = activityEvent(tenantId, deviceCode, at);
      this.presence.push(run.earliest, run.latest, run.last);
    } else {
      if (at < run.earliest.at) run.earliest.at = at;
      if (at > run.latest.at) run.latest.at = at;
      run.last.at = at;
    }
  }

  get latest(): TelemetryRow[] {
    const rows: TelemetryRow[] = [];
    for (const fields of this.latestByDevice.values()) for (const row of fields.values()) rows.push(row);
    return rows;
  }

  private latestOf(device: KnownDevice): Map<string, TelemetryRow> {
    if (device === this.lastDevice && this.lastLatest) return this.lastLatest;
    const key = `${device.tenantId}/${device.deviceCode}`;
    let fields = this.latestByDevice.get(key);
    if (!fields) this.latestByDevice.set(key, (fields = new Map()));
    this.lastDevice = device;
    this.lastLatest = fields;
    return fields;
  }

  /**
   * Checks one reported value — its name, its time against the clock skew, its value against the
   * device's model — and folds it into the latest values and the rollups; answers the stored value
   * (for the caller's report, which keeps it for the series and the alarm rules), or why it was
   * refused (counted). A point too far ahead is never stored: it would stay the
   * latest value until the device's clock caught up.
   */
  addValue(
    device: KnownDevice,
    name: string,
    raw: unknown,
    ts: Date,
    counters: ValueCounters,
  ): { field: string; value: StoredValue } | string {
    const into: Record<string, StoredValue> = {};
    const refused = this.putValue(device, name, raw, ts, counters, into);
    if (refused !== undefined) return refused;
    for (const field in into) return { field, value: into[field]! };
    return 'no value';
  }

  /**
   * {@link addValue} into the report's values (`into[field] = stored value`): what a JSON report's
   * loop calls, without an answer object per value; answers why the value was refused, if it was.
   */
  putValue(
    device: KnownDevice,
    name: string,
    raw: unknown,
    ts: Date,
    counters: ValueCounters,
    into: Record<string, StoredValue>,
  ): string | undefined {
    const field = device.fields.get(name);
    const nameFault = field ? modelNameFault(field, name) : textFault(name, FIELD_NAME_MAX);
    if (nameFault) {
      counters.badText++;
      return `field name ${shownName(name)} ${nameFault}`;
    }
    if (!field) {
      counters.unknownField++;
      return `unknown field ${shownName(name)}`;
    }
    const ahead = ts.getTime() - this.clock.now;
    if (ahead > this.clock.maxAheadMs) {
      counters.aheadOfClock++;
      return `${field.field}: ${aheadText(ahead, allowed(this.clock.maxAheadMs))}`;
    }
    const value = checkValue(field, raw);
    if (value instanceof Refusal) {
      counters[value.counter]++;
      return value.why;
    }
    const num = typeof value === 'string' ? value : null;
    const text = num === null ? (value as { text: string }).text : null;
    // The reports keep the values; a field's newest point of the batch is one row, updated in place.
    const latest = this.latestOf(device);
    const previous = latest.get(field.field);
    if (!previous)
      latest.set(field.field, {
        tenantId: device.tenantId,
        deviceCode: device.deviceCode,
        field: field.field,
        ts,
        num,
        text,
      });
    else if (previous.ts <= ts) {
      previous.ts = ts;
      previous.num = num;
      previous.text = text;
    }
    if (num !== null) this.rollups.add(device.tenantId, device.deviceCode, field.field, ts.getTime(), num);
    into[field.field] = value;
    return undefined;
  }
}

/**
 * A stored value as a report keeps it: a number as its exact decimal text, or a text value
 * wrapped. Numbers, by far the most values, are the bare string: no object per numeric value
 * (a batch's reports live across a commit, and each object of theirs was garbage to collect).
 */
export type StoredValue = string | { text: string };

/**
 * A report's values as the jsonb of acquisition data: numbers written as their exact decimal
 * text (jsonb keeps numbers as `numeric`, so 2^53 − 1 or 6 decimals stay exact), text as JSON strings.
 */
export function valuesJson(values: Readonly<Record<string, StoredValue>>): string {
  let json = '{';
  for (const field in values) {
    const value = values[field]!;
    if (json.length > 1) json += ',';
    json += `${quotedName(field)}:${typeof value === 'string' ? value : JSON.stringify(value.text)}`;
  }
  return `${json}}`;
}

/** Field names as JSON strings, kept: a report's names are its model's, the same in every report. */
const quotedNames = new Map<string, string>();
const QUOTED_NAMES_MAX = 10_000;

function quotedName(field: string): string {
  let quoted = quotedNames.get(field);
  if (quoted === undefined) {
    if (quotedNames.size >= QUOTED_NAMES_MAX) quotedNames.clear();
    quotedNames.set(field, (quoted = JSON.stringify(field)));
  }
  return quoted;
}

/** The errors of one report as the log and acquisition data keep them. */
export const errorText = (errors: readonly string[]) => (errors.length ? clip(errors.join('; '), 500) : null);
