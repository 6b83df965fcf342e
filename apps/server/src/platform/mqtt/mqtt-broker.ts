import { randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { Aedes, type Client } from 'aedes';
import { OnOffReason } from '@mes/contracts';
import type { DeviceAuthenticator, DeviceIdentity } from './device-directory';
import { TOPIC_KINDS, type PresenceEvent } from './topics';
import { mayPublishSparkplug, maySubscribeSparkplug } from './sparkplug';

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
  ): void;
}

export interface EmbeddedBroker {
  /** Resolves with the bound port once listening (never, while the port stays busy). */
  readonly listening: Promise<number>;
  /** The internal subscriber's credential. */
  readonly internal: { clientId: string; password: string };
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

  const broker = await Aedes.createBroker({
    authenticate: (client, _username, password, done) => {
      const secret = password?.toString('utf8') ?? '';
      if (client.id === internal.clientId) {
        if (sameSecret(secret, internal.password)) return done(null, true);
        return done(Object.assign(new Error('bad credentials'), { returnCode: AUTH_BAD_CREDENTIALS }), false);
      }
      options.directory.authenticate(client.id, secret).then(
        (identity) => {
          if (!identity)
            return done(Object.assign(new Error('bad credentials'), { returnCode: AUTH_BAD_CREDENTIALS }), false);
          devices.set(client, identity);
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
      options.onDevicePublish(
        { topic: packet.topic, payload, qos: packet.qos, retain: packet.retain, clientId: client.id },
        () => done(null),
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
    const hadWill = withWill.delete(client);
    // aedes marks a disconnect announced by a DISCONNECT packet; any other end sends the will,
    // which ingestion turns into the offline record (reason last-will).
    const announced = (client as unknown as { _disconnected?: boolean })._disconnected === true;
    if (hadWill && !announced) return;
    options.onPresence({ ...device, online: false, at: new Date(options.now()), reason: OnOffReason.normal });
  });

  const server = net.createServer((socket) => broker.handle(socket));
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
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
