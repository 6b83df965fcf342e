import pg from 'pg';
import type { Warn } from './throttled-warning';

export interface ListenOptions {
  url: string;
  /** Channel names (identifiers of our own, never input). */
  channels: readonly string[];
  /** Shown in `pg_stat_activity`, so an operator can tell the connections apart. */
  applicationName: string;
  onNotification(message: pg.Notification): void;
  /**
   * Runs after every LISTEN, before the connection counts as up: reload what a missed
   * notification may have changed. A failure drops the connection and it is tried again.
   */
  onUp?(): Promise<void> | void;
  /** The connection was lost after being up: notifications may be missed until `onUp` again. */
  onDown?(): void;
  warn?: Warn;
}

export interface ListenConnection {
  /** LISTENing and `onUp` done: no notification is being missed. */
  isUp(): boolean;
  close(): Promise<void>;
}

/** Waits before the next attempt: doubling from the first, at most the last (plus up to 20 %). */
export const RECONNECT_DELAYS_MS = { first: 200, max: 3_000 } as const;

/**
 * A dedicated connection that LISTENs and stays listening: lost (an outage, a terminated
 * backend, a failover), it is reconnected with backoff, LISTENs again and runs `onUp`, for as
 * long as it is not closed. Nothing it meets is thrown at the process: every client error has a
 * listener, every attempt's failure is caught. The first connection must succeed (a server whose
 * database is unreachable at start does not start).
 */
export async function openListenConnection(options: ListenOptions): Promise<ListenConnection> {
  let current: pg.Client | undefined;
  let up = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  let downSince: number | undefined;

  const schedule = () => {
    if (closed) return;
    const base = Math.min(RECONNECT_DELAYS_MS.max, RECONNECT_DELAYS_MS.first * 2 ** failures);
    failures += 1;
    timer = setTimeout(
      () => {
        timer = undefined;
        // A failure has already been handled (and the next attempt scheduled) by `drop`.
        attempt().catch(() => undefined);
      },
      base * (1 + Math.random() * 0.2),
    );
  };

  const attempt = async () => {
    const client = new pg.Client({ connectionString: options.url, application_name: options.applicationName });
    current = client;
    let dropped = false;
    const drop = (error?: unknown) => {
      if (dropped) return;
      dropped = true;
      client.end().catch(() => undefined);
      if (current !== client) return;
      current = undefined;
      const wasUp = up;
      up = false;
      if (wasUp) {
        downSince = Date.now();
        options.warn?.(`${options.applicationName}: the listening connection was lost; reconnecting`, error);
        options.onDown?.();
      }
      schedule();
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', (message) => {
      if (current === client && !dropped) options.onNotification(message);
    });
    try {
      await client.connect();
      for (const channel of options.channels) await client.query(`LISTEN ${channel}`);
      await options.onUp?.();
    } catch (error) {
      drop(error);
      throw error;
    }
    if (dropped || closed) return;
    up = true;
    failures = 0;
    if (downSince !== undefined) {
      options.warn?.(
        `${options.applicationName}: listening again after ${((Date.now() - downSince) / 1000).toFixed(1)} s`,
      );
      downSince = undefined;
    }
  };

  const close = async () => {
    closed = true;
    clearTimeout(timer);
    up = false;
    const client = current;
    current = undefined;
    await client?.end().catch(() => undefined);
  };

  try {
    await attempt();
  } catch (error) {
    await close();
    throw error;
  }

  return { isUp: () => up, close };
}
