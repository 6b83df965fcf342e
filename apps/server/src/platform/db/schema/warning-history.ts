import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { bigintId, idColumn, tenantColumn, timestampColumn } from '../columns';

/**
 * What happened to a warning beyond its own row (docs/warnings.md "Escalation"): today the
 * escalations, one row per warning and escalation step. The row is also the claim: the unique
 * (warning, step) index lets exactly one sweep, of however many server processes, notify for it.
 * Raised, cleared and handled are read from the warning's own times, so they are not copied here.
 */
export const warningHistory = pgTable(
  'mes_warning_history',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    warningId: bigintId('warning_id').notNull(),
    action: varchar('action', { length: 16 }).notNull(),
    /** The escalation step (`mes_warning_escalation`) and what it said when it fired. */
    policyId: bigintId('policy_id'),
    afterMinutes: integer('after_minutes'),
    roleId: bigintId('role_id'),
    roleName: varchar('role_name', { length: 255 }).notNull().default(''),
    /** The users notified: ids and names, comma-joined (the role's active users at that time). */
    userIds: text('user_ids').notNull().default(''),
    userNames: text('user_names').notNull().default(''),
    noticeId: bigintId('notice_id'),
    live: boolean('live').notNull().default(false),
    /**
     * What the SMS did (`EscalationSms`): off, no-phone, queued, then sent or failed (written by the
     * SMS job); `smsDetail` the phones, or the reason it failed (the provider's words).
     */
    smsStatus: varchar('sms_status', { length: 16 }).notNull().default('off'),
    smsDetail: varchar('sms_detail', { length: 1000 }).notNull().default(''),
    at: timestampColumn('at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mes_warning_history_step_uq')
      .on(t.warningId, t.policyId)
      .where(sql`${t.policyId} is not null`),
    index('mes_warning_history_warning_idx').on(t.tenantId, t.warningId, t.at),
  ],
);
