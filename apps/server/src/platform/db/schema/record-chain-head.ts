import { integer, jsonb, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { timestampColumn } from '../columns';

/**
 * The anchor of each record chain (docs/records.md "The chain head"), kept apart from the rows it
 * vouches for: where the chain starts (`firstSeq`, and the previous hash its first row must carry),
 * where it ends (`lastSeq`, `lastHash`), how many rows it holds, and the positions the retention
 * job removed above its start (`removed`: `[seq, rowHash]` pairs). Advanced in the transaction
 * that appends a row (under the chain's lock) and by the retention job; never rebuilt from the
 * rows (a head found missing is set up again from the rows left only with `reanchoredAt`, which
 * `verify` reports for good). A row with an empty `tenantId` and `chainKey` marks a record table whose chains have
 * been adopted: after it, a chain without a head is a broken chain.
 */
export const recordChainHead = pgTable(
  'mes_record_chain_head',
  {
    recordTable: varchar('record_table', { length: 64 }).notNull(),
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    chainKey: varchar('chain_key', { length: 128 }).notNull(),
    firstSeq: integer('first_seq').notNull().default(1),
    firstPrevHash: varchar('first_prev_hash', { length: 64 }).notNull(),
    lastSeq: integer('last_seq').notNull().default(0),
    lastHash: varchar('last_hash', { length: 64 }).notNull(),
    rowCount: integer('row_count').notNull().default(0),
    removed: jsonb('removed').$type<[number, string][]>().notNull().default([]),
    /** When a head found missing was set up again from the rows left: the chain stays broken. */
    reanchoredAt: timestampColumn('reanchored_at'),
    updatedAt: timestampColumn('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.recordTable, t.tenantId, t.chainKey] })],
);
