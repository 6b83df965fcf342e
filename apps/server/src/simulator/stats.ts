/** Counters of a run, shared by every simulated device; `summary` turns two snapshots into the 5-second line. */
export class SimStats {
  connected = 0;
  published = 0;
  acked = 0;
  /** Reports skipped because the device's QoS-1 window was full (the console is behind). */
  skipped = 0;
  /** Messages in flight when a connection dropped (never acknowledged; clean session). */
  lost = 0;
  cycles = 0;
  faults = 0;
  disconnects = 0;
  reconnects = 0;
  errors = 0;
  lastError = '';

  error(message: string): void {
    this.errors += 1;
    this.lastError = message;
  }

  snapshot(): StatsSnapshot {
    return { at: Date.now(), published: this.published, acked: this.acked };
  }

  /** One line: connected devices, messages/s and acks/s since `since`, and the running totals. */
  summary(since: StatsSnapshot, total: number): string {
    const now = this.snapshot();
    const seconds = Math.max((now.at - since.at) / 1000, 0.001);
    const rate = (n: number) => Math.round(n / seconds);
    const parts = [
      `${this.connected}/${total} connected`,
      `${rate(now.published - since.published)} msg/s`,
      `${rate(now.acked - since.acked)} acks/s`,
      `in flight ${this.published - this.acked - this.lost}`,
      `cycles ${this.cycles} (faults ${this.faults})`,
      `disconnects ${this.disconnects}`,
      `skipped ${this.skipped}`,
      `errors ${this.errors}${this.errors ? ` (last: ${this.lastError})` : ''}`,
    ];
    return parts.join(' · ');
  }
}

export interface StatsSnapshot {
  at: number;
  published: number;
  acked: number;
}
