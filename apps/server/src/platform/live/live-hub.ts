import type { LiveEvent, LiveEventType } from '@mes/contracts';
import { REVOCATION_CHANNEL } from '../auth/revocation-list';
import { openListenConnection } from '../db/listen-connection';
import { LIVE_CHANNEL } from './notify-live';

const EVENT_TYPES: ReadonlySet<LiveEventType> = new Set(['warning', 'device', 'cycle', 'notice']);

export interface LiveHubListener {
  event(event: LiveEvent): void;
  /** A session id was revoked (logout, refresh) on some process. */
  revoked(sid: string): void;
  /**
   * The listening connection was lost: events may have been missed, so every stream ends and its
   * browser reconnects and reloads what it shows.
   */
  lost(): void;
}

/**
 * One process's ear on the live channel: a dedicated connection LISTENs on `mes_live`, each
 * committed NOTIFY arrives here once, and its events go to this process's streams (docs/live.md).
 */
export interface LiveHub {
  subscribe(listener: LiveHubListener): () => void;
  /** False while the connection is down: no event would reach a new stream. */
  isLive(): boolean;
  close(): Promise<void>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The events of one NOTIFY payload (a JSON array, notify-live.ts). Entries without a known type
 * or a tenant are dropped: a stream must never guess whose an event is.
 */
export function parseLivePayload(payload: string): LiveEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return [];
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.filter(
    (e): e is LiveEvent =>
      isRecord(e) &&
      typeof e.type === 'string' &&
      EVENT_TYPES.has(e.type as LiveEventType) &&
      typeof e.tenantId === 'string' &&
      e.tenantId !== '',
  );
}

export async function postgresLiveHub(url: string, warn: (message: string, error?: unknown) => void): Promise<LiveHub> {
  const listeners = new Set<LiveHubListener>();

  const each = (call: (l: LiveHubListener) => void) => {
    for (const l of [...listeners]) {
      try {
        call(l);
      } catch (error) {
        warn('live hub: a listener failed', error);
      }
    }
  };

  // No reload on reconnecting: streams ended when the connection was lost (`lost`), and their
  // browsers reload what they show when they reconnect.
  const connection = await openListenConnection({
    url,
    channels: [REVOCATION_CHANNEL, LIVE_CHANNEL],
    applicationName: 'mes-live',
    onNotification: (msg) => {
      if (msg.channel === REVOCATION_CHANNEL) {
        const sid = (msg.payload ?? '').split(' ')[0];
        if (sid) each((l) => l.revoked(sid));
        return;
      }
      for (const event of parseLivePayload(msg.payload ?? '')) each((l) => l.event(event));
    },
    onDown: () => each((l) => l.lost()),
    warn,
  });

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isLive: () => connection.isUp(),
    async close() {
      listeners.clear();
      await connection.close();
    },
  };
}
