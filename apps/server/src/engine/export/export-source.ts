import type { PgColumn } from 'drizzle-orm/pg-core';
import { dayText } from '../../platform/db/day-text';
import type { AppContext } from '../../app-context';
import type { ResourceService } from '../kernel/resource-service';
import type { AuthContext } from '../../platform/auth/request-auth';
import { decoratedPatch } from './export-decoration';
import type { ExportQuestion, ExportSource } from './export-reader';

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
  answer(question: ExportQuestion): Promise<unknown>;
}

/**
 * The export's rows as the export thread can read them itself: the query the resource service
 * built (through the tenancy primitive and the caller's data scope, rendered with its parameters),
 * each column's conversion, and the names' maps. A module's `decorate` hook (code that may query)
 * stays on the main thread, asked for each page with the fields it declares it reads
 * (export-decoration.ts). Undefined when the rows need the main thread: a hook that does not
 * declare them, or a column type the thread does not convert as drizzle would.
 */
export async function threadSource(
  ctx: AppContext,
  service: ResourceService,
  query: { toSQL(): { sql: string; params: unknown[] } },
  auth: AuthContext,
): Promise<ThreadSource | undefined> {
  const hooks = service.binding.hooks;
  if (hooks?.decorate && !hooks.decorateReads) return undefined;
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
      decorateReads: hooks?.decorate ? [...(hooks.decorateReads ?? [])] : undefined,
    },
    answer: (question) => {
      if ('tenantNames' in question) return names.tenantNames(question.tenantNames);
      const decorate = hooks?.decorate;
      if (!decorate) return Promise.reject(new Error('the export asked for a decoration its resource has not'));
      return decoratedPatch((rows) => decorate(rows, auth), question.decorate);
    },
  };
}
