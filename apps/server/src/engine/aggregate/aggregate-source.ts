import { getTableColumns, Subquery, type SQL } from 'drizzle-orm';
import { aggregateViewOf, isAggregate, type FieldDef, type ResourceDef } from '@mes/contracts';
import { resourceTable } from '../../platform/db/resource-table';
import type { AnyResourceTable } from '../resource-access';

/**
 * Aggregate resources (docs/resources.md): what the engine reads an aggregate from. Both kinds
 * become an object the `ResourceService` read path takes as it takes a table, so paging,
 * filters, sort, tenant and data scope, export and decoration are the engine's own:
 *
 * - a view: a Drizzle table named after the view (PostgreSQL reads a view as it reads a table);
 * - a query: `(<query>) "agg_<code>"`, a derived table (a Drizzle subquery) carrying the same
 *   columns. Drizzle qualifies every column as `"agg_<code>"."<column>"`, which is the alias,
 *   so every select the engine builds reads the query.
 */

/** Drizzle keeps a table's columns under this registered symbol; `getTableColumns` reads it. */
const TABLE_COLUMNS = Symbol.for('drizzle:Columns');

/** The id column as an extra field of the shape, when the key is text (a uuid) rather than an id. */
const TEXT_KEY: FieldDef = { kind: 'text', label: { zh: '编号', en: 'Id' } };

/** The Drizzle table of the aggregate's columns, named `name`: id, the fields, `tenant_id` if owned. */
function shapeOf(def: ResourceDef, name: string) {
  const fields = def.source?.key === 'text' ? { id: TEXT_KEY, ...def.fields } : def.fields;
  // No indexes, no audit columns: the view or query has only what the definition names.
  return resourceTable({ ...def, fields, table: name, audit: false, indexes: [] });
}

/** A query aggregate: its relation is built per app by the module bound to it. */
export const isQueryAggregate = (def: ResourceDef): boolean => isAggregate(def) && aggregateViewOf(def) === undefined;

/** The relation a view aggregate reads: its view, as a table. */
export function aggregateViewTable(def: ResourceDef): AnyResourceTable {
  const view = aggregateViewOf(def);
  if (!view) throw new Error(`aggregate ${def.code}: not a view aggregate (a query aggregate needs its module)`);
  return shapeOf(def, view) as unknown as AnyResourceTable;
}

/**
 * The columns of a query aggregate's derived table, built once per definition: a module whose
 * query depends on the request (`ResourceBinding.relationFor`) builds a relation per request, and
 * every one of them shares these columns, so conditions built on one apply to all.
 */
const queryColumns = new WeakMap<ResourceDef, ReturnType<typeof getTableColumns>>();
function columnsOf(def: ResourceDef, alias: string) {
  let columns = queryColumns.get(def);
  if (!columns) {
    columns = getTableColumns(shapeOf(def, alias));
    queryColumns.set(def, columns);
  }
  return columns;
}

/**
 * The relation a query aggregate reads: `query` (built by the module bound to the definition,
 * every value a parameter) as a derived table. The query must return `id`, a column per field
 * (the field's column name), `tenant_id` when tenant-owned and the data-scope columns when the
 * definition declares a data scope.
 */
export function aggregateQueryTable(def: ResourceDef, query: SQL): AnyResourceTable {
  if (!def.source || !('query' in def.source)) throw new Error(`aggregate ${def.code}: not a query aggregate`);
  const alias = `agg_${def.code}`;
  const columns = columnsOf(def, alias);
  // A Drizzle subquery renders as `(<query>) "<alias>"` and lets columns of `<alias>` be selected.
  const derived = new Subquery(query, columns, alias);
  // The engine reaches columns as properties (`table.id`) and through `getTableColumns`.
  return Object.assign(derived, columns, { [TABLE_COLUMNS]: columns }) as unknown as AnyResourceTable;
}
