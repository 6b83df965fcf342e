import { describe, expect, it } from 'vitest';
import { CacheRegistry } from './cache-registry';
import { tenantTopic, type ChangeFeed } from './change-feed';
import { FeedCache } from './feed-cache';

/** An in-process feed: publishing calls the listeners at once, as the real one does locally. */
function localFeed(live = true) {
  const listeners: ((topic: string) => void)[] = [];
  const feed: ChangeFeed & { live: boolean } = {
    live,
    async publish(topic) {
      for (const l of listeners) l(topic);
    },
    subscribe: (l) => void listeners.push(l),
    isLive: () => feed.live,
    close: async () => undefined,
  };
  return feed;
}

function counting(feed = localFeed(), options = {}) {
  const caches = new CacheRegistry();
  const cache = new FeedCache<number>('test', feed, caches, options);
  let loads = 0;
  const load = (value: number) => () => {
    loads++;
    return Promise.resolve(value);
  };
  return { cache, caches, feed, load, loads: () => loads };
}

describe('FeedCache', () => {
  it('shares one load between concurrent readers and keeps the value', async () => {
    const { cache, load, loads } = counting();
    const [a, b] = await Promise.all([cache.get('rows:role:1', 'k', load(1)), cache.get('rows:role:1', 'k', load(2))]);
    expect([a, b, await cache.get('rows:role:1', 'k', load(3))]).toEqual([1, 1, 1]);
    expect(loads()).toBe(1);
  });

  it('drops every entry of one tenant for `tenant:<id>` and keeps the other tenants and shared rows', async () => {
    const { cache, feed, load } = counting();
    await cache.get('rows:role:100001', 'k', load(1));
    await cache.get('rows:dept:100001', 'k', load(2));
    await cache.get('rows:role:100002', 'k', load(3));
    await cache.get('rows:dict:*', 'k', load(4));
    await feed.publish(tenantTopic('100001'));
    const now = await Promise.all([
      cache.get('rows:role:100001', 'k', load(-1)),
      cache.get('rows:dept:100001', 'k', load(-2)),
      cache.get('rows:role:100002', 'k', load(-3)),
      cache.get('rows:dict:*', 'k', load(-4)),
    ]);
    expect(now).toEqual([-1, -2, 3, 4]);
  });

  it('drops what is filed under a topic, every tenant for `:*`, everything for `*` and clearOn', async () => {
    const { cache, feed, load } = counting(localFeed(), { clearOn: ['grants'] });
    const fill = async () => {
      await cache.get('rows:role:1', 'k', load(1));
      await cache.get('rows:role:2', 'k', load(2));
      await cache.get('rows:dept:1', 'k', load(3));
    };
    const cached = async () =>
      Promise.all([
        cache.get('rows:role:1', 'k', load(-1)),
        cache.get('rows:role:2', 'k', load(-2)),
        cache.get('rows:dept:1', 'k', load(-3)),
      ]);
    await fill();
    await feed.publish('rows:role:1');
    expect(await cached()).toEqual([-1, 2, 3]);
    await fill();
    await feed.publish('rows:role:*');
    expect(await cached()).toEqual([-1, -2, 3]);
    for (const topic of ['*', 'grants']) {
      const fresh = counting(localFeed(), { clearOn: ['grants'] });
      await fresh.cache.get('rows:dept:1', 'k', fresh.load(3));
      await fresh.feed.publish(topic);
      expect(await fresh.cache.get('rows:dept:1', 'k', fresh.load(-3))).toBe(-3);
    }
  });

  it('does not keep a value whose notice arrived while it was being read', async () => {
    const { cache, feed } = counting();
    let finish: (v: number) => void = () => undefined;
    const slow = cache.get('rows:role:1', 'k', () => new Promise<number>((resolve) => (finish = resolve)));
    await feed.publish('rows:role:1');
    finish(1);
    expect(await slow).toBe(1);
    expect(await cache.get('rows:role:1', 'k', () => Promise.resolve(2))).toBe(2);
  });

  it('keeps nothing while the feed is not listening, nor a failed read', async () => {
    const { cache, feed, load } = counting(localFeed(false));
    await cache.get('t', 'k', load(1));
    expect(await cache.get('t', 'k', load(2))).toBe(2);
    feed.live = true;
    await expect(cache.get('t', 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('t', 'k', load(3))).toBe(3);
  });

  it('expires entries after maxAgeMs and empties on clear-cache', async () => {
    let now = 0;
    const { cache, caches, load } = counting(localFeed(), { maxAgeMs: 1000, now: () => now });
    await cache.get('t', 'k', load(1));
    now = 999;
    expect(await cache.get('t', 'k', load(2))).toBe(1);
    now = 1000;
    expect(await cache.get('t', 'k', load(3))).toBe(3);
    await caches.clearAll();
    expect(await cache.get('t', 'k', load(4))).toBe(4);
  });
});
