import type { ChangeFeed } from '../platform/cache/change-feed';
import type { CacheRegistry } from '../platform/cache/cache-registry';
import { GRANTS_TOPIC } from '../platform/permissions/grants';

const MAX_ENTRIES = 5000;
/** A safety net for writes made outside the resource routes; every route write invalidates at once. */
const MAX_AGE_MS = 5 * 60_000;

interface Entry {
  total: number;
  at: number;
}

export const rowsTopic = (code: string, tenantId: string) => `rows:${code}:${tenantId}`;

/**
 * Exact list totals kept per resource, tenant and filter. `count(*)` over a large table costs far
 * more than fetching a page; the count only changes when rows are written, and every write
 * through the resource routes publishes `rows:<code>:<tenant>`, which drops that tenant's
 * totals on every process.
 */
export class PageTotals {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every change, so a count that raced a write is not kept. */
  private generation = 0;

  constructor(
    private readonly feed: ChangeFeed,
    caches: CacheRegistry,
    private readonly now: () => number = Date.now,
  ) {
    feed.subscribe((topic) => this.drop(topic));
    caches.register('page-totals', () => this.entries.clear());
  }

  async get(code: string, tenantId: string, filterKey: string, count: () => Promise<number>): Promise<number> {
    const key = `${rowsTopic(code, tenantId)}|${filterKey}`;
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < MAX_AGE_MS) return hit.total;
    const live = this.feed.isLive();
    const at = this.now();
    const generation = this.generation;
    const total = await count();
    if (live && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { total, at });
    }
    return total;
  }

  /** Drops the totals of a resource and tenant after a write. */
  changed(code: string, tenantId: string): Promise<void> {
    return this.feed.publish(rowsTopic(code, tenantId));
  }

  private drop(topic: string): void {
    if (topic !== '*' && topic !== GRANTS_TOPIC && !topic.startsWith('rows:')) return;
    this.generation++;
    // Totals are kept per role set; a changed grant or data scope changes what a role counts.
    if (topic === '*' || topic === GRANTS_TOPIC) return this.entries.clear();
    const prefix = `${topic}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
