import type { FieldMap, ResourceDef, ResourceOperation, ResourceOwner } from './define';

/**
 * Aggregate resources (docs/resources.md, "Aggregate resources"): a definition whose rows are
 * read from a SQL view or from a query the server supplies (ledgers, dashboards, report sources,
 * the failed jobs), with the filters, sorting, paging, export and tenant / data scoping of a
 * table-backed resource, and no writes.
 *
 * - `{ view }`: a view created by a migration. It exposes `id`, a column per field (snake_case of
 *   the field name, or the field's `column`), `tenant_id` when the definition is tenant-owned, and
 *   the data-scope columns (`create_user`, `create_dept` by default) when it declares `dataScope`.
 * - `{ query: true }`: the module bound to the definition hands the engine a query with those
 *   same columns (`aggregateTable` on the server); the engine reads `(<query>) as <alias>`.
 *
 * `key` is the type of the `id` column: a 64-bit id (default) or text (a uuid, a composite key).
 * The generic `detail` takes 64-bit ids, so a text-keyed aggregate has no `detail` by default
 * (the web view dialog then shows the listed row).
 */
export type AggregateSource = ({ view: string } | { query: true }) & { key?: 'id' | 'text' };

/** What an aggregate may answer: it has no submit, remove or enable. */
export type AggregateOperation = Extract<ResourceOperation, 'list' | 'page' | 'detail' | 'export'>;

export const AGGREGATE_OPERATIONS: readonly AggregateOperation[] = ['list', 'detail', 'export'];

/** The definition of an aggregate: a resource without table, indexes, audit columns or writes. */
export type AggregateInput<F extends FieldMap, O extends ResourceOwner> = Omit<
  ResourceDef<F>,
  'table' | 'operations' | 'indexes' | 'audit' | 'tree' | 'source'
> & {
  owner: O;
  source: AggregateSource;
  operations?: readonly AggregateOperation[];
};

/**
 * Declares an aggregate. Its `table` is the view's name (so the registry's unique-table check
 * covers views too), or `query:<code>` for a query, which names no relation at all.
 */
export function defineAggregate<F extends FieldMap, O extends ResourceOwner>(
  def: AggregateInput<F, O>,
): ResourceDef<F> & { owner: O; source: AggregateSource } {
  const table = 'view' in def.source ? def.source.view : `query:${def.code}`;
  // The generic detail takes 64-bit ids only; a text-keyed aggregate's module adds its own detail.
  const operations =
    def.operations ?? AGGREGATE_OPERATIONS.filter((op) => op !== 'detail' || def.source.key !== 'text');
  return { ...def, table, audit: false, operations };
}

/** Whether a definition is an aggregate (read from a view or a query; no table of its own). */
export const isAggregate = (def: { source?: AggregateSource }): boolean => def.source !== undefined;

/** The view an aggregate reads, or `undefined` for a query aggregate (and for any other resource). */
export const aggregateViewOf = (def: { source?: AggregateSource }): string | undefined =>
  def.source && 'view' in def.source ? def.source.view : undefined;
