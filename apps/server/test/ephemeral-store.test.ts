import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createPostgresStore } from '../src/platform/store/postgres-store';
import { createRedisStore } from '../src/platform/store/redis-store';
import type { EphemeralStore } from '../src/platform/store/ephemeral-store';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The same behaviour from every backend; Redis runs when REDIS_URL names a real server. */
const backends: [string, () => EphemeralStore, boolean][] = [
  ['postgres', () => createPostgresStore(t.ctx.db, t.clock), true],
  [
    'redis',
    () => createRedisStore(process.env.REDIS_URL ?? '', `mes-test-${randomUUID()}:`),
    Boolean(process.env.REDIS_URL),
  ],
];

describe.each(backends)('%s store', (_name, make, enabled) => {
  let store: EphemeralStore;
  beforeAll(() => {
    if (enabled) store = make();
  });
  afterAll(async () => {
    if (enabled) await store.close();
  });

  it.runIf(enabled)('sets, gets, deletes', async () => {
    await store.set('a', '1', 60_000);
    expect(await store.get('a')).toBe('1');
    await store.set('a', '2', 60_000);
    expect(await store.get('a')).toBe('2');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });

  it.runIf(enabled)('take returns a value once', async () => {
    await store.set('code', 'abcd', 60_000);
    const results = await Promise.all([store.take('code'), store.take('code'), store.take('code')]);
    expect(results.filter((r) => r === 'abcd')).toHaveLength(1);
  });

  it.runIf(enabled)('counts atomically under concurrency', async () => {
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.increment('n', 60_000)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it.runIf(enabled)('expires entries', async () => {
    await store.set('short', 'x', 50);
    await store.increment('counter', 50);
    t.clock.advance(100);
    await new Promise((r) => setTimeout(r, 120)); // Redis expires on the wall clock
    expect(await store.get('short')).toBeUndefined();
    expect(await store.take('short')).toBeUndefined();
    expect(await store.increment('counter', 60_000)).toBe(1);
    await store.purgeExpired();
  });
});
