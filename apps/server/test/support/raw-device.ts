import net from 'node:net';
import { generate, parser, type Packet } from 'mqtt-packet';

/**
 * A device as PLC firmware behaves (paho embedded C / Java): MQTT 3.1.1, QoS 1, its unacknowledged
 * messages kept in memory and sent again after every reconnect, with the same packet ids and (by
 * default) the DUP flag, before anything new. Reconnects every `retryMs` while the broker is away.
 * Why not mqtt.js here: after a broker crash its store replay sends one message per PUBACK and
 * stalled for good in this test (a hundred messages per client left in its outgoing map).
 */
export class RawDevice {
  private socket: net.Socket | undefined;
  private connected = false;
  private stopped = false;
  private nextId = 1;
  /** Unacknowledged, in the order sent. */
  private readonly inflight = new Map<number, { topic: string; payload: Buffer; acked: () => void }>();
  connects = 0;

  constructor(
    private readonly port: number,
    private readonly clientId: string,
    private readonly password: string,
    private readonly options: { dupOnResend?: boolean; retryMs?: number } = {},
  ) {}

  start(): void {
    this.connect();
  }

  get unacknowledged(): number {
    return this.inflight.size;
  }

  /** Resolves when the broker acknowledged it (however many reconnects that takes). */
  publish(topic: string, payload: string): Promise<void> {
    let id = this.nextId;
    while (this.inflight.has(id)) id = (id % 65535) + 1;
    this.nextId = (id % 65535) + 1;
    return new Promise((acked) => {
      this.inflight.set(id, { topic, payload: Buffer.from(payload), acked });
      if (this.connected) this.send(id, false);
    });
  }

  stop(): void {
    this.stopped = true;
    this.socket?.destroy();
  }

  private send(id: number, dup: boolean): void {
    const message = this.inflight.get(id);
    if (!message || !this.socket) return;
    this.socket.write(
      generate({
        cmd: 'publish',
        topic: message.topic,
        payload: message.payload,
        qos: 1,
        messageId: id,
        dup,
        retain: false,
      }),
    );
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = net.connect({ host: '127.0.0.1', port: this.port });
    this.socket = socket;
    const read = parser({ protocolVersion: 4 });
    read.on('packet', (packet: Packet) => {
      if (packet.cmd === 'connack' && packet.returnCode === 0) {
        this.connected = true;
        this.connects++;
        for (const id of this.inflight.keys()) this.send(id, this.options.dupOnResend ?? true);
      } else if (packet.cmd === 'puback' && packet.messageId !== undefined) {
        const message = this.inflight.get(packet.messageId);
        this.inflight.delete(packet.messageId);
        message?.acked();
      }
    });
    read.on('error', () => socket.destroy());
    socket.on('connect', () =>
      socket.write(
        generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clientId: this.clientId,
          clean: true,
          keepalive: 30,
          username: this.clientId,
          password: Buffer.from(this.password),
        }),
      ),
    );
    socket.on('data', (chunk: Buffer) => read.parse(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (socket !== this.socket) return;
      this.connected = false;
      if (!this.stopped) setTimeout(() => this.connect(), this.options.retryMs ?? 100);
    });
  }
}
