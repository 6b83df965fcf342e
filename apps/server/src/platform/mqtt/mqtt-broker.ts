import { randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { Aedes, type Client } from 'aedes';
import { OnOffReason } from '@mes/contracts';
import type { DeviceAuthenticator, DeviceIdentity } from './device-directory';
import { TOPIC_KINDS, type PresenceEvent } from './topics';
import { mayPublishSparkplug, maySubscribeSparkplug } from './sparkplug';
import { digest } from './delivery-ledger';
import { DEFAULT_MAX_PACKET_BYTES, GuardedConnection } from './packet-size';
import type { Publication, PublishLedger } from './publish-ledger';

/**
 * The embedded broker (aedes, MQTT 3.1.1) the server runs when no `MQTT_URL` names an external
 * one. Devices sign in with their MQTT client id and secret (`DeviceDirectory.authenticate`) and
 * may publish only to `mes/{their tenant}/{their code}/{telemetry|status|cycle}` and to Sparkplug
 * topics of their tenant's group under their own code; the server's own subscriber signs in with
 * a credential made at start and never stored.
 */
export interface EmbeddedBrokerOptions {
  host: string;
  /** 0 = any free port. */
  port: number;
  directory: DeviceAuthenticator;
  warn(message: string, error?: unknown): void;
  /** Connection events of devices (online on connect, offline on a clean disconnect). */
  onPresence(event: PresenceEvent): void;
  now(): number;
  /** How long to wait before trying a busy port again (default 30 s). */
  retryBusyMs?: number;
  /**
   * Every message a device published (a last will too); `done` releases the device's PUBACK, so
   * ingestion calls it after the message's batch committed.
   */
  onDevicePublish(
    message: { topic: string; payload: Buffer; qos: number; retain: boolean; clientId: string },
    done: () => void,
    publication?: Publication,
  ): void;
  /** The largest packet a connection may send (default 256 KB); a bigger one closes it. */
  maxPacketBytes?: number;
  /** Recognises QoS-1 messages a device publishes again after their commit (publish-ledger.ts). */
  ledger?: PublishLedger;
}

/** What the embedded broker's dedup and size guard saw (docs/mqtt.md). */
export interface EmbeddedCounters {
  /** Publications whose batch had committed, published again: acknowledged, not stored again. */
  duplicates: number;
  /** Publications still queued here, published again: their one commit acknowledges both. */
  pendingAgain: number;
  /** Connections closed for a packet over the size limit. */
  oversize: number;
  /** Device connections closed because their credential was rotated, or the device removed or disabled. */
  revoked: number;
}

export interface EmbeddedBroker {
  /** Resolves with the bound port once listening (never, while the port stays busy). */
  readonly listening: Promise<number>;
  /** The internal subscriber's credential. */
  readonly internal: { clientId: string; password: string };
  readonly counters: EmbeddedCounters;
  /**
   * Closes at once the connection of the device with this MQTT client id (its secret was rotated,
   * or it was removed or disabled), and refuses a sign-in with it that was being checked.
   */
  revoke(clientId: string): void;
  /** Clients connected now (devices and in-process subscribers): read by /metrics. */
  connections(): number;
  /** Accepts no connection and reads nothing more from devices; what was read is still acknowledged. */
  halt(): void;
  close(): Promise<void>;
}

const AUTH_BAD_CREDENTIALS = 4;
const AUTH_SERVER_UNAVAILABLE = 3;

/** The line an operator sees when the port is taken (docs/mqtt.md). */
export const busyPortMessage = (port: number, consoleAt: string) =>
  `MQTT port ${port} is in use: device telemetry is off until it is free or MQTT_PORT names another port; the console runs on${consoleAt ? ` ${consoleAt}` : ''}`;

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Whether a device may publish to a topic: its own prefix and one of the three kinds, or a
 * Sparkplug report of its tenant's group under its own code (sparkplug.ts).
 */
export const mayPublish = (device: DeviceIdentity, topic: string) =>
  TOPIC_KINDS.some((kind) => topic === `mes/${device.tenantId}/${device.deviceCode}/${kind}`) ||
  mayPublishSparkplug(device, topic);

/**
 * Whether a device may subscribe to a filter: anything under its own prefix (wildcards stay
 * inside it), or its own Sparkplug commands and a host's state.
 */
export const maySubscribe = (device: DeviceIdentity, filter: string) =>
  filter.startsWith(`mes/${device.tenantId}/${device.deviceCode}/`) || maySubscribeSparkplug(device, filter);

export async function startEmbeddedBroker(
  options: EmbeddedBrokerOptions,
  consoleAt: () => string,
): Promise<EmbeddedBroker> {
  const internal = {
    clientId: `mes-console-${randomBytes(6).toString('hex')}`,
    password: randomBytes(24).toString('hex'),
  };
  // By connection, not client id: a device reconnecting with its id takes over, and the old
  // connection's disconnect must not forget the new one.
  const devices = new WeakMap<Client, DeviceIdentity>();
  const withWill = new WeakSet<Client>();
  const isInternal = (client: Client | null) => client !== null && client.id === internal.clientId;
  const counters: EmbeddedCounters = { duplicates: 0, pendingAgain: 0, oversize: 0, revoked: 0 };
  const ledger = options.ledger;
  /** A number per signed-in connection: the ledger tells a resend from a new message by it. */
  const connectionOf = new WeakMap<Client, number>();
  let connections = 0;
  /** Signed-in connections per client id (a takeover overlaps two): the ledger forgets a device at zero. */
  const signedIn = new Map<string, number>();
  /** When a client id was revoked: a sign-in checked before then, still in flight, is refused (kept 10 s). */
  const revokedAt = new Map<string, number>();
  const guarded = new Set<GuardedConnection>();
  const refuse = () => Object.assign(new Error('bad credentials'), { returnCode: AUTH_BAD_CREDENTIALS });
  /** How many times a sign-in check that revocations overtook is read again (see `authenticate`). */
  const RECHECKS = 4;

  const broker = await Aedes.createBroker({
    authenticate: (client, _username, password, done) => {
      const secret = password?.toString('utf8') ?? '';
      if (client.id === internal.clientId) {
        if (sameSecret(secret, internal.password)) return done(null, true);
        return done(Object.assign(new Error('bad credentials'), { returnCode: AUTH_BAD_CREDENTIALS }), false);
      }
      // A check that a revocation overtook is made once more: read after the revocation's commit,
      // the old secret fails and the new one (a device reconnecting right after a rotation) passes.
      // Several notices can overtake one slow check (a device added, then its first secret issued,
      // on a busy server), so it is read again up to RECHECKS times before the sign-in is refused.
      const check = async (rechecks: number): Promise<DeviceIdentity | undefined> => {
        const startedAt = Date.now();
        const identity = await options.directory.authenticate(client.id, secret);
        // What was committed for the device, before its first publication is judged.
        if (identity && ledger) await ledger.load(client.id);
        const revoked = revokedAt.get(client.id);
        if (identity && revoked !== undefined && revoked >= startedAt)
          return rechecks > 0 ? check(rechecks - 1) : undefined;
        return identity;
      };
      check(RECHECKS).then(
        (identity) => {
          if (!identity) return done(refuse(), false);
          devices.set(client, identity);
          connectionOf.set(client, ++connections);
          signedIn.set(client.id, (signedIn.get(client.id) ?? 0) + 1);
          done(null, true);
        },
        (error: unknown) => {
          options.warn('MQTT broker: device authentication failed', error);
          done(Object.assign(new Error('unavailable'), { returnCode: AUTH_SERVER_UNAVAILABLE }), false);
        },
      );
    },
    authorizePublish: (client, packet, done) => {
      if (client === null || isInternal(client)) return done(null);
      const device = devices.get(client);
      if (!device || !mayPublish(device, packet.topic))
        return done(new Error(`topic ${packet.topic} is not this device's`));
      // aedes writes a QoS-1 PUBACK once this calls back (its \`published\` hook runs after the
      // PUBACK): ingestion calls back after the message's batch committed. aedes reads a
      // connection's next chunk only when every packet of the previous one is done, so a device's
      // backlog waits in its socket and its own inflight window, not in memory.
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      const publication =
        ledger && packet.qos > 0 && packet.messageId !== undefined
          ? {
              clientId: client.id,
              packetId: packet.messageId,
              hash: digest(packet.topic, payload),
              connection: connectionOf.get(client) ?? 0,
            }
          : undefined;
      if (ledger && publication) {
        const verdict = ledger.accept(publication, packet.dup);
        if (verdict.kind === 'committed') {
          counters.duplicates++;
          return done(null);
        }
        if (verdict.kind === 'pending') {
          counters.pendingAgain++;
          void verdict.wait.then(() => done(null));
          return;
        }
      }
      options.onDevicePublish(
        { topic: packet.topic, payload, qos: packet.qos, retain: packet.retain, clientId: client.id },
        () => {
          if (publication) ledger?.commit(publication);
          done(null);
        },
        publication,
      );
    },
    authorizeSubscribe: (client, subscription, done) => {
      if (isInternal(client)) return done(null, subscription);
      const device = devices.get(client);
      if (device && maySubscribe(device, subscription.topic)) return done(null, subscription);
      // A negated subscription: SUBACK 0x80 for this filter, the connection stays.
      done(null, null);
    },
  });

  broker.on('clientReady', (client) => {
    const device = devices.get(client);
    if (!device) return;
    // Whether the client left a last will: its publication then reports the disconnect.
    if ((client as unknown as { will?: unknown }).will) withWill.add(client);
    options.onPresence({ ...device, online: true, at: new Date(options.now()), reason: OnOffReason.normal });
  });
  broker.on('clientDisconnect', (client) => {
    const device = devices.get(client);
    if (!device) return;
    devices.delete(client);
    const left = (signedIn.get(client.id) ?? 1) - 1;
    if (left > 0) signedIn.set(client.id, left);
    else {
      signedIn.delete(client.id);
      ledger?.forget(client.id);
    }
    const hadWill = withWill.delete(client);
    // aedes marks a disconnect announced by a DISCONNECT packet; any other end sends the will,
    // which ingestion turns into the offline record (reason last-will).
    const announced = (client as unknown as { _disconnected?: boolean })._disconnected === true;
    if (hadWill && !announced) return;
    options.onPresence({ ...device, online: false, at: new Date(options.now()), reason: OnOffReason.normal });
  });

  const maxPacketBytes = options.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES;
  const onOversize = (connection: GuardedConnection, bytes: number) => {
    counters.oversize++;
    const client = connection.client as Client | undefined;
    const device = client ? devices.get(client) : undefined;
    const who = device
      ? `device ${device.tenantId}/${device.deviceCode} (client ${client?.id})`
      : `client ${client?.id ?? '?'} from ${connection.socket.remoteAddress ?? '?'}`;
    const size = Number.isFinite(bytes) ? `${bytes} bytes` : 'a malformed length';
    options.warn(`MQTT broker: ${who} sent a packet of ${size} (limit ${maxPacketBytes}); connection closed`);
  };
  let halted = false;
  const server = net.createServer((socket) => {
    if (halted) return socket.destroy();
    const connection = new GuardedConnection(socket, maxPacketBytes, onOversize);
    guarded.add(connection);
    connection.once('close', () => guarded.delete(connection));
    broker.handle(connection);
  });
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const listening = new Promise<number>((resolve) => {
    const attempt = () => {
      if (closed) return;
      const onError = (error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE' || error.code === 'EACCES') {
          options.warn(busyPortMessage(options.port, consoleAt()));
          retry = setTimeout(attempt, options.retryBusyMs ?? 30_000);
          retry.unref();
        } else options.warn('MQTT broker: cannot listen', error);
      };
      server.once('error', onError);
      server.listen(options.port, options.host, () => {
        server.removeListener('error', onError);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : options.port);
      });
    };
    attempt();
  });
  server.on('error', (error) => {
    if (server.listening) options.warn('MQTT broker: server error', error);
  });

  return {
    listening,
    internal,
    counters,
    connections: () => broker.connectedClients,
    revoke: (clientId) => {
      const now = Date.now();
      revokedAt.set(clientId, now);
      for (const [id, at] of revokedAt) if (now - at > 10_000) revokedAt.delete(id);
      const client = (broker as unknown as { clients: Record<string, Client | undefined> }).clients[clientId];
      const device = client ? devices.get(client) : undefined;
      if (!client || !device) return;
      const close = () => {
        if (client.closed) return;
        counters.revoked++;
        options.warn(
          `MQTT broker: device ${device.tenantId}/${device.deviceCode} (client ${clientId}) disconnected: its credential was rotated, or the device removed or disabled`,
        );
        client.close();
      };
      // A connection that already proved the credential the revocation put in place (a device that
      // signed in with its new secret before the notice arrived) stays; any doubt closes it.
      const current = options.directory.currentCredential?.bind(options.directory);
      if (!current || device.credential === undefined) return close();
      current(clientId).then(
        (credential) => {
          if (credential !== device.credential) close();
        },
        () => close(),
      );
    },
    halt: () => {
      halted = true;
      for (const connection of guarded) connection.halt();
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
