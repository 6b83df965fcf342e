import net from 'node:net';
import tls from 'node:tls';
import { generate, parser, type Packet } from 'mqtt-packet';
import type pg from 'pg';
import type { OrphanedSession, ProcessRegistry } from '../cluster/process-registry';
import { DeliveryLedger, digest } from './delivery-ledger';
import type { SinkHooks } from './topics';
import type { IncomingMessage, MessageSink } from './topics';

/**
 * Takes over the broker session of a dead server process (docs/mqtt.md "A process that stays
 * down"), so that its share of the shared subscription is stored instead of expiring with it.
 *
 * Measured on the machine's Mosquitto 2.0.11: a member whose persistent session is offline keeps
 * being handed its share (nothing is redistributed); a client connecting with its id and
 * cleanStart=false receives what is queued; after an UNSUBSCRIBE the queued messages still arrive
 * while new ones go to the other members; a DISCONNECT with session expiry 0 ends the session.
 *
 * So one survivor (claimed in the registry) connects as the dead process, unsubscribes, stores
 * every message through the same ingestion path with that session's delivery ledger (redeliveries
 * of batches the dead process committed are acknowledged, not stored again), and once idle
 * disconnects with session expiry 0: the broker forgets the member.
 */
export interface TakeoverOptions {
  url: string;
  /** The shared-subscription filters the dead process subscribed to (unsubscribed at once). */
  topics: string[];
  registry: ProcessRegistry;
  pool: pg.Pool;
  batchSize: number;
  /** The same sink factory the process's own subscriber uses (its ingestion). */
  makeSink(hooks: SinkHooks): MessageSink;
  now(): number;
  warn(message: string, error?: unknown): void;
  /** Session expiry while draining, so a survivor that dies mid-way leaves the rest to another. */
  sessionExpirySeconds: number;
  receiveMaximum: number;
  /** Drained when no message came for this long and nothing is queued (default 1 s). */
  idleMs?: number;
  /** How often the registry is asked for a dead process's session (default its heartbeat). */
  everyMs?: number;
}

export interface TakeoverResult {
  /** Whether the broker still had the session. */
  present: boolean;
  /** Messages stored, and redeliveries recognised as already stored. */
  stored: number;
  duplicates: number;
  /** false: the connection was taken (the process came back) or lost before the end. */
  finished: boolean;
}

