import { and, asc, desc, eq, getTableColumns, gt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { RecordRules, ResourceDef } from '@mes/contracts';
import { tenantRows, type Queryable, type TenantOwnedTable } from '../../platform/tenancy/tenant-scope';
import { nextId } from '../../platform/db/ids';
import type { AnyResourceTable } from '../resource-access';
import { GENESIS_HASH, hashedFields, recordHash, type RecordRow } from './record-hash';

/** Where a new row goes in its chain. */
export interface ChainPosition {
  chainSeq: number;
  prevHash: string;
}

/** The first row whose hash or link does not hold, as `verify` reports it. */
export interface BrokenLink {
  id: string;
  partition: string;
  chainSeq: number;
  reason: string;
}

export interface ChainReport {
  /** Rows checked. */
  checked: number;
  /** Chains (partitions) checked. */
  chains: number;
  broken: BrokenLink | null;
}

const VERIFY_BATCH = 1000;

/**
 * The hash chain of a record definition: each row holds the SHA-256 of its content and of the
 * previous row of its tenant and partition (`records.chainBy`). Appends to one chain are
 * serialised by a transaction-level advisory lock on (table, tenant, partition), so two writers
 * never take the same position; other chains are not held up.
 */
export class RecordChain {
  private readonly rules: RecordRules;
  private readonly cols: Record<string, PgColumn>;
  private readonly partitionColumn: PgColumn;
  private readonly fields: string[];

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
    this.fields = hashedFields(def);
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
   * Takes the chain's lock (held until the transaction ends) and answers the position after its
   * last row. Call it in the inserting transaction, before the insert.
   */
  async prepare(tx: Queryable, tenantId: string, partition: string): Promise<ChainPosition> {
    const key = `${this.def.table}:${tenantId}:${partition}`;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
    const seq = this.column('chainSeq');
    const [last] = await tx
      .select({ seq, hash: this.column('rowHash') })
      .from(this.table)
      .where(tenantRows(this.owned, tenantId, eq(this.partitionColumn, partition)))
      .orderBy(desc(seq))
      .limit(1);
    return {
      chainSeq: Number(last?.seq ?? 0) + 1,
      prevHash: typeof last?.hash === 'string' ? last.hash : GENESIS_HASH,
    };
  }

  /** Hashes the row just inserted (read back, so the stored values are what is hashed). */
  async seal(tx: Queryable, tenantId: string, id: string): Promise<string> {
    const where = tenantRows(this.owned, tenantId, eq(this.table.id, id));
    const [row] = await tx.select(this.cols).from(this.table).where(where);
    if (!row) throw new Error(`records: ${this.def.code} row ${id} vanished before it was sealed`);
    const hash = recordHash(this.fields, row, String(row.prevHash));
    await tx.update(this.table).set({ rowHash: hash }).where(where);
    return hash;
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
   * Recomputes every chain of the tenant (or one partition) in chain order and names the first
   * row that does not hold: content changed since it was hashed, a link to a previous row that
   * is not there, or a gap in the numbering. The oldest row left of a chain whose head the
   * retention job removed is taken as its start.
   */
  async verify(db: Queryable, tenantId: string, scope?: SQL, partition?: string): Promise<ChainReport> {
    const seq = this.column('chainSeq');
    const base = and(
      tenantRows(this.owned, tenantId, partition === undefined ? undefined : eq(this.partitionColumn, partition)),
      scope,
    );
    let checked = 0;
    let chains = 0;
    let prev: RecordRow | undefined;
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
        const samePartition = prev !== undefined && prev[this.rules.chainBy] === row[this.rules.chainBy];
        if (!samePartition) chains += 1;
        const problem = this.problemOf(row, samePartition ? prev : undefined);
        checked += 1;
        if (problem)
          return {
            checked,
            chains,
            broken: {
              id: String(row.id),
              partition: String(row[this.rules.chainBy]),
              chainSeq: Number(row.chainSeq),
              reason: problem,
            },
          };
        prev = row;
      }
      const last = rows.at(-1);
      if (!last || rows.length < VERIFY_BATCH) return { checked, chains, broken: null };
      after = { partition: String(last[this.rules.chainBy]), seq: Number(last.chainSeq) };
    }
  }

  private problemOf(row: RecordRow, prev: RecordRow | undefined): string | undefined {
    const seq = Number(row.chainSeq);
    const prevHash = String(row.prevHash);
    if (prev) {
      if (seq !== Number(prev.chainSeq) + 1) return `链序号不连续: 第 ${Number(prev.chainSeq) + 1} 条缺失`;
      if (prevHash !== prev.rowHash) return '与前一条记录的哈希不符(前一条记录被改动)';
    } else if (seq === 1 && prevHash !== GENESIS_HASH) {
      return '链首记录的前一哈希不符';
    }
    if (recordHash(this.fields, row, prevHash) !== row.rowHash) return '记录内容与其哈希不符(记录被改动)';
    return undefined;
  }
}
