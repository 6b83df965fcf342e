import { index, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { bigintId, idColumn, tenantColumn, timestampColumn } from '../columns';

/* The tables of the resource area's definitions are in resource-tables.ts (generated). */

/**
 * A third-party account (`source` + the provider's user id `uuid`) and the user it signs in as.
 * `userId` is null while the account is not yet linked (first social sign-in, before the guest
 * registration that passes its id as `oauthId`).
 */
export const userOauth = pgTable(
  'blade_user_oauth',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    userId: bigintId('user_id'),
    source: varchar('source', { length: 32 }).notNull(),
    uuid: varchar('uuid', { length: 255 }).notNull(),
    username: varchar('username', { length: 255 }).notNull().default(''),
    nickname: varchar('nickname', { length: 255 }).notNull().default(''),
    avatar: varchar('avatar', { length: 1000 }).notNull().default(''),
    email: varchar('email', { length: 255 }).notNull().default(''),
    createTime: timestampColumn('create_time').notNull().defaultNow(),
    updateTime: timestampColumn('update_time').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('blade_user_oauth_source_uuid_uq').on(t.tenantId, t.source, t.uuid),
    index('blade_user_oauth_user_idx').on(t.userId),
  ],
);
