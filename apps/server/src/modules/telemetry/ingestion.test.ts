import { describe, expect, it } from 'vitest';
import type { ModelField } from './device-directory';
import { convertValue, parseStatus, parseTelemetry, parseTopic } from './ingestion';
import { mayPublish, maySubscribe } from '../../platform/mqtt/mqtt-broker';
import {
  SparkplugSessions,
  decodeSparkplug,
  parseSparkplugTopic,
  type SparkplugMetric,
} from '../../platform/mqtt/sparkplug';
import { get as sparkplugNamespace } from 'sparkplug-payload';

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
    // A control character in a level would fail the device look-up's query: not a device topic.
    expect(parseTopic('mes/000000/WL\u00001/telemetry')).toBeUndefined();
    expect(parseTopic('mes/000\u001b00/WL-1/telemetry')).toBeUndefined();
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

  it('keeps a report sequence number apart from the values', () => {
    expect(parseTelemetry(json({ seq: 4, a: 1 }), received, now)).toEqual({ ts: received, values: { a: 1 }, seq: 4 });
    expect(parseTelemetry(json({ seq: 5, values: { a: 1 } }), received, now)).toEqual({
      ts: received,
      values: { a: 1 },
      seq: 5,
    });
    // Not an int4 ≥ 0: no sequence number, the values still count.
    expect(parseTelemetry(json({ seq: 'x', a: 1 }), received, now)).toEqual({ ts: received, values: { a: 1 } });
  });

  it('refuses what it cannot read, saying why', () => {
    expect(parseTelemetry(Buffer.from('{'), received, now)).toBe('payload is not JSON');
    expect(parseTelemetry(json([1]), received, now)).toBe('payload is not a JSON object');
    expect(parseTelemetry(json({ ts: 'soon', a: 1 }), received, now)).toBe(
      'ts is neither epoch milliseconds nor an ISO time',
    );
    expect(parseTelemetry(json({ ts: now + 2 * 86_400_000, a: 1 }), received, now)).toBe(
      "ts is 172800 s (48 h) ahead of the server's clock, more than a day",
    );
    expect(parseTelemetry(json({ ts: '1999-12-31T23:59:59Z', a: 1 }), received, now)).toBe('ts is out of range');
    expect(parseTelemetry(json({ values: 3 }), received, now)).toBe('values is not an object');
    expect(parseTelemetry(json({ ts: now }), received, now)).toBe('no values');
  });

  it('reads status as text, JSON string or object', () => {
    expect(parseStatus(Buffer.from('online'))).toEqual({ online: true });
    expect(parseStatus(Buffer.from('"offline"'))).toEqual({ online: false });
    expect(parseStatus(json({ status: 'offline', reason: 'normal' }))).toEqual({ online: false, reason: 'normal' });
    expect(parseStatus(Buffer.from('maybe'))).toBe('status is neither online nor offline');
  });

  it('refuses a status reason PostgreSQL or a reader could not take', () => {
    expect(parseStatus(Buffer.from(String.raw`{"status":"offline","reason":"nor\u0000mal"}`))).toBe(
      'status reason contains the control character U+0000',
    );
    expect(parseStatus(Buffer.from(String.raw`{"status":"offline","reason":"\udc00"}`))).toBe(
      'status reason contains a lone surrogate U+DC00 (broken UTF-16)',
    );
    expect(parseStatus(json({ status: 'offline', reason: 'r'.repeat(65) }))).toBe(
      'status reason is longer than 64 characters (65)',
    );
    expect(parseStatus(json({ status: 'offline', reason: 7 }))).toEqual({ online: false });
  });

  it('leaves a ts a day ahead to the per-field clock check (BatchRows.addValue)', () => {
    expect(parseTelemetry(json({ ts: now + 23 * 3_600_000, a: 1 }), received, now)).toEqual({
      ts: new Date(now + 23 * 3_600_000),
      values: { a: 1 },
    });
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
    expect(convertValue(field({}), 1e20)).toBe('x is beyond ±9007199254740991, the largest magnitude kept exactly');
  });

  it('stores booleans as 1/0, strings and enums as given', () => {
    expect(convertValue(field({ dataType: 'bool' }), true)).toEqual({ num: '1', text: null });
    expect(convertValue(field({ dataType: 'string' }), 'P1')).toEqual({ num: null, text: 'P1' });
    expect(convertValue(field({ dataType: 'enum' }), 3)).toEqual({ num: '3', text: null });
    expect(convertValue(field({ dataType: 'enum' }), 'drying')).toEqual({ num: null, text: 'drying' });
  });
});

