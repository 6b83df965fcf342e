import type { KnownDevice, ModelField } from './device-directory';
import type { PresenceChange } from './device-presence';
import type { BirthChange } from './sparkplug-births';

/**
 * The rows one ingestion batch writes, collected message by message (JSON topics and Sparkplug
 * alike) before the batch's one transaction: telemetry points, the latest value per field,
 * acquisition data, the message log and the presence changes.
 */

export const PLATFORM_TENANT = '000000';
export const TENANT_ID = /^[A-Za-z0-9_-]{1,12}$/;
/** numeric(24, 6) holds |v| < 10^18; larger values would fail the whole batch's insert. */
const MAX_ABS_VALUE = 1e17;
const EARLIEST_TS = Date.UTC(2000, 0, 1);
const LATEST_AHEAD_MS = 24 * 60 * 60 * 1000;

export const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
/** PostgreSQL text refuses NUL. */
export const printable = (text: string) => text.replaceAll(String.fromCharCode(0), '\uFFFD');

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

/** A report time: epoch milliseconds or ISO text, from 2000 to a day ahead; absent → the fallback. */
export function parseTs(value: unknown, fallback: Date, now: number): Date | string {
  if (value === undefined || value === null) return fallback;
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) return 'ts is neither epoch milliseconds nor an ISO time';
  if (ms < EARLIEST_TS || ms > now + LATEST_AHEAD_MS) return 'ts is out of range';
  return new Date(ms);
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

export interface TelemetryRow {
  tenantId: string;
  deviceCode: string;
  field: string;
  ts: Date;
  num: string | null;
  text: string | null;
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

/** One acquisition-data row: a report and what was stored from it. */
export interface AcquisitionRow {
  tenantId: string;
  deviceCode: string;
  gateway: string;
  groupId: string;
  collectTime: Date;
  /** Stored values by field: numbers as numbers, text as text. */
  values: Record<string, number | string>;
  errors: string | null;
  topic: string;
  protocol: string;
  seq: number | null;
}

/** Counters a report's values move (a subset of the ingestion's counters). */
export interface ValueCounters {
  unknownField: number;
  wrongType: number;
}

export class BatchRows {
  readonly telemetry: TelemetryRow[] = [];
  private readonly latestByKey = new Map<string, TelemetryRow>();
  readonly logs: LogRow[] = [];
  readonly acquisition: AcquisitionRow[] = [];
  readonly presence: PresenceChange[] = [];
  /** Sparkplug births and deaths, for the stored births. */
  readonly births: BirthChange[] = [];
  /** Finished cycles (`cycle` topic). */
  readonly cycles: CycleRow[] = [];

  get latest(): TelemetryRow[] {
    return [...this.latestByKey.values()];
  }

  /**
   * Checks one reported value against the device's model and keeps it for the series and the
   * latest values; answers the stored value, or why it was refused (counted).
   */
  addValue(
    device: KnownDevice,
    name: string,
    raw: unknown,
    ts: Date,
    counters: ValueCounters,
  ): { field: string; value: number | string } | string {
    const field = device.fields.get(name);
    if (!field) {
      counters.unknownField++;
      return `unknown field ${clip(name, 64)}`;
    }
    const value = convertValue(field, raw);
    if (typeof value === 'string') {
      counters.wrongType++;
      return value;
    }
    const row: TelemetryRow = {
      tenantId: device.tenantId,
      deviceCode: device.deviceCode,
      field: field.field,
      ts,
      ...value,
    };
    this.telemetry.push(row);
    const key = `${device.tenantId}/${device.deviceCode}/${field.field}`;
    const previous = this.latestByKey.get(key);
    if (!previous || previous.ts <= row.ts) this.latestByKey.set(key, row);
    return { field: field.field, value: value.num !== null ? Number(value.num) : (value.text ?? '') };
  }
}

/** The errors of one report as the log and acquisition data keep them. */
export const errorText = (errors: readonly string[]) => (errors.length ? clip(errors.join('; '), 500) : null);
