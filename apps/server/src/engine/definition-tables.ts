import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { isAggregate, type ResourceDef } from '@mes/contracts';
import { resourceTable } from '../platform/db/resource-table';
import * as schema from '../platform/db/schema';
import type { AnyResourceTable } from './resource-access';
import { aggregateViewTable, isQueryAggregate } from './aggregate/aggregate-source';

// The table behind each definition, apart from the registry's routes (registry.ts) so that the
// engine's parts that need a table (child rows) do not import the routes that use them.

const schemaTables = new Map<string, AnyResourceTable>(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => [getTableName(table), table as AnyResourceTable]),
);
const builtTables = new WeakMap<ResourceDef, AnyResourceTable>();

/**
 * The table of a definition: the schema's (resource-tables.ts, generated from the registry), or,
 * for a definition the schema does not have (a test's own, a view aggregate), one built from it
 * once. A query aggregate has none: its module builds its relation from the app's settings.
 */
export function tableFor(def: ResourceDef): AnyResourceTable {
  if (isQueryAggregate(def))
    throw new Error(`registry: ${def.code} reads a query; bind it to the module that supplies the query`);
  const known = schemaTables.get(def.table) ?? builtTables.get(def);
  if (known) return known;
  // An aggregate's view is read as a table of the definition's columns (aggregate-source.ts).
  const built = isAggregate(def) ? aggregateViewTable(def) : (resourceTable(def) as unknown as AnyResourceTable);
  builtTables.set(def, built);
  return built;
}
