import mqtt, { type MqttClient } from 'mqtt';
import { sleep, until } from './ports';

/** How a device reaches the broker: the embedded one checks its client id and secret, the suite's Mosquitto lets anyone in. */
export interface DeviceLink {
  url: string;
  clientId: string;
  /** Embedded broker: the device's secret (MQTT 3.1.1 wants a user name with it: the client id). */
  secret?: string;
}

/**
 * One device publishing numbered QoS-1 telemetry to `mes/000000/{code}/telemetry` at a steady
 * rate, with an inflight window as a PLC has (at most `window` unacknowledged messages; the next
 * number waits for an acknowledgement). It records which numbers got a PUBACK. mqtt.js keeps an
 * unacknowledged QoS-1 message in its store and resends it after a reconnect, as a device does.
 */
export class TelemetryDevice {
  readonly acked = new Set<number>();
  sent = 0;
  /** Connection closes the device saw (the broker or the network dropped it). */
  closes = 0;
  client: MqttClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private outstanding = new Set<number>();

  constructor(
    readonly code: string,
    private readonly link: DeviceLink,
    private readonly options: { perSecond?: number; window?: number; reconnect?: boolean } = {},
  ) {}

  get topic(): string {
    return `mes/000000/${this.code}/telemetry`;
  }

  /** Numbers published and not acknowledged yet. */
  get unacknowledged(): number {
    return this.outstanding.size;
  }

  async connect(): Promise<void> {
    const client = mqtt.connect(this.link.url, {
      protocolVersion: 4,
      clientId: this.link.clientId,
      ...(this.link.secret ? { username: this.link.clientId, password: this.link.secret } : {}),
      clean: true,
      reconnectPeriod: this.options.reconnect === false ? 0 : 500,
      connectTimeout: 5000,
      keepalive: 30,
    });
    client.on('error', () => undefined);
    client.on('close', () => {
      this.closes += 1;
    });
    this.client = client;
    await until(() => client.connected, 15_000, `device ${this.code} to connect`, 50);
  }

  /** Publishes one message; resolves true on PUBACK, false when the client gave it up. */
  publish(payload: string | Buffer, topic = this.topic): Promise<boolean> {
    return new Promise((resolve) => {
      if (!this.client) return resolve(false);
      this.client.publish(topic, payload, { qos: 1 }, (error) => resolve(!error));
    });
  }

  /** One numbered report (number `n` also in the payload's `seq`, kept in acquisition data). */
  static report(n: number, ts = Date.now()): string {
    return JSON.stringify({ ts, seq: n, values: { n, v: n / 10 } });
  }

  /** Starts the steady stream of numbered reports. */
  startStream(): void {
    const perSecond = this.options.perSecond ?? 20;
    const window = this.options.window ?? 20;
    this.timer = setInterval(() => {
      if (this.outstanding.size >= window) return;
      const n = this.sent;
      this.sent += 1;
      this.outstanding.add(n);
      void this.publish(TelemetryDevice.report(n)).then((ok) => {
        if (ok) {
          this.acked.add(n);
          this.outstanding.delete(n);
        }
      });
    }, 1000 / perSecond);
  }

  stopStream(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Waits until every published number is acknowledged (false when `ms` passed first). */
  async drained(ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (this.outstanding.size > 0) {
      if (Date.now() > end) return false;
      await sleep(50);
    }
    return true;
  }

  async close(): Promise<void> {
    this.stopStream();
    await this.client?.endAsync(true).catch(() => undefined);
  }
}

/** Several devices streaming together. */
export class Fleet {
  constructor(readonly devices: TelemetryDevice[]) {}

  async connect(): Promise<void> {
    await Promise.all(this.devices.map((d) => d.connect()));
  }

  start(): void {
    for (const d of this.devices) d.startStream();
  }

  stop(): void {
    for (const d of this.devices) d.stopStream();
  }

  get sent(): number {
    return this.devices.reduce((sum, d) => sum + d.sent, 0);
  }

  get acked(): number {
    return this.devices.reduce((sum, d) => sum + d.acked.size, 0);
  }

  /** Stops publishing and waits for the windows to drain; answers the devices that still hold unacknowledged numbers. */
  async finish(ms: number): Promise<TelemetryDevice[]> {
    this.stop();
    await Promise.all(this.devices.map((d) => d.drained(ms)));
    return this.devices.filter((d) => d.unacknowledged > 0);
  }

  async close(): Promise<void> {
    await Promise.all(this.devices.map((d) => d.close()));
  }
}
