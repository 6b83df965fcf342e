export interface BatchWriterOptions<T> {
  /** Named in warnings. */
  name: string;
  /** Writes one batch (one statement); a rejection drops that batch. */
  insert(rows: T[]): Promise<void>;
  /** Rows per insert; reaching it starts a flush at once. */
  maxBatch: number;
  /** Rows kept waiting at most; beyond it the oldest are dropped (and counted). */
  maxQueue: number;
  warn(message: string, error?: unknown): void;
}

/**
 * An in-memory queue of log rows written in multi-row inserts, off the request path: `push`
 * never waits and never throws. The queue is bounded, so a database that cannot keep up costs
 * log rows (counted in `dropped`), not memory or request time. The owner calls `flush` on a
 * timer and at shutdown.
 */
export class BatchWriter<T> {
  private queue: T[] = [];
  private pending: Promise<void> = Promise.resolve();
  private draining = false;
  /** Rows lost: dropped from a full queue, or in a batch whose insert failed. */
  dropped = 0;
  /** Rows written. */
  written = 0;

  constructor(private readonly options: BatchWriterOptions<T>) {}

  get queued(): number {
    return this.queue.length;
  }

  push(row: T): void {
    if (this.queue.length >= this.options.maxQueue) {
      this.queue.shift();
      this.dropped += 1;
    }
    this.queue.push(row);
    if (this.queue.length >= this.options.maxBatch && !this.draining) void this.write(this.options.maxBatch);
  }

  /** Writes everything queued so far; resolves when it is written (or dropped). Never rejects. */
  flush(): Promise<void> {
    return this.write(1);
  }

  /**
   * Writes batches while at least `least` rows wait. A full batch writes full batches only: rows
   * that arrive during an insert wait for the next full batch or the owner's timer. Draining
   * down to the last row instead kept a busy server writing batches of a dozen rows, each a
   * statement and a commit of its own (three times the database CPU per row of a full batch).
   */
  private write(least: number): Promise<void> {
    this.pending = this.pending.then(() => this.drain(least));
    return this.pending;
  }

  private async drain(least: number): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length >= least && this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch);
        try {
          await this.options.insert(batch);
          this.written += batch.length;
        } catch (error) {
          this.dropped += batch.length;
          this.options.warn(`${this.options.name}: dropped ${batch.length} log rows, insert failed`, error);
        }
      }
    } finally {
      this.draining = false;
    }
  }
}
