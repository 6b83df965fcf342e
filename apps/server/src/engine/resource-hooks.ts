import type { SQL } from 'drizzle-orm';
import type { FieldChange, ResourceDef, Row, StoredValue } from '@mes/contracts';
import type { AuthContext } from '../platform/auth/request-auth';
import type { Db } from '../platform/db/database';
import type { JobDefinition } from '../platform/jobs/job-definition';
import type { EnqueueOptions } from '../platform/jobs/job-queue';
import type { AnyResourceTable } from './resource-access';

/*
 * The types of the resource engine's lifecycle (resource-routes.ts): a row, a change, the hooks a
 * module binds to a definition. A file of types only, so that the engine's parts (record hooks,
 * xlsx export) and the modules name them without importing the routes that run them.
 */

// The contracts' row, named here too for the engine's and the modules' files that import it from here.
export type { Row };
/** A transaction of the database (what a change and its hooks write through). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What a submit is about to write; hooks may change `values` or refuse with `badRequest`. */
export interface ChangeArgs {
  tx: Tx;
  auth: AuthContext;
  adding: boolean;
  /** Validated values of the submittable fields (stored form). */
  values: Record<string, StoredValue>;
  /** The row as it was, when updating. */
  existing: Row | undefined;
  /** The raw body, for hooks that read fields outside the definition. */
  body: Record<string, unknown>;
  /** Runs after the transaction commits (cache notices must not precede the data they announce). */
  afterCommit(task: () => Promise<void>): void;
  /**
   * A durable job written by this transaction: it commits or rolls back with the change, no
   * worker sees it before the commit, and a crash after the commit cannot lose it (docs/jobs.md).
   * For work that must not be lost: outbound calls, stored-file removal, notices to other systems.
   */
  enqueue: EnqueueInChange;
  /**
   * Adds entries to the change's operation record, after the row's own (what a hook wrote with
   * it: a plug-in's child rows). The record is written after `afterChange`, in the same transaction.
   */
  logChanges(changes: readonly FieldChange[]): void;
}

export type EnqueueInChange = <P>(def: JobDefinition<P>, payload: P, options?: EnqueueOptions) => Promise<string>;

export interface RemoveArgs {
  tx: Tx;
  auth: AuthContext;
  rows: Row[];
  afterCommit(task: () => Promise<void>): void;
  enqueue: EnqueueInChange;
}

/**
 * Custom behaviour of one resource, hooked into the generic lifecycle:
 * access → validate → beforeChange → write → afterChange → operation record (and the same around
 * remove, whose record precedes `afterRemove`); `decorateDetail` finishes the one row `detail` sends.
 */
export interface ResourceHooks {
  /** Query parameters the list accepts besides declared filters, and the condition they add. */
  listParams?: {
    names: readonly string[];
    where(query: Record<string, unknown>, auth: AuthContext): SQL | undefined | Promise<SQL | undefined>;
    /** The condition depends on the caller (a scope of their own), so totals are kept per caller. */
    perCaller?: boolean;
  };
  /**
   * Rewrites a submitted body before its checks: a body in the BladeX family's shape becomes one
   * in the definition's (the family's names and values for the same thing). Answers the body to check.
   */
  fromWire?(body: Record<string, unknown>): Record<string, unknown>;
  /**
   * Checks what the definition's fields do not cover (a plug-in's part of the body: child rows),
   * after the fields' checks and before the transaction; refuses with `badRequest`.
   */
  validate?(body: Record<string, unknown>, adding: boolean): void;
  beforeChange?(args: ChangeArgs): void | Promise<void>;
  afterChange?(args: ChangeArgs & { id: string }): void | Promise<void>;
  beforeRemove?(args: RemoveArgs): void | Promise<void>;
  afterRemove?(args: RemoveArgs): void | Promise<void>;
  /** Adds view fields (names of roles, departments, dictionary labels) to rows being sent. */
  decorate?(rows: Row[], auth: AuthContext): Promise<Row[]>;
  /**
   * Every field of a row `decorate` reads. With it, an export's rows are read in the export
   * thread and the hook runs here on these fields alone, page by page (export/export-decoration.ts;
   * reading any other field fails the export); without it, a decorated export is read here.
   */
  decorateReads?: readonly string[];
  /** Adds to the one row `detail` sends, after `decorate`, what lists leave out (child rows). */
  decorateDetail?(row: Row, auth: AuthContext): Promise<Row>;
  /**
   * A series over a view whose rows a set-returning function makes: the factor the planner's row
   * estimate is multiplied by, since PostgreSQL sizes such a function by its declared rows, not by
   * the data (docs/series.md "Views over a series").
   */
  estimateScale?(): Promise<number>;
}

/** A generic route a module may answer itself instead (registering its own handler on the path). */
export type GenericRoute = 'list' | 'page' | 'tree' | 'detail' | 'submit' | 'remove' | 'export';

export interface ResourceBinding {
  def: ResourceDef;
  table: AnyResourceTable;
  hooks?: ResourceHooks;
  /** Generic routes not to register; the module answers these paths with its own handlers. */
  omit?: readonly GenericRoute[];
  /**
   * A query aggregate whose query depends on the request (a ledger's period and date range, so
   * that its conditions reach the indexes of the rows it sums): the relation `list` / `page` and
   * `export` read for these list parameters, after they passed the list's checks. It must be built
   * by `aggregateQueryTable` of the same definition, whose columns are `table`'s; every condition,
   * sort and scope applies to it unchanged. It may refuse parameters with `badRequest`.
   */
  relationFor?(query: Record<string, unknown>): AnyResourceTable;
}
