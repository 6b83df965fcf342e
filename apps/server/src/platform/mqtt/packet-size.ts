import { Duplex } from 'node:stream';
import type net from 'node:net';

/**
 * The largest MQTT packet the server takes (`MQTT_MAX_PACKET_BYTES`, docs/mqtt.md): the embedded
 * broker closes a connection that announces a bigger one, the external subscriber asks its broker
 * for no bigger one (MQTT 5 Maximum Packet Size) and closes its connection if one comes anyway.
 */
export const DEFAULT_MAX_PACKET_BYTES = 256 * 1024;

/**
 * Follows packet boundaries in an MQTT byte stream from the fixed headers alone (type byte, then
 * the remaining length in 1–4 bytes of 7 bits), so that a packet's size is known from its first
 * 2–5 bytes: a parser (mqtt-packet, under aedes) buffers a whole packet before it looks at it.
 */
export class PacketSizeScanner {
  /** Bytes of the current packet's body still to skip. */
  private skip = 0;
  /** 0: expecting a type byte; 1–4: reading that many length bytes so far. */
  private lengthBytes = 0;
  private length = 0;
  private multiplier = 1;

  constructor(private readonly maxBytes: number) {}

  /** The announced size of the first packet over the limit that this chunk starts, else undefined. */
  scan(chunk: Buffer): number | undefined {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++]!;
      if (this.lengthBytes === 0) {
        // The type byte; the length follows.
        this.lengthBytes = 1;
        this.length = 0;
        this.multiplier = 1;
        continue;
      }
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      if (byte & 0x80) {
        // A fifth length byte is malformed: the parser refuses it, so stop following.
        if (++this.lengthBytes > 4) return Number.POSITIVE_INFINITY;
        continue;
      }
      const total = 1 + this.lengthBytes + this.length;
      this.lengthBytes = 0;
      if (total > this.maxBytes) return total;
      this.skip = this.length;
    }
    return undefined;
  }
}

/**
 * A device's TCP connection as aedes sees it: reads pass through a {@link PacketSizeScanner}, and
 * a chunk that starts a packet over the limit is never handed on — the socket is destroyed at
 * once, so the server holds at most one read chunk of it. Reading can also be halted for good
 * (shutdown), while writes (PUBACKs) still go out; a close ends the socket gracefully so written
 * PUBACKs are flushed before the FIN.
 */
export class GuardedConnection extends Duplex {
  private readonly scanner: PacketSizeScanner;
  private halted = false;
  /** Set by aedes (`conn.client`): who the connection is, for the log line. */
  client?: unknown;

  constructor(
    readonly socket: net.Socket,
    maxBytes: number,
    private readonly onOversize: (connection: GuardedConnection, bytes: number) => void,
  ) {
    // A one-byte mark: each socket chunk pauses the socket until aedes reads it, so no more than
    // one chunk waits here (as when aedes reads the socket itself).
    super({ allowHalfOpen: false, readableHighWaterMark: 1 });
    this.scanner = new PacketSizeScanner(maxBytes);
    socket.on('data', (chunk: Buffer) => {
      if (this.halted) return;
      const over = this.scanner.scan(chunk);
      if (over !== undefined) {
        this.halted = true;
        socket.destroy();
        this.onOversize(this, over);
        return;
      }
      if (!this.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.push(null));
    socket.on('error', (error) => this.destroy(error));
    socket.on('close', () => this.destroy());
  }

  override _read(): void {
    if (!this.halted) this.socket.resume();
  }

  /**
   * Straight to the socket, done at once: a PUBACK written before a close must be in the socket
   * (flushed by its `end`), not in this stream's buffer, which a destroy drops. What aedes writes to
   * a device is small (PUBACKs, its own commands), so the socket's buffer is the only one needed.
   */
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.socket.destroyed) return callback();
    this.socket.write(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.socket.destroyed) {
      // Written PUBACKs leave before the FIN; a peer that does not read gets a hard close.
      this.socket.end();
      setTimeout(() => this.socket.destroy(), 1000).unref();
    }
    callback(error);
  }

  /** Reads nothing more from the device (shutdown); what was read is still processed and acknowledged. */
  halt(): void {
    this.halted = true;
    this.socket.pause();
  }
}