describe('Sparkplug B', () => {
  const device = { tenantId: 't1', deviceCode: 'WL-1', deviceId: '1' };

  it('maps group to tenant and the device (or, for node messages, the edge node) to the device code', () => {
    expect(parseSparkplugTopic('spBv1.0/t1/DDATA/GW/WL-1')).toEqual({
      group: 't1',
      type: 'DDATA',
      edge: 'GW',
      device: 'WL-1',
    });
    expect(parseSparkplugTopic('spBv1.0/t1/NBIRTH/GW')).toEqual({
      group: 't1',
      type: 'NBIRTH',
      edge: 'GW',
      device: undefined,
    });
    expect(parseSparkplugTopic('spBv1.0/t1/NDATA/GW/WL-1')).toBeUndefined();
    expect(parseSparkplugTopic('spBv1.0/t1/DDATA/GW')).toBeUndefined();
    expect(parseSparkplugTopic('spBv1.0/t1/NCMD/GW')).toBeUndefined();
    expect(parseSparkplugTopic('spBv1.0/STATE/host')).toBeUndefined();
    expect(parseSparkplugTopic('spAv1.0/t1/NDATA/GW')).toBeUndefined();
  });

  it('lets a device publish under its tenant and own code only', () => {
    expect(mayPublish(device, 'spBv1.0/t1/NBIRTH/WL-1')).toBe(true);
    expect(mayPublish(device, 'spBv1.0/t1/DDATA/GW/WL-1')).toBe(true);
    expect(mayPublish(device, 'spBv1.0/t1/DDATA/WL-1/WL-2')).toBe(false);
    expect(mayPublish(device, 'spBv1.0/t1/NDATA/WL-2')).toBe(false);
    expect(mayPublish(device, 'spBv1.0/t2/NDATA/WL-1')).toBe(false);
    expect(mayPublish(device, 'spBv1.0/t1/NCMD/WL-1')).toBe(false);
    expect(maySubscribe(device, 'spBv1.0/t1/NCMD/WL-1')).toBe(true);
    expect(maySubscribe(device, 'spBv1.0/t1/DCMD/GW/WL-1')).toBe(true);
    expect(maySubscribe(device, 'spBv1.0/t1/DCMD/+/WL-2')).toBe(false);
    expect(maySubscribe(device, 'spBv1.0/t1/#')).toBe(false);
    expect(maySubscribe(device, 'spBv1.0/STATE/scada')).toBe(true);
    expect(maySubscribe(device, 'spBv1.0/STATE/#')).toBe(false);
  });

  it('decodes the protobuf with 64-bit numbers as numbers, and refuses other bytes', () => {
    const spB = sparkplugNamespace('spBv1.0')!;
    const bytes = spB.encodePayload({
      timestamp: now,
      seq: 3,
      metrics: [
        { name: 'bdSeq', type: 'UInt64', value: 7 },
        { name: 'count', alias: 2, type: 'Int64', value: -5 },
      ],
    });
    const decoded = decodeSparkplug(Buffer.from(bytes));
    expect(decoded).toMatchObject({ timestamp: now, seq: 3 });
    if (typeof decoded === 'string') throw new Error(decoded);
    expect(decoded.metrics.map((m) => [m.name, m.alias, m.type, m.value])).toEqual([
      ['bdSeq', undefined, 'UInt64', 7],
      ['count', 2, 'Int64', -5],
    ]);
    expect(decodeSparkplug(Buffer.from([0xff, 0xff, 0xff]))).toBe('payload is not a Sparkplug B protobuf');
  });

  it('remembers aliases per birth and ignores a death of an older birth', () => {
    const metric = (m: Partial<SparkplugMetric>): SparkplugMetric => ({
      name: undefined,
      alias: undefined,
      type: 'Int32',
      value: 0,
      isNull: false,
      timestamp: undefined,
      isHistorical: false,
      ...m,
    });
    const sessions = new SparkplugSessions();
    sessions.nodeBirth('t1', 'GW', [
      metric({ name: 'bdSeq', type: 'UInt64', value: 2 }),
      metric({ name: 'a', alias: 1 }),
    ]);
    sessions.deviceBirth('t1', 'GW', 'WL-1', [metric({ name: 'b', alias: 5, type: 'Float' })]);
    expect(sessions.resolve('t1', 'GW', 'WL-1', 5)).toEqual({ name: 'b', type: 'Float' });
    // Aliases are unique per node: a device's data may use the node's.
    expect(sessions.resolve('t1', 'GW', 'WL-1', 1)?.name).toBe('a');
    expect(sessions.resolve('t1', 'GW', undefined, 5)).toBeUndefined();
    expect(sessions.typeOf('t1', 'GW', 'WL-1', 'b')).toBe('Float');
    expect(sessions.isCurrentDeath('t1', 'GW', [metric({ name: 'bdSeq', value: 1 })]).current).toBe(false);
    expect(sessions.isCurrentDeath('t1', 'GW', [metric({ name: 'bdSeq', value: 2 })]).current).toBe(true);
    expect(sessions.nodeDeath('t1', 'GW')).toEqual(['WL-1']);
    expect(sessions.resolve('t1', 'GW', 'WL-1', 5)).toBeUndefined();
    // No birth remembered (a restarted process): the death is taken as current.
    expect(sessions.isCurrentDeath('t1', 'GW', [metric({ name: 'bdSeq', value: 9 })]).current).toBe(true);
  });
});
