import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { IPublishPacket } from 'mqtt-packet';
import type pg from 'pg';
import type { MqttConfig } from '../config';
import { readOrCreateSecret } from '../data-dir';
import { DeliveryLedger, RECENT, digest } from './delivery-ledger';
import type { DeviceAuthenticator } from './device-directory';
import type { IncomingMessage, MessageSink, SinkHooks } from './topics';

export type { SinkHooks } from './topics';
import { startEmbeddedBroker, type EmbeddedBroker } from './mqtt-broker';
import { DEFAULT_MAX_PACKET_BYTES } from './packet-size';
import { PublishLedger, type Publication } from './publish-ledger';
import { revokedClientOf } from './revocation';
import { SPARKPLUG_TOPIC } from './sparkplug';
import { Subscriber } from './subscriber';
import type { ProcessRegistry } from '../cluster/process-registry';
import { watchOrphanedSessions } from './session-takeover';
import { watchBroker } from '../metrics/metrics';

/** What MQTT needs of the application context (structural, so the platform imports no app code). */
export interface MqttContext {
  database: { pool: pg.Pool };
  clock: { now(): number };
  logs: { warn(message: string, error?: unknown): void };
  /**
   * The server's data directory (one process per directory): the external subscriber's client id
   * is kept there, so a restarted process resumes its broker session.
   */
  dataDir?: string;
  /** The process registry: a dead process's session is taken over by a survivor (session-takeover.ts). */
  cluster?: ProcessRegistry;
  /**
   * The change feed (the server's): a device's rotation, removal or disabling closes its
   * embedded-broker connection on every process (revocation.ts).
   */
  changes?: { subscribe(listener: (topic: string) => void): void };
}

/** Batching limits the transport shares with its sink (the ledger's slots follow the batch size). */
export interface BatchTuning {
  /** Messages per transaction (default 500). */
  batchSize?: number;
  /** How long a partial batch waits for more (default 50 ms). */
  batchDelayMs?: number;
  /** Queue length at which reading pauses (default 5,000); it resumes at half. */
  maxQueue?: number;
}

/** The topics the server reads, and the shared-subscription group several processes split them in. */
export const INGEST_TOPIC = 'mes/+/+/+';
export const SHARE_GROUP = 'mes-console';

export interface MqttTuning extends BatchTuning {
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
  /** External broker: the Sparkplug B filter (default {@link SPARKPLUG_TOPIC}), narrowed like `ingestTopic`. */
  sparkplugTopic?: string;
  /**
   * External broker: the subscriber's client id, which names its persistent session. Default: made
   * once and kept in `DATA_DIR/mqtt-client-id`; with neither, a random id and a clean session.
   */
  clientId?: string;
  /** External broker: how long the broker keeps the session of a process that went away (default 300 s). */
  sessionExpirySeconds?: number;
  /** External broker: MQTT 5 Receive Maximum, unacknowledged messages in flight to us (default `maxQueue`, 5,000). */
  receiveMaximum?: number;
}

/** What the external subscriber's dedup saw (docs/mqtt.md). */
export interface RedeliveryCounters {
  /** Redelivered messages whose batch had committed: acknowledged, not stored again. */
  duplicates: number;
  /** Redelivered messages still queued here: their one pending ack answers both. */
  pendingAgain: number;
  /** Embedded broker: connections closed for a packet over `MQTT_MAX_PACKET_BYTES`. */
  oversize?: number;
  /** Embedded broker: device connections closed by a rotation, removal or disabling. */
  revoked?: number;
}

const DEFAULT_SESSION_EXPIRY_S = 300;
/** Ingestion's own default (ingestion.ts), for the ledger's slot count. */
const DEFAULT_BATCH_SIZE = 500;

/** Ingestion's own default queue bound (ingestion.ts). */
const DEFAULT_MAX_QUEUE = 5000;
/**
 * Mosquitto takes a v5 client's Receive Maximum as its inflight window towards it (over its own
 * `max_inflight_messages`). More unacknowledged messages than the queue holds would only wait in the
 * socket, so the window defaults to the queue bound; capped well below 65,535 minus the ledger's
 * {@link RECENT}, so packet ids cannot wrap inside what the dedup remembers.
 */
