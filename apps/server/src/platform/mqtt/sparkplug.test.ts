import { createRequire } from 'node:module';
import { get as sparkplugNamespace } from 'sparkplug-payload';
import type * as SparkplugProto from 'sparkplug-payload/lib/sparkplugPayloadProto';
import { describe, expect, it } from 'vitest';
import {
  SparkplugSessions,
  birthMetrics,
  decodeSparkplug,
  parseSparkplugTopic,
  type SparkplugPayload,
} from './sparkplug';

/** Metric names PostgreSQL cannot store, refused where the protobuf is decoded (docs/mqtt.md). */

const spB = sparkplugNamespace('spBv1.0')!;
type Metric = NonNullable<Parameters<typeof spB.encodePayload>[0]['metrics']>[number];
const encode = (metrics: Metric[]) => Buffer.from(spB.encodePayload({ timestamp: 1, seq: 0, metrics }));
const proto = createRequire(import.meta.url)('sparkplug-payload/lib/sparkplugPayloadProto.js') as typeof SparkplugProto;

const decoded = (payload: Buffer): SparkplugPayload => {
  const result = decodeSparkplug(payload);
  if (typeof result === 'string') throw new Error(result);
  return result;
};

describe('Sparkplug metric names', () => {
  it('refuses a name with NUL: the metric keeps no name, so births, aliases and data leave it out', () => {
    const payload = decoded(
      encode([
        { name: 'a\u0000b', alias: 1, type: 'Int32', value: 1 },
        { name: 'count', alias: 2, type: 'Int32', value: 7 },
      ]),
    );
    expect(payload.metrics[0]).toMatchObject({
      name: undefined,
      alias: 1,
      nameFault: 'metric name a\\u0000b contains the control character U+0000',
    });
    expect(payload.metrics[1]).toMatchObject({ name: 'count', alias: 2 });
    expect(payload.metrics[1]?.nameFault).toBeUndefined();
    expect(birthMetrics(payload.metrics)).toEqual([{ name: 'count', alias: 2, type: 'Int32' }]);
    const sessions = new SparkplugSessions();
    sessions.nodeBirth('000000', 'E', payload.metrics);
    expect(sessions.resolve('000000', 'E', undefined, 1)).toBeUndefined();
    expect(sessions.resolve('000000', 'E', undefined, 2)?.name).toBe('count');
  });

  it('refuses a name protobuf decodes to a lone surrogate (CESU-8 bytes a PLC may send)', () => {
    const clean = Buffer.from(
      proto.org.eclipse.tahu.protobuf.Payload.encode({ metrics: [{ name: 'abc', datatype: 3, intValue: 1 }] }).finish(),
    );
    // 'abc' → ED A0 80, the three-byte form of U+D800: the same length, so the protobuf stays whole.
    const broken = Buffer.from(clean.toString('hex').replace('616263', 'eda080'), 'hex');
    expect(decoded(broken).metrics[0]).toMatchObject({
      name: undefined,
      nameFault: 'metric name \\ud800 contains a lone surrogate U+D800 (broken UTF-16)',
    });
  });

  it('refuses a name longer than 255 characters and keeps one of 255', () => {
    const payload = decoded(
      encode([
        { name: 'n'.repeat(256), type: 'Int32', value: 1 },
        { name: 'm'.repeat(255), type: 'Int32', value: 1 },
      ]),
    );
    expect(payload.metrics[0]?.nameFault).toBe(`metric name ${'n'.repeat(64)}… is longer than 255 characters (256)`);
    expect(payload.metrics[1]?.name).toBe('m'.repeat(255));
  });
});

describe('Sparkplug topics', () => {
  it('refuses a topic level with a control character (it would fail the device look-up)', () => {
    expect(parseSparkplugTopic('spBv1.0/000000/NDATA/E\u00001')).toBeUndefined();
    expect(parseSparkplugTopic('spBv1.0/000000/DDATA/E/D\u0007')).toBeUndefined();
    expect(parseSparkplugTopic('spBv1.0/000000/DDATA/E/D-1')).toEqual({
      group: '000000',
      type: 'DDATA',
      edge: 'E',
      device: 'D-1',
    });
  });
});
