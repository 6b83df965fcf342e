import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { bilingual, type BilingualText } from '@mes/contracts';
import { countRefusal } from '../metrics/metrics';
import { DEFAULT_FAIR_SHARES, type FairShareLimits } from '../config';
import { pgTransaction } from '../db/pg-transaction';
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

/** Serialises the count-then-insert of one kind and owner across processes (a key of its own). */
const SLOT_LOCK = 727004;

export interface SlotStore {
  pool: pg.Pool;
  /** This process (platform/cluster/process-registry.ts): whose slots a row holds, for the operator. */
  instanceId: string;
  warn(message: string, error?: unknown): void;
}

/**
 * The slots held by the whole cluster, in PostgreSQL (`mes_fair_share_slot`): every process shares
 * the database, while Redis is optional, so the limits hold across N processes with or without it,
 * and a slot is taken under a transaction lock, so concurrent takers on several processes cannot
 * all slip under the limit. A stream or an export takes one before any work starts and gives it
 * back when it ends. The holder renews its rows every third of `slotSeconds`; the rows of a
 * process that was killed (or cut off from the database) lapse within `slotSeconds`, and times
 * are the database's (`now()`), so the processes' clocks never have to agree.
 */
export class FairShares {
  readonly limits: FairShareLimits;
  /** The slots this process holds: renewed while held, re-inserted if they lapsed meanwhile. */
  private readonly held = new Map<string, { kind: SlotKind; owner: string }>();
  private readonly timer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly store: SlotStore,
    limits: Partial<FairShareLimits> = {},
  ) {
    this.limits = { ...DEFAULT_FAIR_SHARES, ...limits };
    this.timer = setInterval(() => void this.renew(), (this.limits.slotSeconds * 1000) / 3);
    this.timer.unref();
  }

  /** Takes a slot for `owner` (a user id or a tenant id), or throws the 429; answers its release (idempotent). */
  async take(kind: SlotKind, owner: string): Promise<() => Promise<void>> {
    const max = kind === 'live' ? this.limits.liveStreamsPerUser : this.limits.exportsPerTenant;
    const id = randomBytes(12).toString('hex');
    const taken = await pgTransaction(this.store.pool, async (client) => {
      await client.query('select pg_advisory_xact_lock($1, hashtext($2))', [SLOT_LOCK, `${kind}:${owner}`]);
      // Lapsed rows (a killed holder's) go as they are found; the count skips them either way.
      const { rows } = await client.query<{ n: number }>(
        `with lapsed as (delete from mes_fair_share_slot where kind = $1 and owner = $2 and expires_at < now())
         select count(*)::int as n from mes_fair_share_slot where kind = $1 and owner = $2 and expires_at >= now()`,
        [kind, owner],
      );
      if ((rows[0]?.n ?? 0) >= max) return false;
      await client.query(
        `insert into mes_fair_share_slot (id, kind, owner, instance_id, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
        [id, kind, owner, this.store.instanceId, this.limits.slotSeconds],
      );
      return true;
    });
    if (!taken) throw atLimit(kind, bilingual(kind === 'live' ? 'liveStreamsAtLimit' : 'exportsAtLimit', max));
    this.held.set(id, { kind, owner });
    let released: Promise<void> | undefined;
    // Answers once the row is gone: an export awaits it before its file goes out, so the client's
    // next export already finds its slot free.
    return () =>
      (released ??= (async () => {
        this.held.delete(id);
        // A delete that fails (the database away) leaves a row nobody renews: it lapses on its own.
        await this.store.pool
          .query('delete from mes_fair_share_slot where id = $1', [id])
          .then(() => undefined)
          .catch((error: unknown) => this.store.warn('fair shares: cannot give a slot back; it lapses', error));
      })());
  }

  /** How many slots this process holds now (all kinds). */
  get heldHere(): number {
    return this.held.size;
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    try {
      const slots = [...this.held];
      if (slots.length)
        // An upsert: a row that lapsed while the database was away counts again.
        await this.store.pool.query(
          `insert into mes_fair_share_slot (id, kind, owner, instance_id, expires_at)
           select s.id, s.kind, s.owner, $4, now() + make_interval(secs => $5)
             from unnest($1::text[], $2::text[], $3::text[]) as s(id, kind, owner)
           on conflict (id) do update set expires_at = excluded.expires_at`,
          [
            slots.map(([id]) => id),
            slots.map(([, s]) => s.kind),
            slots.map(([, s]) => s.owner),
            this.store.instanceId,
            this.limits.slotSeconds,
          ],
        );
      // Lapsed rows of owners nobody asks for again would otherwise stay.
      await this.store.pool.query('delete from mes_fair_share_slot where expires_at < now()');
    } catch (error) {
      this.store.warn('fair shares: cannot renew the slots held here', error);
    }
  }

  /** A clean stop: this process's slots are given back at once (the streams have ended by now). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.held.clear();
    await this.store.pool
      .query('delete from mes_fair_share_slot where instance_id = $1', [this.store.instanceId])
      .catch((error: unknown) => this.store.warn('fair shares: cannot give the slots back at stop', error));
  }
}
