import net from 'node:net';
import tls from 'node:tls';
import { generate, parser, type IPublishPacket, type Packet } from 'mqtt-packet';

/**
 * A minimal MQTT subscriber that acknowledges a QoS-1 message only when told to (after the batch
 * holding it is committed), while it keeps reading the following messages.
 *
 * Why not mqtt.js: its client handles incoming packets one at a time and reads the next only
 * after the previous one's PUBACK is sent, so delaying the ack (`customHandleAcks`) until a commit
 * would make every batch one message long. Here the broker's own inflight window bounds how many
 * unacknowledged messages are outstanding, and {@link Subscriber.pause} stops reading the socket
 * when the ingestion queue is full: TCP then pushes back on the broker (docs/mqtt.md).
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
  /** Called for every PUBLISH; `ack()` sends its PUBACK (a no-op for QoS 0). */
  onMessage(packet: IPublishPacket, ack: () => void): void;
  onConnected?(): void;
  warn(message: string, error?: unknown): void;
}

const RECONNECT_MS = 1000;

export class Subscriber {
  private socket: net.Socket | undefined;
  private stopped = false;
  private paused = false;
  private ping: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** Bumped on every connection: an ack for a message of an earlier connection is not sent. */
  private generation = 0;
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
    const generation = ++this.generation;
    this.socket = socket;
    socket.setNoDelay(true);
    const version = this.options.protocolVersion;
    const read = parser({ protocolVersion: version });
    const send = (packet: Packet) => {
      if (generation !== this.generation || socket.destroyed) return;
      try {
        socket.write(generate(packet, { protocolVersion: version }));
      } catch (error) {
        this.options.warn(`MQTT subscriber: cannot encode ${packet.cmd}`, error);
        socket.destroy();
      }
    };
    read.on('packet', (packet: Packet) => this.onPacket(packet, send, generation));
    read.on('error', (error: Error) => {
      this.options.warn('MQTT subscriber: malformed packet from the broker', error);
      socket.destroy();
    });
    socket.on('connect', () => {
      // MQTT 3.1.1 sends no password without a user name: the client id stands in.
      const username =
        this.options.username ??
        (url.username ? decodeURIComponent(url.username) : this.options.password ? this.options.clientId : undefined);
      const password = this.options.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
      send({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: version,
        clientId: this.options.clientId,
        clean: true,
        keepalive: this.options.keepaliveSeconds ?? 30,
        ...(username !== undefined ? { username } : {}),
        ...(password !== undefined ? { password: Buffer.from(password) } : {}),
      });
    });
    socket.on('data', (chunk: Buffer) => read.parse(chunk));
    socket.on('error', (error) => {
      if (!this.failFirst(error) && !this.stopped) this.options.warn('MQTT subscriber: connection error', error);
    });
    socket.on('close', () => {
      clearInterval(this.ping);
      if (this.stopped) return;
      // Closed before the SUBACK of the first attempt: that attempt failed.
      if (this.failFirst(new Error('MQTT broker closed the connection'))) return;
      this.retry = setTimeout(() => this.connect(), RECONNECT_MS);
    });
    if (this.paused) socket.pause();
  }

  private onPacket(packet: Packet, send: (p: Packet) => void, generation: number): void {
    switch (packet.cmd) {
      case 'connack': {
        const code = packet.returnCode ?? packet.reasonCode ?? 0;
        if (code !== 0) {
          const error = new Error(`MQTT broker refused the connection (code ${code})`);
          if (!this.failFirst(error)) this.options.warn(error.message);
          this.socket?.destroy();
          return;
        }
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
      case 'publish': {
        const { messageId, qos } = packet;
        let acked = false;
        const ack = () => {
          if (acked || qos === 0 || messageId === undefined || generation !== this.generation) return;
          acked = true;
          send({ cmd: 'puback', messageId });
        };
        this.options.onMessage(packet, ack);
        return;
      }
      default:
        return;
    }
  }

  /** Stops reading from the broker (the queue is full); the broker's inflight window fills. */
  pause(): void {
    this.paused = true;
    this.socket?.pause();
  }

  resume(): void {
    this.paused = false;
    this.socket?.resume();
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
      socket.end(generate({ cmd: 'disconnect' }, { protocolVersion: this.options.protocolVersion }));
      setTimeout(() => socket.destroy(), 500).unref();
    });
  }
}
