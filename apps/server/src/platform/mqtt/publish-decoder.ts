import type { IPublishPacket } from 'mqtt-packet';

/**
 * The subscriber's reading of the broker's bytes: whole packets cut from the socket's chunks, a
 * plain PUBLISH decoded here and everything else handed to mqtt-packet's parser, one whole packet
 * at a time (in order). Why: at tens of thousands of messages a second mqtt-packet's general
 * parser (a buffer list consumed field by field, a packet object with every property) was about a
 * tenth of the ingester's CPU (docs/ingest-performance.md). "Plain" is a PUBLISH of QoS 0–2
 * without MQTT 5 properties (property length 0: what Mosquitto sends a subscriber that asked for
 * no subscription ids or topic aliases); one with properties goes to mqtt-packet as before.
 *
 * Packet sizes are held to the limit before this (`PacketSizeScanner` on the same chunks), so a
 * packet kept across chunks is at most that large, and a length field is at most 4 bytes.
 */
export class PacketSplitter {
  /** The start of a packet whose end has not arrived yet. */
  private rest: Buffer | undefined;
  private halted = false;

  constructor(
    private readonly protocolVersion: 4 | 5,
    private readonly onPublish: (packet: IPublishPacket) => void,
    private readonly other: (packet: Buffer) => void,
  ) {}

  /** Reads nothing more (the connection is being closed: a malformed packet). */
  halt(): void {
    this.halted = true;
    this.rest = undefined;
  }

  push(chunk: Buffer): void {
    if (this.halted) return;
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = undefined;
    let at = 0;
    while (buf.length - at >= 2 && !this.halted) {
      let length = 0;
      let multiplier = 1;
      let i = at + 1;
      let complete = false;
      while (i < buf.length && i <= at + 4) {
        const byte = buf[i++]!;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete) break;
      const end = i + length;
      if (end > buf.length) break;
      const header = buf[at]!;
      if (header >> 4 !== 3 || !this.publish(buf, header, i, end)) this.other(buf.subarray(at, end));
      at = end;
    }
    // A copy: the tail must not keep the whole chunk alive, nor change with it.
    if (at < buf.length && !this.halted) this.rest = Buffer.from(buf.subarray(at));
  }

  /** Decodes a plain PUBLISH of `buf[body, end)`; false: not plain (mqtt-packet reads it). */
  private publish(buf: Buffer, header: number, body: number, end: number): boolean {
    const qos = (header >> 1) & 3;
    if (qos === 3 || end - body < 2) return false;
    let p = body;
    const topicLength = (buf[p]! << 8) | buf[p + 1]!;
    p += 2;
    if (topicLength === 0 || p + topicLength > end) return false;
    const topic = buf.toString('utf8', p, p + topicLength);
    p += topicLength;
    let messageId: number | undefined;
    if (qos > 0) {
      if (p + 2 > end) return false;
      messageId = (buf[p]! << 8) | buf[p + 1]!;
      p += 2;
    }
    if (this.protocolVersion === 5) {
      if (p >= end || buf[p] !== 0) return false;
      p += 1;
    }
    const packet: IPublishPacket = {
      cmd: 'publish',
      topic,
      payload: buf.subarray(p, end),
      qos: qos as 0 | 1 | 2,
      retain: (header & 1) === 1,
      dup: (header & 8) === 8,
    };
    if (messageId !== undefined) packet.messageId = messageId;
    this.onPublish(packet);
    return true;
  }
}
