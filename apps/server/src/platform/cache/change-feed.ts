import { openListenConnection } from '../db/listen-connection';
import type { Warn } from '../db/throttled-warning';

/** The PostgreSQL channel of data changes (`announceRowChanges` writes to it inside a transaction). */
export const CHANGE_CHANNEL = 'mes_data_changed';
const CHANNEL = CHANGE_CHANNEL;

type Listener = (topic: string) => void;

/**
 * Tells every server process that data behind a cache changed (`grants`, `total:user:000000`).
 * Local listeners run at once; other processes hear it through PostgreSQL LISTEN/NOTIFY. While
 * the listening connection is down, and right after it comes back, every cache is told that
 * everything changed, so no process serves a stale copy after a missed notification.
 */
export interface ChangeFeed {
  publish(topic: string): Promise<void>;
  subscribe(listener: Listener): void;
  /** False while notifications may be missed; caches must not fill then. */
  isLive(): boolean;
  close(): Promise<void>;
}

/** A topic that means "anything may have changed". */
export const ALL_TOPICS = '*';

/** A topic that says a job of this queue is ready to run (the job queue's `announce`). */
export const jobTopic = (name: string) => `job:${name}`;
const JOB_PREFIX = 'job:';
/** The queue a `jobTopic` names, else undefined. */
export const jobOfTopic = (topic: string) =>
  topic.startsWith(JOB_PREFIX) ? topic.slice(JOB_PREFIX.length) : undefined;

/** A topic that means "anything of this tenant may have changed" (its administrator's clear-cache). */
export const tenantTopic = (tenantId: string) => `tenant:${tenantId}`;
const TENANT_PREFIX = 'tenant:';
/** The tenant a `tenantTopic` names, else undefined. */
export const tenantOfTopic = (topic: string) =>
  topic.startsWith(TENANT_PREFIX) ? topic.slice(TENANT_PREFIX.length) : undefined;

export async function postgresChangeFeed(
  url: string,
  notify: (channel: string, payload: string) => Promise<void>,
  warn?: Warn,
): Promise<ChangeFeed> {
  const listeners: Listener[] = [];
  const emit = (topic: string) => listeners.forEach((l) => l(topic));
  // Lost and back alike: whatever changed meanwhile was not heard, so every cache lets go.
  const connection = await openListenConnection({
    url,
    channels: [CHANNEL],
    applicationName: 'mes-changes',
    onNotification: (msg) => emit(msg.payload ?? ALL_TOPICS),
    onUp: () => emit(ALL_TOPICS),
    onDown: () => emit(ALL_TOPICS),
    warn,
  });

  const feed: ChangeFeed = {
    async publish(topic) {
      emit(topic);
      await notify(CHANNEL, topic);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    isLive: () => connection.isUp(),
    close: () => connection.close(),
  };
  return feed;
}
