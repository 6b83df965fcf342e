import type { Socket } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import type { DeviceProcess } from './device-model';
import type { CycleReport, TelemetryValue } from './model';
import type { BrokerKind } from './options';
import type { SimDevice } from './provision';
import { uniform, type Rng } from './rng';
import type { SimStats } from './stats';

export interface RunnerConfig {
  mqtt: string;
  broker: BrokerKind;
  tenant: string;
  rate: number;
  speed: number;
  maxInflight: number;
  /** Mean real seconds between abrupt disconnects; 0 = never. */
  disconnectEvery: number;
  /** Real seconds a dropped device stays away before it reconnects. */
  reconnectAfter: readonly [number, number];
}

const OFFLINE_NORMAL = JSON.stringify({ status: 'offline', reason: 'normal' });

/** Engineering value → what the device sends: the raw register count when a PLC variable scales the field. */
export function encodeValues(
  device: SimDevice,
  values: Record<string, TelemetryValue>,
): Record<string, TelemetryValue> {
  const out: Record<string, TelemetryValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!device.product.fields.has(key)) continue;
    const raw = typeof value === 'number' ? device.product.raw.get(key) : undefined;
    if (!raw || typeof value !== 'number') {
      out[key] = value;
      continue;
    }
    const count = (value - raw.scaling.offset) / raw.scaling.multiplier;
    out[key] = raw.integer ? Math.round(count) : Number(count.toPrecision(9));
  }
  return out;
}

/** A finished cycle as published: wall-clock start and end of the (accelerated) run, simulated durations. */
export function cyclePayload(cycle: CycleReport, now: number, speed: number): Record<string, unknown> {
  const seconds = cycle.endedAt - cycle.startedAt;
  return {
    ts: now,
    program: cycle.program,
    programName: cycle.programName,
    start: new Date(now - (seconds * 1000) / speed).toISOString(),
    end: new Date(now).toISOString(),
    durationSeconds: Math.round(seconds),
    result: cycle.result,
    faultCode: cycle.faultCode,
    ...cycle.figures,
  };
}

/**
 * One simulated device on the broker: connects with its client id and secret (clean session,
 * last will `offline` on its status topic), says `online`, publishes telemetry at the rate and
 * each finished cycle, drops its connection now and then without a DISCONNECT (so the will fires)
 * and comes back; on stop it says `offline` itself and disconnects.
 */
export class SimulatedDevice {
  private client: MqttClient | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private timers = new Set<NodeJS.Timeout>();
  private inflight = 0;
  private reconnecting: Promise<void> | undefined;
  private lastTick = Date.now();
  private stopping = false;
  private online = false;
  published = 0;
  acked = 0;
  cycles = 0;
  /** Whether `stop` found the device connected and it said `offline` itself (else its will did). */
  saidOffline = false;

  constructor(
    readonly device: SimDevice,
    private readonly config: RunnerConfig,
    private readonly stats: SimStats,
    private readonly process: DeviceProcess,
    private readonly rng: Rng,
  ) {}

