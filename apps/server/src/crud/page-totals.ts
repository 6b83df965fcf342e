import type { ChangeFeed } from '../platform/cache/change-feed';
import type { CacheRegistry } from '../platform/cache/cache-registry';
import { FeedCache } from '../platform/cache/feed-cache';
import { ALL_TENANTS, rowsTopic } from '../platform/cache/row-changes';
import { GRANTS_TOPIC } from '../platform/permissions/grants';

/** A safety net for writes made outside the resource routes; every route write invalidates at once. */
const MAX_AGE_MS = 5 * 60_000;

export { ALL_TENANTS, rowsTopic };

/**
 * Exact list totals kept per resource, tenant and filter. `count(*)` over a large table costs far
 * more than fetching a page; the count only changes when rows are written, and every write
 * through the resource routes publishes `rows:<code>:<tenant>`, which drops that tenant's
 * totals on every process. Totals are kept per role set too (data scopes), so a grant change
 * drops them all.
 */
export class PageTotals {
  private readonly cache: FeedCache<number>;

  constructor(feed: ChangeFeed, caches: CacheRegistry, now: () => number = Date.now) {
    this.cache = new FeedCache('page-totals', feed, caches, { maxAgeMs: MAX_AGE_MS, now, clearOn: [GRANTS_TOPIC] });
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
    await this.cache.changed(rowsTopic(code, tenantId));
    if (tenantId !== '*' && tenantId !== ALL_TENANTS) await this.cache.changed(rowsTopic(code, ALL_TENANTS));
  }
}
