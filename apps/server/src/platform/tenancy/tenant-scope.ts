import { and, eq, is, sql, type Placeholder, type SQL } from 'drizzle-orm';
import {
  PgColumn,
  type PgDatabase,
  type PgInsertValue,
  type PgTable,
  type PgUpdateSetSource,
  type SelectedFields,
} from 'drizzle-orm/pg-core';
import type { NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';

/**
 * A table whose rows belong to a tenant (`tenant_id`). `blade_tenant` has the column too (its own
 * id), so the tenant's own record is reached the same way: `scope.select(tenant)`.
 */
export type TenantOwnedTable = PgTable & { tenantId: PgColumn };

/** The database or a transaction of it: both build and run queries alike. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the helper only builds core queries
export type Queryable = PgDatabase<NodePgQueryResultHKT, any, any>;

/**
 * Rows with a tenant column: a tenant-owned table, or a derived table joined by the resource engine
 * (`(select id, label, tenant_id from … ) as ref_dept`), whose `tenantId` is the subquery's column.
 */
export type TenantRowsOf = TenantOwnedTable | { tenantId: PgColumn };

/** A condition, or nothing (as drizzle's `and` takes them). */
export type Condition = SQL | undefined;

/** A row or change without `tenantId` (modifiers kept; `Omit` drops drizzle's optional keys). */
type TenantFree<T> = { [K in keyof T as K extends 'tenantId' ? never : K]: T[K] };

/** The soft-delete column of a table, when it has one. */
function deletedFlag(table: object): PgColumn | undefined {
  const column = (table as unknown as Record<string, unknown>).isDeleted;
  return is(column, PgColumn) ? column : undefined;
}

function refuseTenantChange(values: object): void {
  if (Object.prototype.hasOwnProperty.call(values, 'tenantId'))
    throw new Error('tenantScope: a row never changes tenant (tenantId given)');
}

/**
 * Live rows of a table: the soft-delete test as a literal, not a parameter. The unique indexes
 * are partial on `is_deleted = 0`, and a prepared statement's generic plan uses them only when
 * the predicate is in its text. Tables without soft delete, and derived tables (whose subquery
 * chose its rows): no condition.
 */
export function liveRows(table: PgTable | TenantRowsOf): SQL | undefined {
  const deleted = deletedFlag(table);
  return deleted ? sql`${deleted} = 0` : undefined;
}

/**
 * Live rows of `tenantId` in `table`, with `conditions`: the one tenant condition of the code
 * base, for queries the scope's builders do not cover (joins, subqueries in `sql` templates,
 * the resource engine's shared conditions).
 */
export function tenantRows(table: TenantRowsOf, tenantId: string | Placeholder, ...conditions: Condition[]): SQL {
  return and(eq(table.tenantId, tenantId), liveRows(table), ...conditions) as SQL;
}

/**
 * Rows of `tenantId` in `table`, removed ones included: for the rare look that must see what an
 * administrator removed (a shipped row made once is not made again after its removal).
 */
export function tenantRowsLiveOrRemoved(
  table: TenantOwnedTable,
  tenantId: string | Placeholder,
  ...conditions: Condition[]
): SQL {
  return and(eq(table.tenantId, tenantId), ...conditions) as SQL;
}

/**
 * Live rows of `table` in the tenant of the row `outer` (a correlated subquery: the names of a
 * user's roles are looked up in the user's own tenant). `outer` may also be a derived table's
 * tenant column (`{ tenantId: sql\`rows.tenant_id\` }`: a lateral lookup per aggregated row).
 */
export function rowsOfSameTenant(
  table: TenantRowsOf,
  outer: TenantOwnedTable | { tenantId: SQL | PgColumn },
  ...conditions: Condition[]
): SQL {
  return and(sql`${table.tenantId} = ${outer.tenantId}`, liveRows(table), ...conditions) as SQL;
}

/**
 * `row` as a row of `tenantId` to insert: the insert half of the scope for writers of rows typed
 * loosely, by definition (the resource engine's generic submit and its child rows), where
 * `scope.insert(table)`'s typed values do not fit. A row never names its tenant itself.
 */
export function tenantRow<R extends object>(tenantId: string, row: R): R & { tenantId: string } {
  refuseTenantChange(row);
  return { ...row, tenantId };
}

/**
 * The only way module code reaches tenant-owned tables (docs/tenancy.md). Every query built here
 * carries `tenant_id = <the scope's tenant>` and, for tables with soft delete, `is_deleted = 0`;
 * inserts have their `tenant_id` set. A query cannot leave without its condition: `update` and
 * `delete` run nothing until `where(...)` (no arguments: every live row of the tenant) adds it,
 * and the `where` drizzle offers after that is gone from the type, so the condition cannot be
 * replaced. An id of another tenant's row therefore matches nothing.
 */
export class TenantScope {
  constructor(
    private readonly db: Queryable,
    readonly tenantId: string,
  ) {
    if (typeof tenantId !== 'string' || tenantId === '') throw new Error('tenantScope: no tenant');
  }

  /** Live rows of the tenant in `table`, with `conditions` (see `tenantRows`). */
  rows(table: TenantOwnedTable, ...conditions: Condition[]): SQL {
    return tenantRows(table, this.tenantId, ...conditions);
  }

  /** Rows of the tenant including soft-deleted ones (what a purge or an undo looks at). */
  allRows(table: TenantOwnedTable, ...conditions: Condition[]): SQL {
    return and(eq(table.tenantId, this.tenantId), ...conditions) as SQL;
  }

  /** `select` of live rows: `scope.select(user, { id: user.id }).where(eq(user.account, a))`. */
  select<T extends TenantOwnedTable>(table: T): { where(...conditions: Condition[]): ReturnType<typeof selectAll<T>> };
  select<T extends TenantOwnedTable, F extends SelectedFields>(
    table: T,
    fields: F,
  ): { where(...conditions: Condition[]): ReturnType<typeof selectSome<T, F>> };
  select(table: TenantOwnedTable, fields?: SelectedFields) {
    return {
      where: (...conditions: Condition[]) =>
        fields
          ? selectSome(this.db, table, fields, this.rows(table, ...conditions))
          : selectAll(this.db, table, this.rows(table, ...conditions)),
    };
  }

  /** `update` of live rows: `scope.update(user).set({ status }).where(inArray(user.id, ids))`. */
  update<T extends TenantOwnedTable>(table: T) {
    return {
      set: (values: TenantFree<PgUpdateSetSource<T>>) => {
        refuseTenantChange(values);
        return {
          where: (...conditions: Condition[]) =>
            this.db
              .update(table)
              .set(values as unknown as PgUpdateSetSource<T>)
              .where(this.rows(table, ...conditions)),
        };
      },
    };
  }

  /** `delete` of the tenant's rows (soft-deleted ones included: a hard delete clears them too). */
  delete<T extends TenantOwnedTable>(table: T) {
    return {
      where: (...conditions: Condition[]) => this.db.delete(table).where(this.allRows(table, ...conditions)),
    };
  }

  /** `insert` of rows of the tenant: `tenantId` is set here and cannot be given. */
  insert<T extends TenantOwnedTable>(table: T) {
    const own = (row: TenantFree<PgInsertValue<T>>) => tenantRow(this.tenantId, row) as unknown as PgInsertValue<T>;
    return {
      values: (...rows: TenantFree<PgInsertValue<T>>[]) => this.db.insert(table).values(rows.map(own)),
    };
  }
}

function selectAll<T extends TenantOwnedTable>(db: Queryable, table: T, where: SQL) {
  return (
    db
      .select()
      // A generic table defeats drizzle's check for data-modifying subqueries; a table is not one.
      .from<T>(table as never)
      .where(where)
  );
}

function selectSome<T extends TenantOwnedTable, F extends SelectedFields>(
  db: Queryable,
  table: T,
  fields: F,
  where: SQL,
) {
  return (
    db
      .select(fields)
      // A generic table defeats drizzle's check for data-modifying subqueries; a table is not one.
      .from<T>(table as never)
      .where(where)
  );
}

/** The scope of one tenant over a database or a transaction. */
export const tenantScope = (db: Queryable, tenantId: string) => new TenantScope(db, tenantId);