  private topic(kind: 'telemetry' | 'status' | 'cycle') {
    return `mes/${this.config.tenant}/${this.device.deviceCode}/${kind}`;
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  /** Connects and says `online`; rejects with the client's error when the broker refuses or is not there. */
  async connect(): Promise<void> {
    const client = mqtt.connect(this.config.mqtt, {
      protocolVersion: 4,
      clientId: this.device.clientId,
      username:
        this.config.broker === 'embedded' ? this.device.clientId : `${this.config.tenant}/${this.device.deviceCode}`,
      password: this.device.secret,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 15_000,
      keepalive: 30,
      will: { topic: this.topic('status'), payload: Buffer.from('offline'), qos: 1, retain: false },
    });
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        client.removeListener('connect', ok);
        client.removeListener('close', early);
        // A given-up client may still report its socket's end; that must not crash the run.
        client.on('error', () => {});
        client.end(true);
        reject(error);
      };
      const early = () => fail(new Error('the broker closed the connection before CONNACK'));
      const ok = () => {
        // Only these two: the client keeps its own 'close' handler (keepalive, state).
        client.removeListener('error', fail);
        client.removeListener('close', early);
        resolve();
      };
      client.once('connect', ok);
      client.once('error', fail);
      client.once('close', early);
    });
    if (this.stopping) {
      // Stopped while this (re)connection was under way: leave at once, cleanly.
      await client.endAsync();
      return;
    }
    this.client = client;
    this.online = true;
    this.stats.connected += 1;
    client.on('error', (error) => {
      // A connection this device dropped on purpose reports its own end; that is no error.
      if (this.client === client) this.stats.error(`${this.device.deviceCode}: ${error.message}`);
    });
    client.once('close', () => this.closed(client, false));
    this.publish(this.topic('status'), 'online');
    if (this.config.disconnectEvery > 0) {
      // Exponential gaps: disconnects of many devices spread out instead of coming in waves.
      const gap = -Math.log(1 - this.rng.next()) * this.config.disconnectEvery;
      this.later(gap * 1000, () => this.dropAbruptly());
    }
  }

  /** Starts reporting; the first report comes at a random point of the period so devices do not publish in step. */
  start(): void {
    const period = 1000 / this.config.rate;
    this.lastTick = Date.now();
    this.later(this.rng.next() * period, () => {
      this.tick();
      this.ticker = setInterval(() => this.tick(), period);
    });
  }

  private tick(): void {
    const now = Date.now();
    const cycles = this.process.advance(((now - this.lastTick) / 1000) * this.config.speed);
    this.lastTick = now;
    this.cycles += cycles.length;
    this.stats.cycles += cycles.length;
    this.stats.faults += cycles.filter((c) => c.faultCode !== 0).length;
    // Offline, the process runs on; what it did meanwhile is not reported (devices here keep no backlog).
    if (!this.online) return;
    for (const cycle of cycles)
      this.publish(this.topic('cycle'), JSON.stringify(cyclePayload(cycle, now, this.config.speed)));
    if (this.inflight >= this.config.maxInflight) {
      this.stats.skipped += 1;
      return;
    }
    this.publish(
      this.topic('telemetry'),
      JSON.stringify({ ts: now, values: encodeValues(this.device, this.process.values()) }),
    );
  }

  private publish(topic: string, payload: string, done?: () => void): void {
    const client = this.client;
    if (!client) return;
    this.inflight += 1;
    this.published += 1;
    this.stats.published += 1;
    client.publish(topic, payload, { qos: 1 }, (error) => {
      this.inflight -= 1;
      if (!error) {
        this.acked += 1;
        this.stats.acked += 1;
      } else if (this.client === client && client.connected)
        this.stats.error(`${this.device.deviceCode}: ${error.message}`);
      // In flight when the connection went: never acknowledged, and the clean session drops it.
      else this.stats.lost += 1;
      done?.();
    });
  }

  /** Closes the socket without DISCONNECT, as a power cut or a broken network does: the broker sends the will. */
  private dropAbruptly(): void {
    const client = this.client;
    if (!client || this.stopping) return;
    this.stats.disconnects += 1;
    this.closed(client, true);
    (client.stream as Socket | undefined)?.destroy();
    client.end(true);
  }

  private closed(client: MqttClient, planned: boolean): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.online = false;
    this.inflight = 0;
    this.stats.connected -= 1;
    if (this.stopping) return;
    if (!planned) this.stats.error(`${this.device.deviceCode}: the broker closed the connection`);
    const [low, high] = this.config.reconnectAfter;
    this.later((planned ? uniform(this.rng, low, high) : 5) * 1000, () => void this.reconnect());
  }

  private reconnect(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.reconnecting = this.connect().then(
      () => {
        this.stats.reconnects += 1;
      },
      (error: unknown) => {
        this.stats.error(`${this.device.deviceCode}: reconnect failed: ${(error as Error).message}`);
        this.later(5000, () => void this.reconnect());
      },
    );
    return this.reconnecting;
  }

  /** Says `offline` (reason normal) and disconnects cleanly, so the broker does not send the will. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.ticker);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    // A reconnection under way ends itself (see `connect`); wait for it so nothing outlives the stop.
    await this.reconnecting;
    const client = this.client;
    if (!client) return;
    this.saidOffline = await new Promise<boolean>((resolve) => {
      const timeout = setTimeout(() => resolve(false), 10_000);
      this.publish(this.topic('status'), OFFLINE_NORMAL, () => {
        clearTimeout(timeout);
        resolve(true);
      });
    });
    this.client = undefined;
    this.online = false;
    this.stats.connected -= 1;
    await client.endAsync();
  }
}
