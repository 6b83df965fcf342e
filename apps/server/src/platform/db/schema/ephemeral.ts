import { pgTable, text } from 'drizzle-orm/pg-core';
import { timestampColumn } from '../columns';

/**
 * Short-lived shared state (captcha codes, failed sign-in counters, revoked sessions) when no
 * Redis is configured. A real table, so revocations survive a restart and every API process
 * sees them.
 */
export const ephemeralEntry = pgTable('ephemeral_entry', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  expiresAt: timestampColumn('expires_at').notNull(),
});
