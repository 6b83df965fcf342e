import { and, gt, like, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../db/database';
import { ephemeralEntry } from '../db/schema';
import type { Clock, EphemeralStore } from '../store/ephemeral-store';

/** Sessions ended by logout or refresh; checked on every authenticated request. */
export interface RevocationList {
  isRevoked(sid: string): Promise<boolean>;
  /** Ends a session until `untilMs` (after which its tokens have expired anyway). */
  revoke(sid: string, untilMs: number): Promise<void>;
  close(): Promise<void>;
}

const keyOf = (sid: string) => `revoked-session:${sid}`;

/** Every check asks the shared store (Redis answers in well under a millisecond). */
export function storeRevocationList(store: EphemeralStore, clock: Clock): RevocationList {
  return {
    async isRevoked(sid) {
      return (await store.get(keyOf(sid))) !== undefined;
    },
    async revoke(sid, untilMs) {
      const ttl = untilMs - clock.now();
      if (ttl > 0) await store.set(keyOf(sid), '1', ttl);
    },
    async close() {},
  };
}

/** Where a revocation is announced to every process (the live hub listens too, to end streams at once). */
export const REVOCATION_CHANNEL = 'mes_session_revoked';
const RECONNECT_MS = 1000;

/**
 * With PostgreSQL as the shared store, a table lookup on every request would cost a round trip.
 * Instead each process keeps the revoked sessions in memory: loaded at start, and kept current
 * by LISTEN/NOTIFY, so a logout on one process is refused by every other one at once. Rows stay
 * in the table, so a restart loses nothing. While the listening connection is down, checks fall
 * back to the table, and the list is reloaded after reconnecting, so no notification is missed.
 */
export async function postgresRevocationList(database: Database, url: string, clock: Clock): Promise<RevocationList> {
  const revoked = new Map<string, number>();
  let listener: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const remember = (sid: string, untilMs: number) => {
    if (untilMs > clock.now()) revoked.set(sid, untilMs);
  };

  const load = async () => {
    const rows = await database.db
      .select({ key: ephemeralEntry.key, expiresAt: ephemeralEntry.expiresAt })
      .from(ephemeralEntry)
      .where(and(like(ephemeralEntry.key, 'revoked-session:%'), gt(ephemeralEntry.expiresAt, new Date(clock.now()))));
    for (const r of rows) remember(r.key.slice('revoked-session:'.length), r.expiresAt.getTime());
  };

  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    const lost = () => {
      if (listener !== client) return;
      live = false;
      listener = undefined;
      client.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect().catch(lostConnect), RECONNECT_MS);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (msg) => {
      const [sid, until] = (msg.payload ?? '').split(' ');
      if (sid && until) remember(sid, Number(until));
    });
    await client.connect();
    listener = client;
    await client.query(`LISTEN ${REVOCATION_CHANNEL}`);
    await load(); // after LISTEN, so nothing revoked in between is missed
    live = true;
  };
  const lostConnect = () => {
    if (!closed) retry = setTimeout(() => void connect().catch(lostConnect), RECONNECT_MS);
  };

  await connect();

  return {
    async isRevoked(sid) {
      const until = revoked.get(sid);
      if (until !== undefined) {
        if (until > clock.now()) return true;
        revoked.delete(sid);
      }
      if (live) return false;
      const rows = await database.db
        .select({ key: ephemeralEntry.key })
        .from(ephemeralEntry)
        .where(and(sql`${ephemeralEntry.key} = ${keyOf(sid)}`, gt(ephemeralEntry.expiresAt, new Date(clock.now()))));
      return rows.length > 0;
    },
    async revoke(sid, untilMs) {
      if (untilMs <= clock.now()) return;
      remember(sid, untilMs);
      const expiresAt = new Date(untilMs);
      await database.db.transaction(async (tx) => {
        await tx
          .insert(ephemeralEntry)
          .values({ key: keyOf(sid), value: '1', expiresAt })
          .onConflictDoUpdate({ target: ephemeralEntry.key, set: { expiresAt } });
        await tx.execute(sql`select pg_notify(${REVOCATION_CHANNEL}, ${`${sid} ${untilMs}`})`);
      });
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
