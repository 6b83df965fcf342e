import type { AggregateSource, FieldMap, ResourceDef, ResourceOperation, ResourceOwner } from './define';

/*
 * Aggregate resources (docs/resources.md, "Aggregate resources"): read-only definitions over a view
 * or a query. Their `source` type lives in define.ts, beside `ResourceDef` that holds it.
 */

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
