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
 * Queues live events for the browsers, inside the caller's transaction: PostgreSQL sends them when
 * it commits and drops them on rollback, so a browser never hears of a change that was not stored.
 * Several events go as few NOTIFYs as fit (a JSON array each); an event too large on its own is
 * cut down to its type and ids by the caller's design (messages are clipped to 500 characters).
 */
export async function notifyLive(db: LiveQueryable, events: readonly LiveEvent[]): Promise<void> {
  let pack: string[] = [];
  let size = 2;
  const flush = async () => {
    if (!pack.length) return;
    await db.query('select pg_notify($1, $2)', [LIVE_CHANNEL, `[${pack.join(',')}]`]);
    pack = [];
    size = 2;
  };
  for (const event of events) {
    const text = JSON.stringify(event);
    const bytes = Buffer.byteLength(text);
    if (size + bytes + 1 > MAX_PAYLOAD) await flush();
    pack.push(text);
    size += bytes + 1;
  }
  await flush();
}
