import { customType, integer, timestamp, varchar } from 'drizzle-orm/pg-core';
import { DEFAULT_TENANT_ID } from '@mes/contracts';
import { dayText } from './day-text';

/**
 * A 64-bit id kept as a decimal string in JavaScript: ids travel as strings in the contract,
 * and JavaScript numbers lose precision above 2^53.
 */
export const bigintId = customType<{ data: string; driverData: string }>({
  dataType: () => 'bigint',
});

/** The primary key of every table. */
export const idColumn = () => bigintId('id').primaryKey();

/** `tenant_id` of a tenant-owned row. */
export const tenantColumn = () => varchar('tenant_id', { length: 12 }).notNull().default(DEFAULT_TENANT_ID);

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

/** The BladeX audit columns, soft delete and status. */
export const auditColumns = () => ({
  createUser: bigintId('create_user'),
  createDept: bigintId('create_dept'),
  createTime: ts('create_time').notNull().defaultNow(),
  updateUser: bigintId('update_user'),
  updateTime: ts('update_time').notNull().defaultNow(),
  status: integer('status').notNull().default(1),
  isDeleted: integer('is_deleted').notNull().default(0),
});

export const timestampColumn = ts;

/** A calendar day (`date`) kept as `yyyy-MM-dd` text in JavaScript (day-text.ts). */
export const calendarDay = customType<{ data: string; driverData: string | Date }>({
  dataType: () => 'date',
  fromDriver: dayText,
  toDriver: (value) => value,
});
