import { generate } from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { PacketSizeScanner } from './packet-size';

const publish = (bytes: number) =>
  generate({
    cmd: 'publish',
    topic: 'mes/t/d/telemetry',
    payload: Buffer.alloc(bytes),
    qos: 1,
    messageId: 1,
    dup: false,
    retain: false,
  });

describe('PacketSizeScanner', () => {
  it('follows packet boundaries across chunks and flags the first packet over the limit from its header', () => {
    const small = publish(100);
    const big = publish(10_000);
    const stream = Buffer.concat([small, small, big]);
    const scanner = new PacketSizeScanner(1024);
    // Fed a byte at a time, it still sees the big packet as soon as its length is complete.
    let flaggedAt = -1;
    let size: number | undefined;
    for (let i = 0; i < stream.length && size === undefined; i++) {
      size = scanner.scan(stream.subarray(i, i + 1));
      if (size !== undefined) flaggedAt = i;
    }
    expect(size).toBe(big.length);
    // Type byte + 2 length bytes of the big packet.
    expect(flaggedAt).toBe(small.length * 2 + 2);
  });

  it('lets packets up to the limit through', () => {
    const scanner = new PacketSizeScanner(1024);
    // A 1,024-byte packet needs two length bytes, one more than the empty one.
    const exact = publish(1024 - publish(0).length - 1);
    expect(exact.length).toBe(1024);
    expect(scanner.scan(Buffer.concat([exact, exact, publish(0)]))).toBeUndefined();
  });

  it('flags a length longer than four bytes', () => {
    expect(new PacketSizeScanner(1024).scan(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
});
