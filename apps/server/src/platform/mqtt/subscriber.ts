import net from 'node:net';
import tls from 'node:tls';
import { generate, parser, type IPublishPacket, type Packet } from 'mqtt-packet';
import { DEFAULT_MAX_PACKET_BYTES, PacketSizeScanner } from './packet-size';
import { PacketSplitter } from './publish-decoder';

/**
 * A minimal MQTT subscriber that acknowledges a QoS-1 message only when told to (after the batch
 * holding it is committed), while it keeps reading the following messages.
 *
 * Why not mqtt.js: its client handles incoming packets one at a time and reads the next only
 * after the previous one's PUBACK is sent, so delaying the ack (`customHandleAcks`) until a commit
 * would make every batch one message long. Here the broker's own inflight window bounds how many
 * unacknowledged messages are outstanding, and {@link Subscriber.pause} stops reading the socket
 * when the ingestion queue is full: TCP then pushes back on the broker (docs/mqtt.md).
 *
 * With `cleanStart: false` the broker keeps the session (subscription, unacknowledged and queued
 * messages) across reconnects and restarts for `sessionExpirySeconds`: packet ids belong to the
 * session, so an ack made after a reconnect is still sent (on the new connection) while the broker
 * says the session is the same one (CONNACK session present).
 */
export interface SubscriberOptions {
  /** `mqtt://host:port` or `mqtts://…`; credentials in the URL or below. */
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** 4 = MQTT 3.1.1 (aedes), 5 = MQTT 5 (shared subscriptions on Mosquitto, EMQX). */
  protocolVersion: 4 | 5;
  topics: string[];
  keepaliveSeconds?: number;
  /** false: resume the broker's session (default true: a new one at every connection). */
  cleanStart?: boolean;
  /** MQTT 5: how long the broker keeps the session after a disconnect (default 0). */
  sessionExpirySeconds?: number;
  /** MQTT 5: at most this many unacknowledged QoS-1 messages in flight to us (broker's own limit too). */
  receiveMaximum?: number;
  /**
   * The largest packet we take (default 256 KB): sent as the MQTT 5 Maximum Packet Size, so the
   * broker drops a bigger message for us instead of sending it; one that comes anyway closes the
   * connection before it is buffered.
   */
  maxPacketBytes?: number;
  /**
   * Called for every PUBLISH with the subscriber session it arrived in; {@link Subscriber.ack} with
   * its packet id and that session sends its PUBACK (numbers, not a closure per message: a queued
   * message's objects live until its commit, and the garbage collector copies each of them).
   */
  onMessage(packet: IPublishPacket, session: number): void;
  /** After every CONNACK: whether the broker resumed the session (false: every earlier delivery is void). */
  onSession?(present: boolean): void;
  onConnected?(): void;
  warn(message: string, error?: unknown): void;
}

const RECONNECT_MS = 1000;

/** Session numbers of every subscriber of the process: an ack never matches another subscriber's session. */
let sessions = 0;

/**
 * The PUBACKs of `messageIds` in one buffer, each with reason 0 and no properties (4 bytes in both
 * 3.1.1 and 5: MQTT 5 §3.4.2.1); one buffer a write rather than one a message.
 */
function pubacks(messageIds: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(messageIds.length * 4);
  let at = 0;
  for (const id of messageIds) {
    out[at++] = 0x40;
    out[at++] = 0x02;
    out[at++] = id >> 8;
    out[at++] = id & 0xff;
  }
  return out;
}

export class Subscriber {
  private socket: net.Socket | undefined;
  private connected = false;
  private stopped = false;
  private paused = false;
  /** Reading ended for good (shutdown): the flow control's resume must not undo it. */
  private halted = false;
  private ping: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  /**
   * Bumped when the broker starts a new session: an ack for a delivery of an earlier session is
   * not sent (its packet id now means nothing, or another message).
   */
  private session = ++sessions;
  /** PUBACKs of one commit, written together (one syscall per batch, not per message). */
  private acks: number[] = [];
  private ackFlush = false;
  private firstConnect: { resolve: () => void; reject: (e: Error) => void } | undefined;

  /** A first attempt that failed ends this subscriber: the caller retries with a new one. */
  private failFirst(error: Error): boolean {
    if (!this.firstConnect) return false;
    this.firstConnect.reject(error);
    this.firstConnect = undefined;
    this.stopped = true;
    return true;
  }

  constructor(private readonly options: SubscriberOptions) {}

  /** Connected to the broker and accepted by it (CONNACK): what readiness and /metrics ask. */
  get isConnected(): boolean {
    return this.connected;
  }

