import { generate, type IPublishPacket, type Packet } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { PacketSplitter } from './publish-decoder';

/** What the subscriber reads of a PUBLISH. */
const seen = (p: IPublishPacket) => ({
  topic: p.topic,
  payload: Buffer.from(p.payload).toString('hex'),
  qos: p.qos,
  retain: p.retain,
  dup: p.dup,
  messageId: p.messageId,
});

function packets(version: 4 | 5): Packet[] {
  return [
    {
      cmd: 'publish',
      topic: 'mes/t1/D-1/telemetry',
      payload: Buffer.from('{"v":1}'),
      qos: 1,
      messageId: 7,
      retain: false,
      dup: false,
    },
    { cmd: 'publish', topic: 'mes/t1/D-2/status', payload: Buffer.from('online'), qos: 0, retain: true, dup: false },
    { cmd: 'pingresp' },
    {
      cmd: 'publish',
      topic: 'mes/t1/设备/telemetry',
      payload: Buffer.alloc(300, 7),
      qos: 1,
      messageId: 65535,
      retain: false,
      dup: true,
    },
    {
      cmd: 'publish',
      topic: 'mes/t1/D-3/telemetry',
      payload: Buffer.from('{}'),
      qos: 1,
      messageId: 9,
      retain: false,
      dup: false,
      ...(version === 5 ? { properties: { userProperties: { a: 'b' } } } : {}),
    },
    {
      cmd: 'publish',
      topic: 'mes/t1/D-4/telemetry',
      payload: Buffer.alloc(0),
      qos: 2,
      messageId: 3,
      retain: false,
      dup: false,
    },
  ];
}

/** Feeds the packets' bytes in chunks of `size` and collects what each path saw, in order. */
function read(version: 4 | 5, size: number) {
  const bytes = Buffer.concat(packets(version).map((p) => generate(p, { protocolVersion: version })));
  const out: { decoded?: ReturnType<typeof seen>; other?: number }[] = [];
  const splitter = new PacketSplitter(
    version,
    (p) => out.push({ decoded: seen(p) }),
    (packet) => out.push({ other: packet[0]! >> 4 }),
  );
  for (let i = 0; i < bytes.length; i += size) splitter.push(bytes.subarray(i, i + size));
  return out;
}

describe('PacketSplitter', () => {
  for (const version of [4, 5] as const)
    it(`decodes plain PUBLISH packets as mqtt-packet does and hands the rest over whole, in order (MQTT ${version})`, () => {
      const expected = packets(version).map((p) =>
        p.cmd === 'publish' && !(version === 5 && p.properties)
          ? { decoded: seen(p) }
          : { other: p.cmd === 'pingresp' ? 13 : 3 },
      );
      for (const size of [1, 2, 3, 7, 64, 100_000]) expect(read(version, size)).toEqual(expected);
    });

  it('reads nothing more once halted', () => {
    const out: string[] = [];
    const splitter = new PacketSplitter(
      5,
      (p) => out.push(p.topic),
      () => splitter.halt(),
    );
    const bytes = Buffer.concat(
      packets(5)
        .slice(1, 4)
        .map((p) => generate(p, { protocolVersion: 5 })),
    );
    splitter.push(bytes);
    expect(out).toEqual(['mes/t1/D-2/status']);
  });
});
