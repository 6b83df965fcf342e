import { and, asc, eq, getTableColumns, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { RECORD_HASH_VERSION, type ChainReport, type RecordRules, type ResourceDef } from '@mes/contracts';
import { liveRows, tenantRows, type Queryable, type TenantOwnedTable } from '../../platform/tenancy/tenant-scope';
import { nextId } from '../../platform/db/ids';
import type { AnyResourceTable } from '../resource-access';
import { ChainHeads, type ChainHead, type TenantChainHead } from './record-chain-head';
import { ChainWalk } from './record-chain-walk';
import { GENESIS_HASH, hashedFields, recordHash, stateHash, type RecordRow } from './record-hash';

/** Where a new row goes in its chain. */
export interface ChainPosition {
  chainSeq: number;
  prevHash: string;
  hashVersion: number;
}

/** Broken chains listed in one reply; the count says how many there are in all. */
export const BROKEN_LISTED = 1000;

const VERIFY_BATCH = 1000;

/**
 * The hash chain of a record definition: each row holds the SHA-256 of its content and of the
 * previous row of its tenant and partition (`records.chainBy`). Appends to one chain are
 * serialised by a transaction-level advisory lock on (table, tenant, partition), so two writers
 * never take the same position; other chains are not held up. Each chain's head
 * (record-chain-head.ts), outside the rows, says where the chain starts and ends: positions are
 * taken from it and `verify` reads the rows against it.
 */
export class RecordChain {
  private readonly rules: RecordRules;
  private readonly cols: Record<string, PgColumn>;
  private readonly partitionColumn: PgColumn;
  private readonly fieldsByVersion = new Map<number, string[]>();
  private readonly heads: ChainHeads;
  /** Set once the table's adoption marker has been read back committed. */
  private adopted = false;

  constructor(
    readonly def: ResourceDef,
    private readonly table: AnyResourceTable,
  ) {
    if (!def.records || def.owner !== 'tenant' || !table.tenantId)
      throw new Error(`records: ${def.code} is not a tenant-owned record definition`);
    this.rules = def.records;
    this.cols = getTableColumns(table) as Record<string, PgColumn>;
    const partition = this.cols[this.rules.chainBy];
    if (!partition) throw new Error(`records: ${def.code}.${this.rules.chainBy} is not a column`);
    this.partitionColumn = partition;
    this.heads = new ChainHeads(def.table);
  }

  private fieldsOf(version: number): string[] {
    let fields = this.fieldsByVersion.get(version);
    if (!fields) this.fieldsByVersion.set(version, (fields = hashedFields(this.def, version)));
    return fields;
  }

  private lockKey(tenantId: string, partition: string) {
    return sql`select pg_advisory_xact_lock(hashtextextended(${`${this.def.table}:${tenantId}:${partition}`}, 0))`;
  }

  /**
   * The heads of the chains written before heads existed, once per table: each chain is taken as
   * its rows stand at that moment (the oldest row left is its start, as before heads), and a
   * marker says it is done. Runs in the caller's transaction under a lock of its own; the flag
   * is set only once the marker is read back, so a rolled-back adoption is done again.
   */
  async ensureAdopted(tx: Queryable): Promise<void> {
    if (this.adopted) return;
    if (await this.heads.adopted(tx)) {
      this.adopted = true;
      return;
    }
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${this.def.table}:adopt`}, 0))`);
    if (await this.heads.adopted(tx)) return;
    await this.heads.adopt(tx, await this.headsFromRows(tx));
  }

  /** The heads the rows of every chain (or one) imply, as they stand. */
  private async headsFromRows(tx: Queryable, tenantId?: string, partition?: string): Promise<TenantChainHead[]> {
    const seq = this.column('chainSeq');
    const prevHash = this.column('prevHash');
    const rowHash = this.column('rowHash');
    const only =
      tenantId === undefined || partition === undefined
        ? liveRows(this.table)
        : tenantRows(this.owned, tenantId, eq(this.partitionColumn, partition));
    // tenancy: every tenant's chains when adopting a table, one chain when re-anchoring it
    const rows = await tx
      .select({
        tenantId: this.owned.tenantId,
        chainKey: this.partitionColumn,
        firstSeq: sql<number>`min(${seq})::int`,
        firstPrevHash: sql<string>`(array_agg(${prevHash} order by ${seq}))[1]`,
        lastSeq: sql<number>`max(${seq})::int`,
        lastHash: sql<string>`(array_agg(${rowHash} order by ${seq} desc))[1]`,
        rowCount: sql<number>`count(*)::int`,
      })
      .from(this.table)
      .where(only)
      .groupBy(this.owned.tenantId, this.partitionColumn);
    return rows.map((r) => ({
      tenantId: String(r.tenantId),
      chainKey: String(r.chainKey),
      firstSeq: Number(r.firstSeq),
      firstPrevHash: String(r.firstPrevHash),
      lastSeq: Number(r.lastSeq),
      lastHash: String(r.lastHash),
      rowCount: Number(r.rowCount),
      removed: [],
      reanchoredAt: null,
    }));
  }

  private get owned(): TenantOwnedTable {
    return this.table as TenantOwnedTable;
  }

  /** A column of the record table (the record fields always exist: `defineRecordResource` adds them). */
  column(name: string): PgColumn {
    const column = this.cols[name];
    if (!column) throw new Error(`records: ${this.def.code} has no column ${name}`);
    return column;
  }

  /**
   * Takes the chain's lock (held until the transaction ends) and answers the position after the
   * last row its head records — never after the last row found: a deleted newest row leaves a
   * gap that `verify` reports, it is not refilled. A head found missing while rows are there (it
   * was deleted) is set up again from those rows, marked so that `verify` reports it for good.
   * Call it in the inserting transaction, before the insert.
   */
  async prepare(tx: Queryable, tenantId: string, partition: string): Promise<ChainPosition> {
    await this.ensureAdopted(tx);
    await tx.execute(this.lockKey(tenantId, partition));
    let head: ChainHead | undefined = await this.heads.read(tx, tenantId, partition);
    if (!head) {
      const [found] = await this.headsFromRows(tx, tenantId, partition);
      if (found) {
        await this.heads.reanchor(tx, found, new Date());
        head = found;
      }
    }
    return {
      chainSeq: (head?.lastSeq ?? 0) + 1,
      prevHash: head?.lastHash ?? GENESIS_HASH,
      hashVersion: RECORD_HASH_VERSION,
    };
  }

  /**
   * Hashes the row just inserted (read back, so the stored values are what is hashed), seals its
   * review state, and moves the chain's head onto it, in the inserting transaction.
   */
  async seal(tx: Queryable, tenantId: string, id: string): Promise<string> {
    const where = tenantRows(this.owned, tenantId, eq(this.table.id, id));
    const [row] = await tx.select(this.cols).from(this.table).where(where);
    if (!row) throw new Error(`records: ${this.def.code} row ${id} vanished before it was sealed`);
    const hash = recordHash(this.fieldsOf(Number(row.hashVersion)), row, String(row.prevHash));
    await tx
      .update(this.table)
      .set({ rowHash: hash, stateHash: stateHash({ ...row, rowHash: hash }) })
      .where(where);
    await this.heads.appended(tx, tenantId, String(row[this.rules.chainBy]), Number(row.chainSeq), hash);
    return hash;
  }

  /**
   * Seals the review and supersession state of rows the engine has just changed (review,
   * correction), as read back, in the changing transaction.
   */
  async restate(tx: Queryable, tenantId: string, ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    const rows = await tx
      .select(this.cols)
      .from(this.table)
      .where(tenantRows(this.owned, tenantId, inArray(this.table.id, [...ids])));
    for (const row of rows)
      await tx
        .update(this.table)
        .set({ stateHash: stateHash(row) })
        .where(tenantRows(this.owned, tenantId, eq(this.table.id, String(row.id))));
  }

  /**
   * Records rows the retention job has just removed from one chain in the chain's head, under
   * the chain's lock, in the removing transaction.
   */
  async retired(
    tx: Queryable,
    tenantId: string,
    partition: string,
    rows: readonly { seq: number; hash: string }[],
  ): Promise<void> {
    await tx.execute(this.lockKey(tenantId, partition));
    await this.heads.retired(tx, tenantId, partition, rows);
  }

  /**
   * Inserts a record written by the system (no request, no operator): position, insert and
   * hash in the caller's transaction. Answers the new row's id.
   */
  async append(tx: Queryable, tenantId: string, values: RecordRow): Promise<string> {
    const partition = values[this.rules.chainBy];
    if (typeof partition !== 'string' || !partition) throw new Error(`records: ${this.def.code} row has no chain key`);
    const position = await this.prepare(tx, tenantId, partition);
    const id = nextId();
    await tx.insert(this.table).values({ ...values, ...position, id, tenantId });
    await this.seal(tx, tenantId, id);
    return id;
  }

  /**
   * Recomputes every chain of the tenant (or one partition) in chain order against its head
   * (record-chain-walk.ts) and names the first fault of every broken chain: a row missing at the
   * start, in the middle or at the end, content or review state changed since it was hashed, a
   * row the head does not record, a chain without a head. Chains whose rows are all gone are
   * found from their heads.
   */
  async verify(db: Queryable, tenantId: string, scope?: SQL, partition?: string): Promise<ChainReport> {
    await db.transaction((tx) => this.ensureAdopted(tx));
    const heads = await this.heads.ofTenant(db, tenantId, partition);
    const seq = this.column('chainSeq');
    const base = and(
      tenantRows(this.owned, tenantId, partition === undefined ? undefined : eq(this.partitionColumn, partition)),
      scope,
    );
    const report: ChainReport = { checked: 0, chains: 0, broken: null, brokenChains: [], brokenCount: 0 };
    const fieldsOf = (version: number) => this.fieldsOf(version);
    const close = (key: string, walk: ChainWalk) => {
      const fault = walk.finish();
      if (!fault) return;
      const link = { ...fault, partition: key };
      report.broken ??= link;
      report.brokenCount += 1;
      if (report.brokenChains.length < BROKEN_LISTED) report.brokenChains.push(link);
    };
    let current: { key: string; walk: ChainWalk } | undefined;
    let after: { partition: string; seq: number } | undefined;
    for (;;) {
      const keyset = after
        ? or(
            gt(this.partitionColumn, after.partition),
            and(eq(this.partitionColumn, after.partition), gt(seq, after.seq)),
          )
        : undefined;
      const rows = await db
        .select(this.cols)
        .from(this.table)
        .where(and(base, keyset))
        .orderBy(asc(this.partitionColumn), asc(seq))
        .limit(VERIFY_BATCH);
      for (const row of rows) {
        const key = String(row[this.rules.chainBy]);
        if (current?.key !== key) {
          if (current) close(current.key, current.walk);
          current = { key, walk: new ChainWalk(heads.get(key), fieldsOf) };
          heads.delete(key);
          report.chains += 1;
        }
        current.walk.step(row);
        report.checked += 1;
      }
      const last = rows.at(-1);
      if (!last || rows.length < VERIFY_BATCH) break;
      after = { partition: String(last[this.rules.chainBy]), seq: Number(last.chainSeq) };
    }
    if (current) close(current.key, current.walk);
    // Heads whose chains have no row left: all removed by the retention job, or deleted.
    const emptied = [...heads].filter(([, head]) => new ChainWalk(head, fieldsOf).expectsRows);
    for (const [key, head] of emptied.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      report.chains += 1;
      close(key, new ChainWalk(head, fieldsOf));
    }
    return report;
  }
}
