import type { ChangeFeed } from '../platform/cache/change-feed';
import type { CacheRegistry } from '../platform/cache/cache-registry';
import { FeedCache } from '../platform/cache/feed-cache';
import { ALL_TENANTS, rowsTopic } from '../platform/cache/row-changes';
import { GRANTS_TOPIC } from '../platform/permissions/grants';
import { TotalsInvalidation, totalsTopics, type RowsByCode, type TotalsWriters } from './totals-invalidation';

/** A safety net for writes that announce nothing; route writes drop totals at once, batch writers within a second. */
const MAX_AGE_MS = 5 * 60_000;

export { ALL_TENANTS, rowsTopic };

/**
 * Exact list totals kept per resource, tenant and filter. `count(*)` over a large table costs far
 * more than fetching a page; the count only changes when rows are written, and every write
 * through the resource routes publishes `rows:<code>:<tenant>`, which drops that tenant's
 * totals on every process. Writers that work in batches outside the routes (ingestion) tell
 * `written`, which publishes the same topics at most once a second. Totals are kept per role
 * set too (data scopes), so a grant change drops them all.
 */
export class PageTotals implements TotalsWriters {
  private readonly cache: FeedCache<number>;
  private readonly batched: TotalsInvalidation;

  constructor(
    feed: ChangeFeed,
    caches: CacheRegistry,
    now: () => number = Date.now,
    warn?: (message: string, error?: unknown) => void,
  ) {
    this.cache = new FeedCache('page-totals', feed, caches, { maxAgeMs: MAX_AGE_MS, now, clearOn: [GRANTS_TOPIC] });
    this.batched = new TotalsInvalidation({ publish: (topic) => feed.publish(topic), ...(warn ? { warn } : {}) });
  }

  get(code: string, tenantId: string, filterKey: string, count: () => Promise<number>): Promise<number> {
    return this.cache.get(rowsTopic(code, tenantId), filterKey, count);
  }

  /**
   * Drops the totals of a resource and tenant after a write, and those of the list that spans
   * every tenant, which counts that tenant's rows too (writes made outside the engine, such as
   * a guest registration or a new tenant's accounts, land here as well).
   */
  async changed(code: string, tenantId: string): Promise<void> {
    for (const topic of totalsTopics(code, [tenantId])) await this.cache.changed(topic);
  }

  /**
   * The same for rows committed by a batch writer (ingestion, dead letters): noted at the cost of
   * a Set add per row, published within about a second (totals-invalidation.ts).
   */
  written(rows: RowsByCode): void {
    this.batched.written(rows);
  }

  /** Publishes what `written` still holds (the context's close, before the feed closes). */
  close(): Promise<void> {
    return this.batched.close();
  }
}
