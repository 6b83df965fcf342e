import type { PgColumn } from 'drizzle-orm/pg-core';
import { dayText } from '../../platform/db/day-text';
import type { AppContext } from '../../app-context';
import type { ResourceService } from '../kernel/resource-service';
import type { TenantNames } from '../row-names';
import type { ExportSource } from './export-reader';

/** Column types whose drizzle value is pg's own (no `mapFromDriverValue` step changes it). */
const AS_PG_GIVES = new Set(['PgVarchar', 'PgText', 'PgInteger', 'PgBoolean', 'PgTimestamp', 'PgNumeric', 'PgJsonb']);

/** How the export thread turns a column's pg value into the row's value; undefined: it cannot. */
function valueKind(column: PgColumn): 'pg' | 'day' | undefined {
  if (AS_PG_GIVES.has(column.columnType)) return 'pg';
  if (column.columnType !== 'PgCustomColumn') return undefined;
  const from = (column as unknown as { mapFrom?: unknown }).mapFrom;
  // A 64-bit id (no conversion: pg gives its text) or a calendar day.
  if (from === undefined) return 'pg';
  return from === dayText ? 'day' : undefined;
}

/** What the export thread reads and names by itself, and how the main thread answers its questions. */
export interface ThreadSource {
  source: ExportSource;
  tenantNames(tenantId: string): Promise<TenantNames>;
}

/**
 * The export's rows as the export thread can read them itself: the query the resource service
 * built (through the tenancy primitive and the caller's data scope, rendered with its parameters),
 * each column's conversion, and the names' maps. Undefined when the rows need the main thread: a
 * module's `decorate` hook (it may query, and it is code, not data) or a column type the thread
 * does not convert as drizzle would.
 */
export async function threadSource(
  ctx: AppContext,
  service: ResourceService,
  query: { toSQL(): { sql: string; params: unknown[] } },
): Promise<ThreadSource | undefined> {
  if (service.binding.hooks?.decorate) return undefined;
  const connection = ctx.database.pool.options.connectionString;
  if (!connection) return undefined;
  const entries = Object.entries(service.selection);
  const kinds = entries.map(([, column]) => valueKind(column));
  if (kinds.includes(undefined)) return undefined;
  const { sql: text, params } = query.toSQL();
  const names = service.names;
  return {
    source: {
      connection,
      text,
      params,
      keys: entries.map(([key]) => key),
      days: kinds.flatMap((kind, i) => (kind === 'day' ? [i] : [])),
      blankWhenMissing: service.references.map((ref) => ref.nameKey),
      masked: service.maskedFields,
      names: names.any ? { plan: names.plan, shared: await names.sharedNames() } : undefined,
    },
    tenantNames: (tenantId) => names.tenantNames(tenantId),
  };
}
