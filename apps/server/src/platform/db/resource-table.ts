import { sql } from 'drizzle-orm';
import type { HasDefault, NotNull } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  varchar,
  type PgColumnBuilderBase,
  type PgDoublePrecisionBuilderInitial,
  type PgIntegerBuilderInitial,
  type PgTextBuilderInitial,
  type PgVarcharBuilderInitial,
} from 'drizzle-orm/pg-core';
import { columnOf, toSnake, type FieldDef, type FieldMap, type ResourceDef, type ResourceOwner } from '@mes/contracts';
import { auditColumns, bigintId, idColumn, tenantColumn, timestampColumn } from './columns';

type TimestampBuilder = ReturnType<typeof timestampColumn>;
/** The builder `bigintId(name)` returns. */
type IdBuilder = ReturnType<typeof idColumnBuilder>;
export const idColumnBuilder = (name: string) => bigintId(name);

type BaseBuilder<K> = K extends 'int'
  ? PgIntegerBuilderInitial<''>
  : K extends 'decimal'
    ? PgDoublePrecisionBuilderInitial<''>
    : K extends 'datetime'
      ? TimestampBuilder
      : K extends 'id'
        ? IdBuilder
        : K extends 'text'
          ? PgTextBuilderInitial<'', [string, ...string[]]>
          : PgVarcharBuilderInitial<'', [string, ...string[]], number>;

/** Mirrors `isNullable` below at the type level. */
type Nullable<D> = D extends { nullable: true }
  ? true
  : D extends { required: true }
    ? false
    : D extends { kind: 'datetime' }
      ? true
      : D extends { kind: 'id' }
        ? D extends { default: string }
          ? false
          : true
        : false;

type ColumnFor<D extends FieldDef> =
  Nullable<D> extends true ? HasDefault<BaseBuilder<D['kind']>> : NotNull<HasDefault<BaseBuilder<D['kind']>>>;

type FieldColumns<F extends FieldMap> = { [K in keyof F]: ColumnFor<F[K]> };
type KeyColumns = { id: ReturnType<typeof idColumn> };
type TenantColumns = { tenantId: ReturnType<typeof tenantColumn> };
type AuditColumns = ReturnType<typeof auditColumns>;

/** The columns of a resource's table: id, its fields, and tenant and audit columns as it declares. */
export type ResourceColumns<F extends FieldMap, O> = KeyColumns &
  FieldColumns<F> &
  (O extends 'tenant' ? TenantColumns : unknown) &
  AuditColumns;

function isNullable(field: FieldDef): boolean {
  if (field.nullable) return true;
  if (field.required) return false;
  if (field.kind === 'datetime') return true;
  if (field.kind === 'id') return field.default === undefined;
  return false;
}

function baseColumn(name: string, field: FieldDef): PgColumnBuilderBase {
  const column = columnOf(name, field);
  switch (field.kind) {
    case 'int':
      return integer(column);
    case 'decimal':
      return doublePrecision(column);
    case 'datetime':
      return timestampColumn(column);
    case 'id':
      return idColumnBuilder(column);
    case 'text':
      return text(column);
    case 'secret':
      // A sealed value is longer than the plain text `max` bounds (IV, tag, base64).
      return field.sealed ? text(column) : varchar(column, { length: field.max ?? 255 });
    default:
      return varchar(column, { length: field.max ?? 255 });
  }
}

function columnFor(name: string, field: FieldDef): PgColumnBuilderBase {
  // The builders share the modifier methods; the union type does not show it, so narrow once.
  const col = baseColumn(name, field) as unknown as {
    notNull(): typeof col;
    default(value: unknown): typeof col;
  };
  const withNull = isNullable(field) ? col : col.notNull();
  const fallback = field.kind === 'int' || field.kind === 'decimal' ? 0 : field.kind === 'id' ? undefined : '';
  // Required values are enforced by validation; the database default keeps direct inserts
  // (seed, tests, other modules) simple.
  const def = field.default ?? (isNullable(field) ? undefined : fallback);
  const built = def === undefined ? withNull : withNull.default(def);
  return built as unknown as PgColumnBuilderBase;
}

const notDeleted = sql`is_deleted = 0`;
type IndexColumn = Parameters<ReturnType<typeof index>['on']>[0];

/**
 * Builds the Drizzle table of a resource from its definition: `id`, the declared fields,
 * `tenant_id` for tenant-owned rows, the audit columns, and the declared indexes (unique
 * indexes ignore soft-deleted rows). drizzle-kit generates the migration from it.
 */
export function resourceTable<F extends FieldMap, O extends ResourceOwner>(def: ResourceDef<F> & { owner: O }) {
  const columns: Record<string, PgColumnBuilderBase> = { id: idColumn() };
  for (const [name, field] of Object.entries(def.fields)) columns[name] = columnFor(name, field);
  if (def.owner === 'tenant') columns.tenantId = tenantColumn();
  if (def.audit !== false) Object.assign(columns, auditColumns());
  const typed = columns as unknown as ResourceColumns<F, O>;
  return pgTable(def.table, typed, (t) =>
    (def.indexes ?? []).map((ix) => {
      const cols = ix.fields.map((f) => {
        const col = (t as unknown as Record<string, IndexColumn | undefined>)[String(f)];
        if (!col) throw new Error(`index of ${def.table} names unknown field ${String(f)}`);
        return col;
      });
      const suffix = ix.fields.map((f) => toSnake(String(f))).join('_');
      const name = ix.name ?? `${def.table}_${suffix}_${ix.unique ? 'uq' : 'idx'}`;
      const [first, ...rest] = cols;
      if (!first) throw new Error(`index ${name} of ${def.table} has no fields`);
      return ix.unique
        ? uniqueIndex(name)
            .on(first, ...rest)
            .where(notDeleted)
        : index(name).on(first, ...rest);
    }),
  );
}
