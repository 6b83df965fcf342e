import {
  apiLogResource,
  errorLogResource,
  loginLogResource,
  operationLogResource,
  usualLogResource,
} from '@mes/contracts';
import { resourceTable } from '../resource-table';

/**
 * The logs (docs/logs.md). Rows are append-only records written by the server, so the tables
 * have no update or soft-delete columns (`audit: false`); `create_time` is a declared field and
 * every writer sets it. Free text the caller controls (parameters, messages, stacks) is `text`,
 * capped by the writers.
 */
export const apiLog = resourceTable(apiLogResource);
export const usualLog = resourceTable(usualLogResource);
/** Also holds the errors the console uploads from its local error log (`error-log-routes.ts`). */
export const errorLog = resourceTable(errorLogResource);
export const loginLog = resourceTable(loginLogResource);
export const operationLog = resourceTable(operationLogResource);
