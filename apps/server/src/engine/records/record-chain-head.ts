import { eq, sql } from 'drizzle-orm';
import { recordChainHead } from '../../platform/db/schema';
import { tenantRows, tenantScope, type Queryable } from '../../platform/tenancy/tenant-scope';
import { GENESIS_HASH } from './record-hash';

/** What a chain's head says about it (schema/record-chain-head.ts). */
export interface ChainHead {
  firstSeq: number;
  firstPrevHash: string;
  lastSeq: number;
  lastHash: string;
  rowCount: number;
  /** Positions above `firstSeq` the retention job removed, with the hash each row had. */
  removed: [number, string][];
  reanchoredAt: Date | null;
}

export interface TenantChainHead extends ChainHead {
  tenantId: string;
  chainKey: string;
}

/** The marker row of an adopted record table (no tenant or chain is ever empty). */
const ADOPTED = '';

const fields = {
  firstSeq: recordChainHead.firstSeq,
  firstPrevHash: recordChainHead.firstPrevHash,
  lastSeq: recordChainHead.lastSeq,
  lastHash: recordChainHead.lastHash,
  rowCount: recordChainHead.rowCount,
  removed: recordChainHead.removed,
  reanchoredAt: recordChainHead.reanchoredAt,
};

/**
 * The heads of one record table's chains. Every write happens in the caller's transaction, under
 * the chain's advisory lock (RecordChain), so a head moves with the rows it vouches for or not at all.
 */
export class ChainHeads {
  constructor(private readonly recordTable: string) {}

  private of(tenantId: string, chainKey: string) {
    return tenantRows(
      recordChainHead,
      tenantId,
      eq(recordChainHead.recordTable, this.recordTable),
      eq(recordChainHead.chainKey, chainKey),
    );
  }

  async read(tx: Queryable, tenantId: string, chainKey: string): Promise<ChainHead | undefined> {
    const [head] = await tx.select(fields).from(recordChainHead).where(this.of(tenantId, chainKey));
    return head;
  }

  /** The heads of a tenant's chains (or of one), by chain key. */
  async ofTenant(db: Queryable, tenantId: string, chainKey?: string): Promise<Map<string, ChainHead>> {
    const rows = await db
      .select({ chainKey: recordChainHead.chainKey, ...fields })
      .from(recordChainHead)
      .where(
        tenantRows(
          recordChainHead,
          tenantId,
          eq(recordChainHead.recordTable, this.recordTable),
          chainKey === undefined ? undefined : eq(recordChainHead.chainKey, chainKey),
        ),
      );
    return new Map(rows.filter((r) => r.chainKey !== ADOPTED).map(({ chainKey: key, ...head }) => [key, head]));
  }

  /** Whether this table's chains have been adopted (see `adopt`). */
  async adopted(db: Queryable): Promise<boolean> {
    const [marker] = await db
      .select({ at: recordChainHead.updatedAt })
      .from(recordChainHead)
      .where(this.of(ADOPTED, ADOPTED));
    return marker !== undefined;
  }

  /**
   * Writes the heads of the chains that existed before heads did, as their rows stand, and the
   * marker that says it is done: from then on a chain without a head is a broken chain.
   */
  async adopt(tx: Queryable, heads: readonly TenantChainHead[]): Promise<void> {
    const marker = { tenantId: ADOPTED, chainKey: ADOPTED, firstPrevHash: GENESIS_HASH, lastHash: GENESIS_HASH };
    const rows = [...heads, marker].map((head) => ({ recordTable: this.recordTable, ...head }));
    for (let i = 0; i < rows.length; i += 500)
      await tx
        .insert(recordChainHead)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing();
  }

  /** Sets up a head found missing from the rows left, marked so that `verify` reports it for good. */
  async reanchor(tx: Queryable, head: TenantChainHead, at: Date): Promise<void> {
    await tx
      .insert(recordChainHead)
      .values({ recordTable: this.recordTable, ...head, reanchoredAt: at })
      .onConflictDoNothing();
  }

  /** Moves the head onto the row just appended (a chain's first row creates it). */
  async appended(tx: Queryable, tenantId: string, chainKey: string, seq: number, hash: string): Promise<void> {
    await tx
      .insert(recordChainHead)
      .values({
        recordTable: this.recordTable,
        tenantId,
        chainKey,
        firstSeq: 1,
        firstPrevHash: GENESIS_HASH,
        lastSeq: seq,
        lastHash: hash,
        rowCount: 1,
      })
      .onConflictDoUpdate({
        target: [recordChainHead.recordTable, recordChainHead.tenantId, recordChainHead.chainKey],
        set: {
          lastSeq: seq,
          lastHash: hash,
          rowCount: sql`${recordChainHead.rowCount} + 1`,
          updatedAt: sql`now()`,
        },
      });
  }

  /**
   * Records rows the retention job removed: their positions and hashes join `removed`, and the
   * chain's start moves past every removed position it reaches, taking the hash of the last one
   * as the previous hash its new first row must carry.
   */
  async retired(
    tx: Queryable,
    tenantId: string,
    chainKey: string,
    rows: readonly { seq: number; hash: string }[],
  ): Promise<void> {
    const head = await this.read(tx, tenantId, chainKey);
    if (!head) return;
    const removed = new Map(head.removed);
    for (const row of rows) removed.set(row.seq, row.hash);
    let { firstSeq, firstPrevHash } = head;
    for (let hash = removed.get(firstSeq); hash !== undefined; hash = removed.get(firstSeq)) {
      removed.delete(firstSeq);
      firstPrevHash = hash;
      firstSeq += 1;
    }
    await tenantScope(tx, tenantId)
      .update(recordChainHead)
      .set({
        firstSeq,
        firstPrevHash,
        removed: [...removed].sort((a, b) => a[0] - b[0]),
        rowCount: head.rowCount - rows.length,
        updatedAt: sql`now()`,
      })
      .where(eq(recordChainHead.recordTable, this.recordTable), eq(recordChainHead.chainKey, chainKey));
  }
}