  /** Connects and subscribes; resolves on the first SUBACK, rejects if that first attempt fails. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.firstConnect = { resolve, reject };
      this.connect();
    });
  }

  private connect(): void {
    const url = new URL(this.options.url);
    const secure = url.protocol === 'mqtts:' || url.protocol === 'ssl:';
    const port = Number(url.port || (secure ? 8883 : 1883));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = secure ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
    this.socket = socket;
    this.connected = false;
    socket.setNoDelay(true);
    const version = this.options.protocolVersion;
    const read = parser({ protocolVersion: version });
    const maxPacketBytes = this.options.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES;
    const sizes = new PacketSizeScanner(maxPacketBytes);
    const send = (packet: Packet) => {
      if (socket !== this.socket || socket.destroyed) return;
      try {
        socket.write(generate(packet, { protocolVersion: version }));
      } catch (error) {
        this.options.warn(`MQTT subscriber: cannot encode ${packet.cmd}`, error);
        socket.destroy();
      }
    };
    read.on('packet', (packet: Packet) => this.onPacket(packet, send));
    // Plain PUBLISH packets are decoded by the splitter, the rest by mqtt-packet, in their order.
    const packets = new PacketSplitter(
      version,
      (packet) => this.onPacket(packet, send),
      (packet) => read.parse(packet),
    );
    read.on('error', (error: Error) => {
      this.options.warn('MQTT subscriber: malformed packet from the broker', error);
      packets.halt();
      socket.destroy();
    });
    socket.on('connect', () => {
      // MQTT 3.1.1 sends no password without a user name: the client id stands in.
      const username =
        this.options.username ??
        (url.username ? decodeURIComponent(url.username) : this.options.password ? this.options.clientId : undefined);
      const password = this.options.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
      const properties =
        version === 5
          ? {
              ...(this.options.sessionExpirySeconds
                ? { sessionExpiryInterval: this.options.sessionExpirySeconds }
                : {}),
              ...(this.options.receiveMaximum ? { receiveMaximum: this.options.receiveMaximum } : {}),
              maximumPacketSize: maxPacketBytes,
            }
          : {};
      send({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: version,
        clientId: this.options.clientId,
        clean: this.options.cleanStart ?? true,
        keepalive: this.options.keepaliveSeconds ?? 30,
        ...(username !== undefined ? { username } : {}),
        ...(password !== undefined ? { password: Buffer.from(password) } : {}),
        ...(Object.keys(properties).length ? { properties } : {}),
      });
    });
    socket.on('data', (chunk: Buffer) => {
      const over = sizes.scan(chunk);
      if (over === undefined) return packets.push(chunk);
      // Its PUBLISH stays unacknowledged: the broker's session keeps it (and sends it again).
      this.options.warn(
        `MQTT subscriber: the broker sent a packet of ${over} bytes (limit ${maxPacketBytes}); connection closed`,
      );
      socket.destroy();
    });
    socket.on('error', (error) => {
      if (!this.failFirst(error) && !this.stopped) this.options.warn('MQTT subscriber: connection error', error);
    });
    socket.on('close', () => {
      clearInterval(this.ping);
      if (socket === this.socket) this.connected = false;
      if (this.stopped) return;
      // Closed before the SUBACK of the first attempt: that attempt failed.
      if (this.failFirst(new Error('MQTT broker closed the connection'))) return;
      this.retry = setTimeout(() => this.connect(), RECONNECT_MS);
    });
    if (this.paused || this.halted) socket.pause();
  }

  private onPacket(packet: Packet, send: (p: Packet) => void): void {
    switch (packet.cmd) {
      case 'connack': {
        const code = packet.returnCode ?? packet.reasonCode ?? 0;
        if (code !== 0) {
          const error = new Error(`MQTT broker refused the connection (code ${code})`);
          if (!this.failFirst(error)) this.options.warn(error.message);
          this.socket?.destroy();
          return;
        }
        const present = packet.sessionPresent && this.options.cleanStart === false;
        if (!present) this.session = ++sessions;
        this.connected = true;
        this.options.onSession?.(present);
        // Subscribing again with a resumed session only replaces the same subscription.
        send({
          cmd: 'subscribe',
          messageId: 1,
          subscriptions: this.options.topics.map((topic) => ({ topic, qos: 1 as const })),
        });
        const keepalive = (this.options.keepaliveSeconds ?? 30) * 1000;
        clearInterval(this.ping);
        this.ping = setInterval(() => send({ cmd: 'pingreq' }), keepalive / 2);
        this.ping.unref();
        return;
      }
      case 'suback': {
        const refused = packet.granted.some((g) => typeof g === 'number' && g >= 0x80);
        if (refused)
          this.options.warn(`MQTT subscriber: the broker refused a subscription (${String(packet.granted)})`);
        this.firstConnect?.resolve();
        this.firstConnect = undefined;
        this.options.onConnected?.();
        return;
      }
      case 'publish':
        this.options.onMessage(packet, this.session);
        return;
      default:
        return;
    }
  }

  /**
   * Sends the PUBACK of QoS-1 message `messageId` received in `session`; nothing if the broker has
   * started a new session since (the packet id now means nothing, or another message). The caller
   * acknowledges each delivery once.
   */
  ack(messageId: number, session: number): void {
    if (session === this.session) this.queueAck(messageId);
  }

  /**
   * Queues a PUBACK for the current connection; a batch's acks leave in one write. Without a
   * connection it is dropped: the broker redelivers the message to the resumed session (DUP),
   * where the dedup of `start-mqtt.ts` acknowledges it without storing it again.
   */
  private queueAck(messageId: number): void {
    if (!this.connected) return;
    this.acks.push(messageId);
    if (this.ackFlush) return;
    this.ackFlush = true;
    process.nextTick(() => {
      this.ackFlush = false;
      const acks = this.acks;
      this.acks = [];
      const socket = this.socket;
      if (this.connected && socket && !socket.destroyed) socket.write(pubacks(acks));
    });
  }

  /** Stops reading from the broker (the queue is full); the broker's inflight window fills. */
  pause(): void {
    this.paused = true;
    this.socket?.pause();
  }

  resume(): void {
    this.paused = false;
    if (!this.halted) this.socket?.resume();
  }

  /**
   * Stops reading for good (shutdown) while acks still go out: what was read is committed and
   * acknowledged, what the broker sent after stays unacknowledged in the session.
   */
  halt(): void {
    this.halted = true;
    this.socket?.pause();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    const socket = this.socket;
    if (!socket || socket.destroyed) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      // Acks queued in this tick go first.
      process.nextTick(() => {
        socket.end(generate({ cmd: 'disconnect' }, { protocolVersion: this.options.protocolVersion }));
        setTimeout(() => socket.destroy(), 500).unref();
      });
    });
  }
}
