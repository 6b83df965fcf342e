import { pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { bigintId, timestampColumn } from '../columns';

/** Who has read which notice (`blade_notice`): a row per reader, written by `notice/read` and the detail. */
export const noticeRead = pgTable(
  'blade_notice_read',
  {
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    noticeId: bigintId('notice_id').notNull(),
    userId: bigintId('user_id').notNull(),
    readAt: timestampColumn('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.noticeId] })],
);
