import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { ephemeralEntry } from '../db/schema';
import type { Clock, EphemeralStore } from './ephemeral-store';

export function createPostgresStore(db: Db, clock: Clock): EphemeralStore {
  const live = (key: string) => and(eq(ephemeralEntry.key, key), gt(ephemeralEntry.expiresAt, new Date(clock.now())));
  return {
    async get(key) {
      const rows = await db.select({ value: ephemeralEntry.value }).from(ephemeralEntry).where(live(key));
      return rows[0]?.value;
    },
    async set(key, value, ttlMs) {
      const expiresAt = new Date(clock.now() + ttlMs);
      await db
        .insert(ephemeralEntry)
        .values({ key, value, expiresAt })
        .onConflictDoUpdate({ target: ephemeralEntry.key, set: { value, expiresAt } });
    },
    async take(key) {
      const rows = await db.delete(ephemeralEntry).where(eq(ephemeralEntry.key, key)).returning();
      const row = rows[0];
      return row && row.expiresAt.getTime() > clock.now() ? row.value : undefined;
    },
    async delete(key) {
      await db.delete(ephemeralEntry).where(eq(ephemeralEntry.key, key));
    },
    async increment(key, ttlMs) {
      const now = new Date(clock.now());
      const expiresAt = new Date(clock.now() + ttlMs);
      // An expired counter starts again from 1 with a fresh expiry.
      const rows = await db
        .insert(ephemeralEntry)
        .values({ key, value: '1', expiresAt })
        .onConflictDoUpdate({
          target: ephemeralEntry.key,
          set: {
            value: sql`CASE WHEN ${ephemeralEntry.expiresAt} > ${now} THEN (${ephemeralEntry.value}::int + 1)::text ELSE '1' END`,
            expiresAt: sql`CASE WHEN ${ephemeralEntry.expiresAt} > ${now} THEN ${ephemeralEntry.expiresAt} ELSE ${expiresAt} END`,
          },
        })
        .returning({ value: ephemeralEntry.value });
      return Number(rows[0]?.value ?? 1);
    },
    async purgeExpired() {
      await db.delete(ephemeralEntry).where(lte(ephemeralEntry.expiresAt, new Date(clock.now())));
    },
    async close() {},
  };
}
