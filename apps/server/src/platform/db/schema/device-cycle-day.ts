import { bigint, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { bigintId, calendarDay } from '../columns';

/**
 * Finished cycles counted per tenant, calendar day (Asia/Shanghai, the product's time zone) and
 * device, added to by ingestion in the transaction that stores the cycles (`mes_device_cycle`).
 * The welcome page's cycle figures and charts and the disinfection ledger read these few rows
 * instead of scanning a year of cycles.
 */
export const deviceCycleDay = pgTable(
  'mes_device_cycle_day',
  {
    tenantId: varchar('tenant_id', { length: 12 }).notNull(),
    day: calendarDay('day').notNull(),
    deviceCode: varchar('device_code', { length: 64 }).notNull(),
    deviceId: bigintId('device_id'),
    deptId: bigintId('dept_id'),
    cycles: integer('cycles').notNull().default(0),
    passes: integer('passes').notNull().default(0),
    fails: integer('fails').notNull().default(0),
    aborts: integer('aborts').notNull().default(0),
    seconds: bigint('seconds', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.deviceCode] })],
);