const receiveMaximum = (tuning: MqttTuning) =>
  Math.min(65_535 - RECENT - 1024, tuning.receiveMaximum ?? tuning.maxQueue ?? DEFAULT_MAX_QUEUE);

/**
 * The subscriber's identity: explicit, else kept in the data directory (claimed by one process
 * at a time), so the same process finds its session again after a crash or a restart.
 */
function subscriberIdentity(ctx: MqttContext, tuning: MqttTuning): string | undefined {
  if (tuning.clientId) return tuning.clientId;
  if (!ctx.dataDir) return undefined;
  const host = os
    .hostname()
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .slice(0, 32);
  const made = readOrCreateSecret(ctx.dataDir, 'mqtt-client-id', 6).replace(/[^A-Za-z0-9_-]/g, '');
  return `mes-console-${host}-${made}`;
}

export interface MqttRuntime<S extends MessageSink = MessageSink> {
  ingestion: S;
  /** The embedded broker's port once bound; undefined with `MQTT_URL` or while the port is busy. */
  port(): number | undefined;
  /**
   * The embedded broker's own credential (made at start, never stored): in-process clients such
   * as a live device page's feed sign in with it and may subscribe to every topic.
   */
  internal(): { clientId: string; password: string } | undefined;
  /** Resolves when messages can flow: subscribed, or the embedded broker bound (never while its port stays busy). */
  ready: Promise<void>;
  /** External broker: the subscriber's client id (its session), and what its dedup saw. */
  subscriberId(): string | undefined;
  redeliveries: RedeliveryCounters;
  stop(): Promise<void>;
}

/** The deliveries of a batch's messages that belong to the ledger's current session. */
function ledgerDeliveries(messages: readonly IncomingMessage[], epoch: number): { packetId: number; hash: number }[] {
  const out: { packetId: number; hash: number }[] = [];
  for (const m of messages) if (m.delivery && m.delivery.epoch === epoch) out.push(m.delivery);
  return out;
}

/**
 * Starts MQTT ingestion: the embedded broker handing devices' messages to ingestion from its
 * `authorizePublish` hook (the device's PUBACK waits for the commit), or a subscriber of the external
 * broker at `MQTT_URL` through the shared subscription `$share/mes-console/mes/+/+/+` (the
 * subscriber's PUBACK to the broker waits for the commit; its session persists, and a redelivery
 * of a message already committed is acknowledged without being stored again: delivery-ledger.ts).
 * Never rejects for a broker that is unreachable or a port that is busy: the console keeps
 * running and the reason is logged (docs/mqtt.md).
 */
/**
 * The clock's time as a Date, one object for the messages of the same millisecond: a message's
 * `receivedAt` is read, never changed, and lives until its commit (one Date fewer per message).
 */
function sharedDates(now: () => number): () => Date {
  let last = new Date(now());
  return () => {
    const at = now();
    if (at !== last.getTime()) last = new Date(at);
    return last;
  };
}

