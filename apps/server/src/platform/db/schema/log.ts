import { index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { bigintId, idColumn, tenantColumn, timestampColumn } from '../columns';

/**
 * Error log (BladeX `blade_log_error`): errors the console uploads from its local log
 * (`exception_name` 'ClientError', `service_id` 'mes-web') and, later, errors of the server
 * itself. Rows are append-only records, so there are no update or soft-delete columns.
 * Free text the caller controls (message, stack, params) is `text`; the upload route caps it.
 */
export const errorLog = pgTable(
  'blade_log_error',
  {
    id: idColumn(),
    tenantId: tenantColumn(),
    serviceId: varchar('service_id', { length: 64 }).notNull().default(''),
    serverHost: varchar('server_host', { length: 255 }).notNull().default(''),
    serverIp: varchar('server_ip', { length: 255 }).notNull().default(''),
    env: varchar('env', { length: 32 }).notNull().default(''),
    /** HTTP method of the failing request (server errors); empty for client errors. */
    method: varchar('method', { length: 16 }).notNull().default(''),
    /** The failing request's URI, or the page address for client errors. */
    requestUri: varchar('request_uri', { length: 2000 }).notNull().default(''),
    userAgent: varchar('user_agent', { length: 1000 }).notNull().default(''),
    remoteIp: varchar('remote_ip', { length: 255 }).notNull().default(''),
    methodClass: varchar('method_class', { length: 255 }).notNull().default(''),
    /** Where the error happened (for client errors: the capture's `info`). */
    methodName: varchar('method_name', { length: 2000 }).notNull().default(''),
    params: text('params').notNull().default(''),
    /** Duration for server errors; the client's own timestamp for client errors. */
    time: varchar('time', { length: 64 }).notNull().default(''),
    /** Account of the signed-in user the error happened to. */
    createBy: varchar('create_by', { length: 64 }).notNull().default(''),
    createUser: bigintId('create_user'),
    createTime: timestampColumn('create_time').notNull().defaultNow(),
    stackTrace: text('stack_trace').notNull().default(''),
    exceptionName: varchar('exception_name', { length: 255 }).notNull().default(''),
    message: text('message').notNull().default(''),
    fileName: varchar('file_name', { length: 1000 }).notNull().default(''),
    lineNumber: integer('line_number'),
  },
  // The later list reads one tenant's newest errors first.
  (t) => [index('blade_log_error_tenant_time_idx').on(t.tenantId, t.createTime)],
);
