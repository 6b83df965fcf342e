import { ALL_TENANTS, rowsTopic } from '../platform/cache/row-changes';

/** How often, at most, the totals of one resource and tenant are dropped for writers that batch. */
export const TOTALS_INTERVAL_MS = 1000;

/**
 * The change-feed topics that drop the totals of `code` for these tenants: each tenant's, and
 * once the list that spans every tenant, which counts their rows too (`*` already reaches it).
 */
export function totalsTopics(code: string, tenantIds: Iterable<string>): string[] {
  const topics: string[] = [];
  let spanning = false;
  for (const tenantId of tenantIds) {
    topics.push(rowsTopic(code, tenantId));
    if (tenantId !== '*' && tenantId !== ALL_TENANTS) spanning = true;
  }
  if (spanning) topics.push(rowsTopic(code, ALL_TENANTS));
  return topics;
}

/** Rows written, by resource code; only their tenants are read. */
export type RowsByCode = Readonly<Record<string, Iterable<{ readonly tenantId: string }>>>;

/** What a writer outside the resource routes calls once its rows are committed (`PageTotals.written`). */
export interface TotalsWriters {
  written(rows: RowsByCode): void;
}

export interface TotalsInvalidationOptions {
  /** Tells every process that a topic changed (the change feed's `publish`). */
  publish(topic: string): Promise<void>;
  warn?(message: string, error?: unknown): void;
  intervalMs?: number;
  now?: () => number;
}

/**
 * Drops the list totals of rows written outside the resource routes — ingestion's series, the
 * message log, dead letters — without a notification per message. A write only notes its
 * (resource, tenant) pairs, a Set add each; the pairs noted are published together, each once,
 * at most once per interval: at once after a quiet interval, else when the interval is over. So
 * a total lags its rows by at most about the interval, and a busy ingestion costs a handful of
 * notifications a second whatever its rate. A publish that fails is tried again with the next
 * round (nothing is lost while the database is briefly away); `close` publishes what is pending.
 *
 * Call it after the commit: a count read between a publish and the commit would be kept.
 */
export class TotalsInvalidation implements TotalsWriters {
  private pending = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | undefined;
  private lastRound = Number.NEGATIVE_INFINITY;
  private rounds = new Set<Promise<void>>();
  private closed = false;
  private failing = false;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(private readonly options: TotalsInvalidationOptions) {
    this.intervalMs = options.intervalMs ?? TOTALS_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  /** Notes one resource and tenant whose rows changed. */
  changed(code: string, tenantId: string): void {
    if (this.closed) return;
    this.tenantsOf(code).add(tenantId);
    this.schedule();
  }

  /** Notes the tenants of every row written, by resource code. */
  written(rows: RowsByCode): void {
    if (this.closed) return;
    for (const [code, list] of Object.entries(rows)) {
      let tenants: Set<string> | undefined;
      let last: string | undefined;
      // A batch is mostly one tenant's rows: a comparison skips the hashing.
      for (const row of list) {
        if (row.tenantId === last) continue;
        last = row.tenantId;
        (tenants ??= this.tenantsOf(code)).add(last);
      }
    }
    if (this.pending.size) this.schedule();
  }

  /** Publishes what is pending now, and waits for every round under way. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size) this.round();
    await Promise.all([...this.rounds]);
  }

  /** Publishes what is pending; later notes are ignored (the feed is closing). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private tenantsOf(code: string): Set<string> {
    let tenants = this.pending.get(code);
    if (!tenants) {
      tenants = new Set();
      this.pending.set(code, tenants);
    }
    return tenants;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastRound + this.intervalMs - this.now());
    // Even with no wait, the round runs after the current task: a batch's notes go out together.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.round();
    }, wait);
    this.timer.unref();
  }

  private round(): void {
    this.lastRound = this.now();
    const due = this.pending;
    this.pending = new Map();
    const run = this.publish(due).finally(() => this.rounds.delete(run));
    this.rounds.add(run);
  }

  /**
   * One topic at a time: the feed's NOTIFY takes a pooled connection, which ingestion needs too,
   * above all while the database comes back. The first failure ends the round; what it had not
   * sent goes back to the pending pairs for the next one.
   */
  private async publish(due: Map<string, Set<string>>): Promise<void> {
    const entries = [...due];
    for (const [k, [code, tenants]] of entries.entries()) {
      try {
        // A tenant set is sent again whole after a failure: a topic sent twice costs nothing.
        for (const topic of totalsTopics(code, tenants)) await this.options.publish(topic);
      } catch (error) {
        if (!this.failing) this.options.warn?.('list totals: a change could not be announced; retried', error);
        this.failing = true;
        if (this.closed) return;
        for (const [left, leftTenants] of entries.slice(k)) for (const t of leftTenants) this.tenantsOf(left).add(t);
        this.schedule();
        return;
      }
    }
    this.failing = false;
  }
}
