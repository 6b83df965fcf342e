import { and, gt, like, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { openListenConnection } from '../db/listen-connection';
import type { Warn } from '../db/throttled-warning';
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

/**
 * With PostgreSQL as the shared store, a table lookup on every request would cost a round trip.
 * Instead each process keeps the revoked sessions in memory: loaded at start, and kept current
 * by LISTEN/NOTIFY, so a logout on one process is refused by every other one at once. Rows stay
 * in the table, so a restart loses nothing. While the listening connection is down, checks fall
 * back to the table, and the list is reloaded after reconnecting, so no notification is missed.
 */
export async function postgresRevocationList(
  database: Database,
  url: string,
  clock: Clock,
  warn?: Warn,
): Promise<RevocationList> {
  const revoked = new Map<string, number>();

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

  // Loaded after every LISTEN (the first and each reconnection), so nothing revoked while the
  // connection was down, or in between, is missed.
  const listener = await openListenConnection({
    url,
    channels: [REVOCATION_CHANNEL],
    applicationName: 'mes-revocations',
    onNotification: (msg) => {
      const [sid, until] = (msg.payload ?? '').split(' ');
      if (sid && until) remember(sid, Number(until));
    },
    onUp: load,
    warn,
  });

  return {
    async isRevoked(sid) {
      const until = revoked.get(sid);
      if (until !== undefined) {
        if (until > clock.now()) return true;
        revoked.delete(sid);
      }
      if (listener.isUp()) return false;
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
    close: () => listener.close(),
  };
}
