import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { MqttConfig } from '../config';
import type { DeviceDirectory } from './device-directory';
import { Ingestion, type IngestionOptions } from './ingestion';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-broker';
import { Subscriber } from './subscriber';

/** What MQTT needs of the application context (structural, so the platform imports no app code). */
export interface MqttContext {
  database: { pool: pg.Pool };
  clock: { now(): number };
  logs: { warn(message: string, error?: unknown): void };
}

/** The topics the server reads, and the shared-subscription group several processes split them in. */
export const INGEST_TOPIC = 'mes/+/+/+';
export const SHARE_GROUP = 'mes-console';

export interface MqttTuning extends Pick<IngestionOptions, 'batchSize' | 'batchDelayMs' | 'maxQueue'> {
  /** How often silent devices are checked for their inactivity timeout (default 15 s). */
  sweepSeconds?: number;
  /** Where the console listens, for the busy-port message. */
  consoleAt?: string;
  /** How long to wait before trying a busy MQTT port again (default 30 s). */
  retryBusyMs?: number;
  /**
   * External broker only: the shared-subscription group and topic filter (defaults
   * {@link SHARE_GROUP}, {@link INGEST_TOPIC}); tests on a shared Mosquitto narrow them to their own.
   */
  shareGroup?: string;
  ingestTopic?: string;
}

export interface MqttRuntime {
  ingestion: Ingestion;
  /** The embedded broker's port once bound; undefined with `MQTT_URL` or while the port is busy. */
  port(): number | undefined;
  /**
   * The embedded broker's own credential (made at start, never stored): in-process clients such
   * as a live device page's feed sign in with it and may subscribe to every topic.
   */
  internal(): { clientId: string; password: string } | undefined;
  /** Resolves when messages can flow: subscribed, or the embedded broker bound (never while its port stays busy). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts MQTT ingestion: the embedded broker handing devices' messages to ingestion from its
 * `published` hook (the device's PUBACK waits for the commit), or a subscriber of the external
 * broker at `MQTT_URL` through the shared subscription `$share/mes-console/mes/+/+/+` (the
 * subscriber's PUBACK to the broker waits for the commit).
 * Never rejects for a broker that is unreachable or a port that is busy: the console keeps
 * running and the reason is logged (docs/mqtt.md).
 */
export async function startMqtt(
  ctx: MqttContext,
  directory: DeviceDirectory,
  config: MqttConfig,
  tuning: MqttTuning = {},
): Promise<MqttRuntime> {
  const warn = (message: string, error?: unknown) => ctx.logs.warn(message, error);
  let broker: EmbeddedBroker | undefined;
  let subscriber: Subscriber | undefined;
  let boundPort: number | undefined;
  let stopped = false;
  const ingestion = new Ingestion({
    pool: ctx.database.pool,
    directory,
    warn,
    now: () => ctx.clock.now(),
    ...tuning,
    flow: { pause: () => subscriber?.pause(), resume: () => subscriber?.resume() },
  });
  const sweep = setInterval(() => ingestion.sweepInactive(), (tuning.sweepSeconds ?? 15) * 1000);
  sweep.unref();

  const subscribe = async (make: () => Subscriber): Promise<void> => {
    // The first attempt may fail (broker not up yet): retried every few seconds until stopped.
    for (;;) {
      if (stopped) return;
      const candidate = make();
      try {
        await candidate.start();
        subscriber = candidate;
        return;
      } catch (error) {
        warn('MQTT: the subscriber could not connect; retrying in 5 s', error);
        await new Promise((r) => setTimeout(r, 5000).unref());
      }
    }
  };

  let ready: Promise<void>;
  if (config.url) {
    const url = config.url;
    ready = subscribe(
      () =>
        new Subscriber({
          url,
          clientId: `mes-console-${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
          protocolVersion: 5,
          topics: [`$share/${tuning.shareGroup ?? SHARE_GROUP}/${tuning.ingestTopic ?? INGEST_TOPIC}`],
          onMessage: (packet, ack) =>
            ingestion.push(
              {
                topic: packet.topic,
                payload: Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
                qos: packet.qos,
                retain: packet.retain,
                clientId: '',
                receivedAt: new Date(ctx.clock.now()),
              },
              ack,
            ),
          warn,
        }),
    );
  } else {
    const started = await startEmbeddedBroker(
      {
        host: config.host,
        port: config.port,
        directory,
        warn,
        now: () => ctx.clock.now(),
        onPresence: (event) => ingestion.presence(event),
        onDevicePublish: (message, done) => ingestion.push({ ...message, receivedAt: new Date(ctx.clock.now()) }, done),
        ...(tuning.retryBusyMs !== undefined ? { retryBusyMs: tuning.retryBusyMs } : {}),
      },
      () => tuning.consoleAt ?? '',
    );
    broker = started;
    ready = started.listening.then((port) => {
      boundPort = port;
    });
  }

  return {
    ingestion,
    port: () => boundPort,
    internal: () => broker?.internal,
    ready,
    stop: async () => {
      stopped = true;
      clearInterval(sweep);
      // The subscriber first: nothing new arrives, then what is queued is committed and acked.
      await subscriber?.stop();
      await ingestion.stop();
      await broker?.close();
    },
  };
}
