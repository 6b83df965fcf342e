import type { CacheRegistry } from './cache-registry';
import { ALL_TOPICS, tenantOfTopic, type ChangeFeed } from './change-feed';

export interface FeedCacheOptions {
  /** Oldest entries are dropped beyond this many. */
  maxEntries?: number;
  /** A safety net for writes that publish nothing; every route write invalidates at once. */
  maxAgeMs?: number;
  now?: () => number;
  /** Topics that make every entry stale (for values that depend on grants, say). */
  clearOn?: readonly string[];
}

interface Entry<V> {
  topic: string;
  value: Promise<V>;
  at: number;
}

/**
 * Values read from the database, each filed under the change-feed topic whose notice makes it
 * stale (`rows:<resource>:<tenant>`, `grants`). A notice on any process drops the matching
 * entries; `rows:<resource>:*` drops every tenant's, `tenant:<id>` every entry of that tenant,
 * and `*` drops everything.
 *
 * The loading promise is stored at once, so concurrent readers share one query, and a notice
 * that arrives while the query runs drops it like any other entry: a value read before a write
 * committed is never kept after its notice. Nothing is kept while the feed is not listening.
 */
export class FeedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private readonly clearOn: ReadonlySet<string>;

  constructor(
    name: string,
    private readonly feed: ChangeFeed,
    caches: CacheRegistry,
    options: FeedCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 5000;
    this.maxAgeMs = options.maxAgeMs ?? Number.POSITIVE_INFINITY;
    this.now = options.now ?? Date.now;
    this.clearOn = new Set([ALL_TOPICS, ...(options.clearOn ?? [])]);
    feed.subscribe((topic) => this.drop(topic));
    caches.register(name, () => this.entries.clear());
  }

  get(topic: string, key: string, load: () => Promise<V>): Promise<V> {
    const id = `${topic}|${key}`;
    const hit = this.entries.get(id);
    if (hit && this.now() - hit.at < this.maxAgeMs) return hit.value;
    const value = load();
    if (this.feed.isLive()) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      const entry: Entry<V> = { topic, value, at: this.now() };
      this.entries.set(id, entry);
      // A failed read is not kept: the next reader tries again.
      value.catch(() => {
        if (this.entries.get(id) === entry) this.entries.delete(id);
      });
    }
    return value;
  }

  /** Tells every process that what is filed under `topic` changed. */
  changed(topic: string): Promise<void> {
    return this.feed.publish(topic);
  }

  private drop(topic: string): void {
    if (this.clearOn.has(topic)) return this.entries.clear();
    const tenant = tenantOfTopic(topic);
    if (tenant !== undefined) {
      for (const [id, entry] of this.entries) if (entry.topic.endsWith(`:${tenant}`)) this.entries.delete(id);
      return;
    }
    const prefix = topic.endsWith(':*') ? topic.slice(0, -1) : undefined;
    for (const [id, entry] of this.entries) {
      if (entry.topic === topic || (prefix !== undefined && entry.topic.startsWith(prefix))) this.entries.delete(id);
    }
  }
}
