import { bilingual, type BilingualText } from '@mes/contracts';
import { countRefusal } from '../metrics/metrics';
import { DEFAULT_FAIR_SHARES, type FairShareLimits } from '../config';
import { HttpError } from './errors';

/**
 * Fair shares between users and tenants (docs/operations.md "Fair shares"): how much of the server
 * one user or tenant may hold at once, so that one of them cannot slow the others down. The limits
 * are settings (`LIVE_STREAMS_PER_USER`, `EXPORTS_PER_TENANT`, `REPORTS_PER_TENANT`: platform/config.ts).
 */
const TOO_MANY = 429;

/** The 429 of a limit reached, in the caller's language; counted on /metrics by kind. */
export function atLimit(kind: 'live' | 'export' | 'report', text: BilingualText): HttpError {
  countRefusal(kind);
  return new HttpError(TOO_MANY, text);
}

type SlotKind = 'live' | 'export';

/**
 * The slots held in this process: a stream or an export takes one before any work starts and gives
 * it back when it ends. A long-lived connection belongs to one process, so the count is the
 * process's (N processes behind a balancer allow up to N times the limit; docs/operations.md).
 */
export class FairShares {
  readonly limits: FairShareLimits;
  private readonly held = new Map<string, number>();

  constructor(limits: Partial<FairShareLimits> = {}) {
    this.limits = { ...DEFAULT_FAIR_SHARES, ...limits };
  }

  /** Takes a slot for `owner` (a user id or a tenant id), or throws the 429; returns its release (once). */
  take(kind: SlotKind, owner: string): () => void {
    const key = `${kind}:${owner}`;
    const now = this.held.get(key) ?? 0;
    const max = kind === 'live' ? this.limits.liveStreamsPerUser : this.limits.exportsPerTenant;
    if (now >= max) {
      throw atLimit(kind, bilingual(kind === 'live' ? 'liveStreamsAtLimit' : 'exportsAtLimit', max));
    }
    this.held.set(key, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}
