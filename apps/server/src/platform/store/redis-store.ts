import { Redis } from 'ioredis';
import type { EphemeralStore } from './ephemeral-store';

/** Redis keeps the expiry itself, so this store follows the wall clock, not an injected one. */
export function createRedisStore(url: string, prefix = 'mes:'): EphemeralStore {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const k = (key: string) => prefix + key;
  return {
    async get(key) {
      return (await redis.get(k(key))) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await redis.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    async take(key) {
      return (await redis.getdel(k(key))) ?? undefined;
    },
    async delete(key) {
      await redis.del(k(key));
    },
    async increment(key, ttlMs) {
      const [[, count]] = (await redis
        .multi()
        .incr(k(key))
        .pexpire(k(key), Math.max(1, Math.ceil(ttlMs)), 'NX')
        .exec()) as [[Error | null, number], [Error | null, number]];
      return count;
    },
    async purgeExpired() {},
    async close() {
      await redis.quit();
    },
  };
}
