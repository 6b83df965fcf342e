import { describe, expect, it } from 'vitest';
import type { ModelField } from './device-directory';
import { convertValue, parseStatus, parseTelemetry, parseTopic } from './ingestion';
import { mayPublish, maySubscribe } from './mqtt-broker';

const now = Date.UTC(2026, 10, 24, 12);
const received = new Date(now);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('topics', () => {
  it('reads mes/{tenant}/{device}/{kind} and nothing else', () => {
    expect(parseTopic('mes/000000/WL-1/telemetry')).toEqual({
      tenantId: '000000',
      deviceCode: 'WL-1',
      kind: 'telemetry',
    });
    expect(parseTopic('mes/000000/WL-1/status')?.kind).toBe('status');
    expect(parseTopic('mes/000000/WL-1/alarm')).toBeUndefined();
    expect(parseTopic('mes/000000/WL-1/telemetry/x')).toBeUndefined();
    expect(parseTopic('mes//WL-1/telemetry')).toBeUndefined();
    expect(parseTopic('other/000000/WL-1/telemetry')).toBeUndefined();
  });

  it('lets a device publish and subscribe under its own prefix only', () => {
    const device = { tenantId: '000000', deviceCode: 'WL-1', deviceId: '1' };
    expect(mayPublish(device, 'mes/000000/WL-1/telemetry')).toBe(true);
    expect(mayPublish(device, 'mes/000000/WL-2/telemetry')).toBe(false);
    expect(mayPublish(device, 'mes/000001/WL-1/telemetry')).toBe(false);
    expect(mayPublish(device, 'mes/000000/WL-1/other')).toBe(false);
    expect(maySubscribe(device, 'mes/000000/WL-1/#')).toBe(true);
    expect(maySubscribe(device, 'mes/000000/+/#')).toBe(false);
    expect(maySubscribe(device, '#')).toBe(false);
  });
});

describe('telemetry payloads', () => {
  it('takes {ts, values} and the flat form, ts in ms or ISO, else the receive time', () => {
    expect(parseTelemetry(json({ ts: now - 1000, values: { a: 1 } }), received, now)).toEqual({
      ts: new Date(now - 1000),
      values: { a: 1 },
    });
    expect(parseTelemetry(json({ ts: '2026-11-24T11:00:00Z', a: 1, b: 'x' }), received, now)).toEqual({
      ts: new Date(Date.UTC(2026, 10, 24, 11)),
      values: { a: 1, b: 'x' },
    });
    expect(parseTelemetry(json({ a: 1 }), received, now)).toEqual({ ts: received, values: { a: 1 } });
  });

  it('refuses what it cannot read, saying why', () => {
    expect(parseTelemetry(Buffer.from('{'), received, now)).toBe('payload is not JSON');
    expect(parseTelemetry(json([1]), received, now)).toBe('payload is not a JSON object');
    expect(parseTelemetry(json({ ts: 'soon', a: 1 }), received, now)).toBe(
      'ts is neither epoch milliseconds nor an ISO time',
    );
    expect(parseTelemetry(json({ ts: now + 2 * 86_400_000, a: 1 }), received, now)).toBe('ts is out of range');
    expect(parseTelemetry(json({ values: 3 }), received, now)).toBe('values is not an object');
    expect(parseTelemetry(json({ ts: now }), received, now)).toBe('no values');
  });

  it('reads status as text, JSON string or object', () => {
    expect(parseStatus(Buffer.from('online'))).toEqual({ online: true });
    expect(parseStatus(Buffer.from('"offline"'))).toEqual({ online: false });
    expect(parseStatus(json({ status: 'offline', reason: 'normal' }))).toEqual({ online: false, reason: 'normal' });
    expect(parseStatus(Buffer.from('maybe'))).toBe('status is neither online nor offline');
  });
});

describe('values against the model', () => {
  const field = (f: Partial<ModelField>): ModelField => ({
    field: 'x',
    dataType: 'float',
    unit: '',
    precision: 2,
    ...f,
  });

  it('scales and rounds numbers', () => {
    expect(convertValue(field({ scaling: { multiplier: 0.1, offset: -40 } }), 655)).toEqual({
      num: '25.5',
      text: null,
    });
    expect(convertValue(field({ precision: 1 }), 1.26)).toEqual({ num: '1.3', text: null });
    expect(convertValue(field({ dataType: 'int', precision: 0 }), 37)).toEqual({ num: '37', text: null });
  });

  it('refuses a wrong type or an out-of-range number', () => {
    expect(convertValue(field({}), '1')).toBe('x is not a number');
    expect(convertValue(field({ dataType: 'int' }), 1.5)).toBe('x is not an integer');
    expect(convertValue(field({ dataType: 'bool' }), 1)).toBe('x is not a boolean');
    expect(convertValue(field({ dataType: 'string' }), 1)).toBe('x is not a string');
    expect(convertValue(field({}), 1e20)).toBe('x is out of range');
  });

  it('stores booleans as 1/0, strings and enums as given', () => {
    expect(convertValue(field({ dataType: 'bool' }), true)).toEqual({ num: '1', text: null });
    expect(convertValue(field({ dataType: 'string' }), 'P1')).toEqual({ num: null, text: 'P1' });
    expect(convertValue(field({ dataType: 'enum' }), 3)).toEqual({ num: '3', text: null });
    expect(convertValue(field({ dataType: 'enum' }), 'drying')).toEqual({ num: null, text: 'drying' });
  });
});
