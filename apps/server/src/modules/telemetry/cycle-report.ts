import { CycleResult } from '@mes/contracts';
import { FIELD_NAME_MAX, MAX_EXACT, parseJsonObject, parseTs, type BatchClock, type CycleRow } from './batch-rows';
import { shownName, textFault } from '../../platform/mqtt/device-text';

/**
 * Reads a finished cycle as devices publish it on `mes/{tenant}/{device}/cycle` (docs/mqtt.md "Cycles"):
 * `{ts?, program, programName?, start, end, durationSeconds?, result: 'pass'|'fail'|'aborted',
 * faultCode?, ...figures}` — the figures are the remaining numeric keys (`maxTemperature`,
 * `minHoldConcentration`, `holdSeconds` …), kept as sent in `figures`, the ones reports read
 * also in their columns.
 */

const RESULTS: Record<string, number> = {
  pass: CycleResult.pass,
  fail: CycleResult.fail,
  aborted: CycleResult.aborted,
};
/** The envelope's keys: everything else numeric is a figure. */
const ENVELOPE = new Set(['ts', 'program', 'programName', 'start', 'end', 'durationSeconds', 'result', 'faultCode']);
/** numeric(12, 2) holds |v| < 10^10. */
const MAX_FIGURE = 1e10;
const INT4 = 2_147_483_647;
/** varchar(64) of `program_name`. */
const PROGRAM_NAME_MAX = 64;

const intIn = (value: unknown, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;

/** The first of these figures that is a number a numeric(12, 2) column holds. */
function column(figures: Record<string, number>, ...names: string[]): number | null {
  for (const name of names) {
    const value = figures[name];
    if (value !== undefined && Math.abs(value) < MAX_FIGURE) return value;
  }
  return null;
}

/** A figure's name and value as `figures` (jsonb) keeps them, or why the cycle cannot be kept as sent. */
function figureFault(name: string, value: number): string | undefined {
  const fault = textFault(name, FIELD_NAME_MAX);
  if (fault) return `cycle figure name ${shownName(name)} ${fault}`;
  if (Math.abs(value) > MAX_EXACT)
    return `cycle figure ${name} is beyond ±${MAX_EXACT}, the largest magnitude kept exactly`;
  return undefined;
}

/**
 * A cycle payload as a row (tenant and device from the topic), or why it was refused. A cycle is
 * one record: a text, figure or time it cannot keep as sent refuses it whole, with the reason.
 */
export function parseCycle(
  payload: Buffer,
  receivedAt: Date,
  clock: BatchClock,
  device: { tenantId: string; deviceCode: string },
): CycleRow | string {
  const record = parseJsonObject(payload);
  if (typeof record === 'string') return record;
  if (record.start === undefined || record.start === null) return 'cycle start is missing';
  if (record.end === undefined || record.end === null) return 'cycle end is missing';
  // A cycle ending ahead of the server's clock by more than the allowed skew has a wrong clock behind it.
  const start = parseTs(record.start, receivedAt, clock.now, clock.maxAheadMs);
  if (typeof start === 'string') return `cycle start: ${start.replace(/^ts /, '')}`;
  const end = parseTs(record.end, receivedAt, clock.now, clock.maxAheadMs);
  if (typeof end === 'string') return `cycle end: ${end.replace(/^ts /, '')}`;
  if (end < start) return 'cycle end is before its start';
  const result = typeof record.result === 'string' ? RESULTS[record.result] : undefined;
  if (result === undefined) return 'cycle result is neither pass, fail nor aborted';
  const program = record.program ?? 0;
  if (!intIn(program, 9999)) return 'cycle program is not a program no. (0–9999)';
  const faultCode = record.faultCode ?? 0;
  if (!intIn(faultCode, INT4)) return 'cycle faultCode is not an integer ≥ 0';
  const measured = Math.round((end.getTime() - start.getTime()) / 1000);
  const duration = record.durationSeconds ?? measured;
  if (!intIn(duration, INT4)) return 'cycle durationSeconds is not an integer ≥ 0';
  const programName = record.programName ?? '';
  if (typeof programName !== 'string') return 'cycle programName is not text';
  const nameFault = textFault(programName, PROGRAM_NAME_MAX);
  if (nameFault) return `cycle programName ${nameFault}`;
  const figures: Record<string, number> = {};
  for (const [name, value] of Object.entries(record)) {
    if (ENVELOPE.has(name) || typeof value !== 'number' || !Number.isFinite(value)) continue;
    const fault = figureFault(name, value);
    if (fault) return fault;
    figures[name] = value;
  }
  const hold = figures.holdSeconds;
  return {
    tenantId: device.tenantId,
    deviceCode: device.deviceCode,
    programNo: program as number,
    programName,
    start,
    end,
    durationSeconds: duration as number,
    result,
    faultCode: faultCode as number,
    maxTemperature: column(figures, 'maxTemperature'),
    minTemperature: column(figures, 'minTemperature', 'minHoldTemperature'),
    maxPressure: column(figures, 'maxPressure'),
    minConcentration: column(figures, 'minConcentration', 'minHoldConcentration'),
    holdSeconds: hold !== undefined && intIn(Math.round(hold), INT4) ? Math.round(hold) : null,
    figures,
  };
}