/** Polls the registry and drains each dead process's session it claims, one at a time. */
export function watchOrphanedSessions(options: TakeoverOptions): {
  stop(): Promise<void>;
  readonly taken: TakeoverResult[];
} {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const taken: TakeoverResult[] = [];
  const every = options.everyMs ?? options.registry.settings.heartbeatMs;
  const tick = async () => {
    let claim: OrphanedSession | undefined;
    try {
      claim = await options.registry.claimOrphanedSession();
      if (!claim) return;
      const result = await takeOverSession(options, claim.clientId);
      taken.push(result);
      if (result.finished) await options.registry.sessionTakenOver(claim.instanceId);
      else await options.registry.releaseSession(claim.instanceId);
    } catch (error) {
      options.warn('MQTT: taking over a dead process session failed; trying again', error);
      if (claim) await options.registry.releaseSession(claim.instanceId).catch(() => undefined);
    }
  };
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(tick);
  }, every);
  timer.unref();
  return {
    taken,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Connects as `clientId`, stores what its session holds, and ends the session. */
export async function takeOverSession(options: TakeoverOptions, clientId: string): Promise<TakeoverResult> {
  const ledger = new DeliveryLedger(options.pool, clientId, options.batchSize);
  await ledger.load();
  const deliveries = new WeakMap<IncomingMessage, { packetId: number; hash: number }>();
  const result: TakeoverResult = { present: false, stored: 0, duplicates: 0, finished: false };
  const url = new URL(options.url);
  const secure = url.protocol === 'mqtts:' || url.protocol === 'ssl:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 8883 : 1883));
  const socket = secure ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
  socket.setNoDelay(true);
  const send = (packet: Packet) => {
    if (!socket.destroyed) socket.write(generate(packet, { protocolVersion: 5 }));
  };
  const sink = options.makeSink({
    flow: { pause: () => socket.pause(), resume: () => socket.resume() },
    inTransaction: (client, messages) =>
      ledger.record(
        client,
        messages.flatMap((m) => {
          const d = deliveries.get(m);
          return d ? [d] : [];
        }),
      ),
  });
  // Wall time, not the context's clock (a test clock may stand still).
  let lastMessage = Date.now();
  let pushed = 0;
  let subscribedOff = false;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', (error) => options.warn(`MQTT takeover of ${clientId}: connection error`, error));

  const read = parser({ protocolVersion: 5 });
  read.on('error', (error: Error) => {
    options.warn(`MQTT takeover of ${clientId}: malformed packet`, error);
    socket.destroy();
  });
  read.on('packet', (packet: Packet) => {
    switch (packet.cmd) {
      case 'connack': {
        if ((packet.reasonCode ?? packet.returnCode ?? 0) !== 0) {
          options.warn(`MQTT takeover of ${clientId}: refused (${packet.reasonCode ?? packet.returnCode})`);
          socket.destroy();
          return;
        }
        result.present = packet.sessionPresent;
        // No new share for this member from now on; what its session queued still comes.
        send({ cmd: 'unsubscribe', messageId: 1, unsubscriptions: options.topics });
        return;
      }
      case 'unsuback':
        subscribedOff = true;
        return;
      case 'publish': {
        lastMessage = Date.now();
        const messageId = packet.messageId;
        const ack = () => {
          if (packet.qos > 0 && messageId !== undefined) send({ cmd: 'puback', messageId, reasonCode: 0 } as Packet);
        };
        const message: IncomingMessage = {
          topic: packet.topic,
          payload: Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
          qos: packet.qos,
          retain: packet.retain,
          clientId: '',
          receivedAt: new Date(options.now()),
        };
        if (packet.qos === 0 || messageId === undefined) return sink.push(message, ack);
        const hash = digest(message.topic, message.payload);
        const seen = ledger.accept(messageId, hash, packet.dup);
        if (seen === 'committed') {
          result.duplicates++;
          return ack();
        }
        if (seen === 'pending') return;
        deliveries.set(message, { packetId: messageId, hash });
        pushed++;
        sink.push(message, () => {
          ledger.commit(messageId, hash, ledger.epoch);
          result.stored++;
          ack();
        });
        return;
      }
      default:
        return;
    }
  });
  socket.on('data', (chunk: Buffer) => read.parse(chunk));
  socket.on('connect', () => {
    const user = url.username ? decodeURIComponent(url.username) : undefined;
    const password = url.password ? decodeURIComponent(url.password) : undefined;
    send({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 5,
      clientId,
      clean: false,
      keepalive: 30,
      ...(user !== undefined ? { username: user } : {}),
      ...(password !== undefined ? { password: Buffer.from(password) } : {}),
      properties: { sessionExpiryInterval: options.sessionExpirySeconds, receiveMaximum: options.receiveMaximum },
    });
  });

  const idleMs = options.idleMs ?? 1000;
  const drained = new Promise<boolean>((resolve) => {
    const check = setInterval(() => {
      if (socket.destroyed) {
        clearInterval(check);
        resolve(false);
      } else if (subscribedOff && sink.queued === 0 && Date.now() - lastMessage >= idleMs) {
        clearInterval(check);
        resolve(true);
      }
    }, 100);
  });
  const idle = await drained;
  // What was read is committed (and acknowledged, if the connection is still ours).
  await sink.stop();
  // Ended only when every message taken was stored: one given up (the database failing while
  // stopping) stays in the session for the next claim.
  if (idle && !socket.destroyed && result.stored === pushed) {
    await new Promise<void>((resolve) => {
      socket.end(
        generate(
          { cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } },
          { protocolVersion: 5 },
        ),
        () => resolve(),
      );
    });
    setTimeout(() => socket.destroy(), 500).unref();
    result.finished = true;
  }
  socket.destroy();
  await closed;
  return result;
}
