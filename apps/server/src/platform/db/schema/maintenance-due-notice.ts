import { pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { bigintId, timestampColumn } from '../columns';

/**
 * The due notices sent (modules/maintenance/due-notices.ts): one row per device, plan and due
 * period (`periodFrom`: the end of the maintenance the period counts from, or the device's
 * creation), so each period gets its notice once, whichever process runs the job.
 */
export const maintenanceDueNotice = pgTable(
  'mes_maintenance_due_notice',
  {
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    deviceId: bigintId('device_id').notNull(),
    planId: bigintId('plan_id').notNull(),
    periodFrom: timestampColumn('period_from').notNull(),
    noticeId: bigintId('notice_id').notNull(),
    createTime: timestampColumn('create_time').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.deviceId, t.planId, t.periodFrom] })],
);
