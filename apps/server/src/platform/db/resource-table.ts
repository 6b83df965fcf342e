import { sql } from 'drizzle-orm';
import type { HasDefault, NotNull } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  varchar,
  type PgBooleanBuilderInitial,
  type PgColumnBuilderBase,
  type PgIntegerBuilderInitial,
  type PgJsonbBuilderInitial,
  type PgNumericBuilderInitial,
  type PgTextBuilderInitial,
  type PgVarcharBuilderInitial,
} from 'drizzle-orm/pg-core';
import {
  columnOf,
  decimalShapeOf,
  readDecimal,
  toSnake,
  type FieldDef,
  type FieldMap,
  type IndexDef,
  type ResourceDef,
  type ResourceOwner,
} from '@mes/contracts';
import { auditColumns, bigintId, calendarDay, idColumn, tenantColumn, timestampColumn } from './columns';

type TimestampBuilder = ReturnType<typeof timestampColumn>;
type DayBuilder = ReturnType<typeof calendarDay>;
/** The builder `bigintId(name)` returns. */
type IdBuilder = ReturnType<typeof idColumnBuilder>;
export const idColumnBuilder = (name: string) => bigintId(name);

type BaseBuilder<K> = K extends 'int'
  ? PgIntegerBuilderInitial<''>
  : K extends 'decimal'
    ? PgNumericBuilderInitial<''>
    : K extends 'boolean'
      ? PgBooleanBuilderInitial<''>
      : K extends 'datetime'
        ? TimestampBuilder
        : K extends 'date'
          ? DayBuilder
          : K extends 'json'
            ? PgJsonbBuilderInitial<''>
            : K extends 'id' | 'reference'
              ? IdBuilder
              : K extends 'text'
                ? PgTextBuilderInitial<'', [string, ...string[]]>
                : PgVarcharBuilderInitial<'', [string, ...string[]], number>;

/** Mirrors `isNullable` below at the type level. */
type Nullable<D> = D extends { kind: 'date' | 'json' | 'reference' }
  ? true
  : D extends { nullable: true }
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
  // No value is a value of these kinds (no day, no document, no referenced row); a reference
  // must be NULL-able whatever the form requires, since removing its target may clear it.
  if (field.kind === 'date' || field.kind === 'json' || field.kind === 'reference') return true;
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
      return numeric(column, decimalShapeOf(field));
    case 'boolean':
      return boolean(column);
    case 'datetime':
      return timestampColumn(column);
    case 'date':
      return calendarDay(column);
    case 'json':
      return jsonb(column);
    case 'id':
    case 'reference':
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
  // Required values are enforced by validation; the database default keeps direct inserts
  // (seed, tests, other modules) simple.
  const def = columnDefault(field) ?? (isNullable(field) ? undefined : fallbackOf(field));
  const built = def === undefined ? withNull : withNull.default(def);
  return built as unknown as PgColumnBuilderBase;
}

/** The default a NOT NULL column gets when the definition declares none. */
function fallbackOf(field: FieldDef): unknown {
  switch (field.kind) {
    case 'int':
      return 0;
    case 'decimal':
      return columnDefault({ ...field, default: 0 });
    case 'boolean':
      return false;
    case 'id':
    case 'json':
      return undefined;
    // A required time or day is always sent (validation); '' is no value PostgreSQL accepts.
    case 'datetime':
      return sql`now()`;
    case 'date':
      return sql`current_date`;
    default:
      return '';
  }
}

/** The declared default in the column's own form (a decimal as its exact text). */
function columnDefault(field: FieldDef): unknown {
  if (field.default === undefined || field.kind !== 'decimal') return field.default;
  const read = readDecimal(field.default, decimalShapeOf(field));
  if (!read.ok) throw new Error(`the default of decimal field ${field.label.en} does not fit its precision and scale`);
  return read.text;
}

const notDeleted = sql`is_deleted = 0`;
type IndexColumn = Parameters<ReturnType<typeof index>['on']>[0];

/**
 * Builds the Drizzle table of a resource from its definition: `id`, the declared fields,
 * `tenant_id` for tenant-owned rows, the audit columns, and the declared indexes (unique
 * indexes ignore soft-deleted rows where there are any). drizzle-kit generates the migration from it.
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
      const name = indexNameOf(def, ix);
      const [first, ...rest] = cols;
      if (!first) throw new Error(`index ${name} of ${def.table} has no fields`);
      if (!ix.unique) return index(name).on(first, ...rest);
      // Without audit columns there are no soft-deleted rows to leave out (and no `is_deleted`).
      return def.audit === false
        ? uniqueIndex(name).on(first, ...rest)
        : uniqueIndex(name)
            .on(first, ...rest)
            .where(notDeleted);
    }),
  );
}

/** An index's name in the database: its own, or `<table>_<columns>_uq|_idx`. */
export function indexNameOf(def: ResourceDef, ix: IndexDef): string {
  const suffix = ix.fields.map((f) => toSnake(String(f))).join('_');
  return ix.name ?? `${def.table}_${suffix}_${ix.unique ? 'uq' : 'idx'}`;
}