export async function startMqtt<S extends MessageSink>(
  ctx: MqttContext,
  directory: DeviceAuthenticator,
  config: MqttConfig,
  tuning: MqttTuning,
  makeSink: (hooks: SinkHooks) => S,
): Promise<MqttRuntime<S>> {
  const warn = (message: string, error?: unknown) => ctx.logs.warn(message, error);
  let broker: EmbeddedBroker | undefined;
  let subscriber: Subscriber | undefined;
  let boundPort: number | undefined;
  let stopped = false;
  const identity = config.url ? subscriberIdentity(ctx, tuning) : undefined;
  const clientId = identity ?? `mes-console-${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const ledger = identity
    ? new DeliveryLedger(ctx.database.pool, identity, tuning.batchSize ?? DEFAULT_BATCH_SIZE)
    : undefined;
  /** The embedded broker's counterpart: who published each message, for its publication ledger. */
  const publisherLedger = config.url ? undefined : new PublishLedger(ctx.database.pool);
  const publications = new WeakMap<IncomingMessage, Publication>();
  let redeliveries: RedeliveryCounters = { duplicates: 0, pendingAgain: 0 };
  const maxPacketBytes = config.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES;
  const ingestion = makeSink({
    flow: { pause: () => subscriber?.pause(), resume: () => subscriber?.resume() },
    // The ledger's row(s) go into each batch's own transaction (delivery-ledger.ts, publish-ledger.ts).
    ...(ledger
      ? {
          inTransaction: (client: pg.PoolClient, messages: readonly IncomingMessage[]) =>
            ledger.record(client, ledgerDeliveries(messages, ledger.epoch)),
        }
      : {}),
    ...(publisherLedger
      ? {
          inTransaction: (client: pg.PoolClient, messages: readonly IncomingMessage[]) =>
            publisherLedger.record(
              client,
              messages.flatMap((m) => {
                const p = publications.get(m);
                return p ? [p] : [];
              }),
            ),
        }
      : {}),
  });

  const subscribe = async (make: () => Subscriber): Promise<void> => {
    // The first attempt may fail (broker not up yet): retried every few seconds until stopped.
    for (;;) {
      if (stopped) return;
      // Set before the first SUBACK: a resumed session's redeliveries come right after the CONNACK,
      // and flow control or a stop must reach the subscriber that reads them.
      const candidate = make();
      subscriber = candidate;
      try {
        await candidate.start();
        return;
      } catch (error) {
        subscriber = undefined;
        warn('MQTT: the subscriber could not connect; retrying in 5 s', error);
        await new Promise((r) => setTimeout(r, 5000).unref());
      }
    }
  };

  let ready: Promise<void>;
  const receivedNow = sharedDates(() => ctx.clock.now());
  if (config.url) {
    const url = config.url;
    /** One function acknowledges every subscriber message: what it needs is on the message. */
    const acknowledge = (message: IncomingMessage) => {
      const delivery = message.delivery;
      if (!delivery || delivery.acked) return;
      delivery.acked = true;
      ledger?.commit(delivery.packetId, delivery.hash, delivery.epoch);
      subscriber?.ack(delivery.packetId, delivery.session);
    };
    const onMessage = (packet: IPublishPacket, session: number) => {
      const message: IncomingMessage = {
        topic: packet.topic,
        payload: Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
        qos: packet.qos,
        retain: packet.retain,
        clientId: '',
        receivedAt: receivedNow(),
      };
      const packetId = packet.messageId;
      if (packet.qos === 0 || packetId === undefined) return ingestion.push(message, acknowledge);
      if (!ledger) {
        message.delivery = { packetId, hash: 0, epoch: 0, session, acked: false };
        return ingestion.push(message, acknowledge);
      }
      const hash = digest(message.topic, message.payload);
      switch (ledger.accept(packetId, hash, packet.dup)) {
        case 'committed':
          redeliveries.duplicates++;
          return subscriber?.ack(packetId, session);
        case 'pending':
          redeliveries.pendingAgain++;
          return;
        case 'new':
          message.delivery = { packetId, hash, epoch: ledger.epoch, session, acked: false };
          ingestion.push(message, acknowledge);
      }
    };
    ready = (async () => {
      // What the last run of this session committed, before the broker redelivers anything.
      for (;;) {
        if (stopped || !ledger) break;
        try {
          // A survivor still draining this id's session (a crash before) finishes first.
          await ctx.cluster?.holdSession(clientId);
          await ledger.load();
          break;
        } catch (error) {
          warn('MQTT: cannot read the delivery ledger; retrying in 5 s', error);
          await new Promise((r) => setTimeout(r, 5000).unref());
        }
      }
      await subscribe(
        () =>
          new Subscriber({
            url,
            clientId,
            protocolVersion: 5,
            topics: [
              `$share/${tuning.shareGroup ?? SHARE_GROUP}/${tuning.ingestTopic ?? INGEST_TOPIC}`,
              `$share/${tuning.shareGroup ?? SHARE_GROUP}/${tuning.sparkplugTopic ?? SPARKPLUG_TOPIC}`,
            ],
            cleanStart: !ledger,
            sessionExpirySeconds: ledger ? (tuning.sessionExpirySeconds ?? DEFAULT_SESSION_EXPIRY_S) : 0,
            receiveMaximum: receiveMaximum(tuning),
            maxPacketBytes,
            onMessage,
            onSession: (present) => {
              if (!present) ledger?.reset();
            },
            warn,
          }),
      );
    })();
  } else {
    // Rows of devices long silent; a failure only leaves them for the next start.
    await publisherLedger?.prune().catch((error: unknown) => warn('MQTT: cannot prune the publication ledger', error));
    const started = await startEmbeddedBroker(
      {
        host: config.host,
        port: config.port,
        directory,
        warn,
        now: () => ctx.clock.now(),
        onPresence: (event) => ingestion.presence(event),
        onDevicePublish: (message, done, publication) => {
          const incoming: IncomingMessage = { ...message, receivedAt: receivedNow() };
          if (publication) publications.set(incoming, publication);
          ingestion.push(incoming, done);
        },
        maxPacketBytes,
        ...(publisherLedger ? { ledger: publisherLedger } : {}),
        ...(tuning.retryBusyMs !== undefined ? { retryBusyMs: tuning.retryBusyMs } : {}),
      },
      () => tuning.consoleAt ?? '',
    );
    broker = started;
    redeliveries = started.counters;
    ctx.changes?.subscribe((topic) => {
      const clientId = revokedClientOf(topic);
      if (clientId !== undefined) started.revoke(clientId);
    });
    ready = started.listening.then((port) => {
      boundPort = port;
    });
  }

  const topics = [
    `$share/${tuning.shareGroup ?? SHARE_GROUP}/${tuning.ingestTopic ?? INGEST_TOPIC}`,
    `$share/${tuning.shareGroup ?? SHARE_GROUP}/${tuning.sparkplugTopic ?? SPARKPLUG_TOPIC}`,
  ];
  const takeovers =
    ctx.cluster && config.url
      ? watchOrphanedSessions({
          url: config.url,
          topics,
          registry: ctx.cluster,
          pool: ctx.database.pool,
          batchSize: tuning.batchSize ?? DEFAULT_BATCH_SIZE,
          makeSink,
          now: () => ctx.clock.now(),
          warn,
          sessionExpirySeconds: tuning.sessionExpirySeconds ?? DEFAULT_SESSION_EXPIRY_S,
          receiveMaximum: receiveMaximum(tuning),
        })
      : undefined;

  // Readiness (/api/health/ready) and /metrics ask whether messages can arrive, and from how many.
  const unwatch = watchBroker(
    config.url
      ? {
          kind: 'external',
          reachable: () => subscriber?.isConnected ?? false,
          connections: () => (subscriber?.isConnected ? 1 : 0),
        }
      : {
          kind: 'embedded',
          reachable: () => boundPort !== undefined && !stopped,
          connections: () => broker?.connections() ?? 0,
        },
  );

  return {
    ingestion,
    port: () => boundPort,
    internal: () => broker?.internal,
    ready,
    subscriberId: () => (config.url ? clientId : undefined),
    redeliveries,
    stop: async () => {
      stopped = true;
      unwatch();
      await takeovers?.stop();
      // Reading stops first; what was read is committed and acknowledged, then DISCONNECT (or,
      // embedded, the devices' connections close after their PUBACKs). What was sent after the
      // halt stays unacknowledged: the broker's session, or the device, sends it again.
      subscriber?.halt();
      broker?.halt();
      await ingestion.stop();
      await subscriber?.stop();
      await broker?.close();
    },
  };
}
