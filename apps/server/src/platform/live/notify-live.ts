import type { LiveEvent } from '@mes/contracts';

/** The PostgreSQL channel every server process listens on for live events. */
export const LIVE_CHANNEL = 'mes_live';

/** NOTIFY refuses payloads of 8,000 bytes or more; events are packed into arrays below that. */
const MAX_PAYLOAD = 7_000;

/** Anything that runs a parameterised query: a pool, or the client of an open transaction. */
export interface LiveQueryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * The NOTIFY payloads of these events: JSON arrays of as many events as fit below the limit (an
 * event too large on its own is cut down to its type and ids by the caller's design: messages
 * are clipped to 500 characters).
 */
export function livePayloads(events: readonly LiveEvent[]): string[] {
  const payloads: string[] = [];
  let pack: string[] = [];
  let size = 2;
  for (const event of events) {
    const text = JSON.stringify(event);
    const bytes = Buffer.byteLength(text);
    if (pack.length && size + bytes + 1 > MAX_PAYLOAD) {
      payloads.push(`[${pack.join(',')}]`);
      pack = [];
      size = 2;
    }
    pack.push(text);
    size += bytes + 1;
  }
  if (pack.length) payloads.push(`[${pack.join(',')}]`);
  return payloads;
}

/**
 * Queues live events for the browsers, inside the caller's transaction: PostgreSQL sends them when
 * it commits and drops them on rollback, so a browser never hears of a change that was not stored.
 * Several events go as few NOTIFYs as fit (see {@link livePayloads}). A Drizzle transaction sends
 * each payload with `select pg_notify(LIVE_CHANNEL, payload)` itself.
 */
export async function notifyLive(db: LiveQueryable, events: readonly LiveEvent[]): Promise<void> {
  for (const payload of livePayloads(events)) await db.query('select pg_notify($1, $2)', [LIVE_CHANNEL, payload]);
}
