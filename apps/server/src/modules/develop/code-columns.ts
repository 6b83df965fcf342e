import { CodeNamePatterns, type GeneratedFieldKind } from '@mes/contracts';
import { camelOf, CodeProblem, ENGINE_COLUMNS, type CodeColumn } from './code-source';

/**
 * Reads a table's columns from PostgreSQL's information_schema and turns each into the column
 * row of a code-generator configuration: its field kind, length, precision, label (the column's
 * comment when it has one) and list / form / search defaults. Names read from the catalogue go
 * into queries only as parameters.
 */

/** What runs a parameterised query: the console's pool or a datasource's client. */
export interface Queryable {
  query<R extends Record<string, unknown>>(text: string, values: unknown[]): Promise<{ rows: R[] }>;
}

/** A column as information_schema describes it. */
export interface CatalogColumn {
  name: string;
  /** `udt_name`: `varchar`, `int4`, `numeric`, `timestamptz`, ... */
  type: string;
  length: number | null;
  precision: number | null;
  scale: number | null;
  nullable: boolean;
  hasDefault: boolean;
  comment: string | null;
}

export interface CatalogTable {
  schema: string;
  table: string;
  comment: string | null;
  primaryKey: string[];
  columns: CatalogColumn[];
}

export const ColumnMessages = {
  noTable: (table: string) => ({
    zh: `表 ${table} 不存在,或当前账号无权读取`,
    en: `The table ${table} does not exist, or this account may not read it`,
  }),
  badColumn: (name: string) => ({
    zh: `列 ${JSON.stringify(name)} 的名称不能用于生成代码(只能包含小写字母、数字和下划线,且不以数字开头),请先在数据库中重命名`,
    en: `The column name ${JSON.stringify(name)} cannot be used to generate code (only lowercase letters, digits and _, not starting with a digit): rename it in the database first`,
  }),
} as const;

/** Reads the table (`schema.table`, or a table of the connection's current schema). */
export async function readCatalog(db: Queryable, tableName: string): Promise<CatalogTable> {
  const [schemaPart, tablePart] = tableName.includes('.') ? tableName.split('.') : [null, tableName];
  const { rows: tables } = await db.query<{ schema: string; table: string; comment: string | null }>(
    `select n.nspname as schema, c.relname as table, obj_description(c.oid, 'pg_class') as comment
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relname = $2 and n.nspname = coalesce($1::text, current_schema())
        and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    [schemaPart, tablePart],
  );
  const found = tables[0];
  if (!found) throw new CodeProblem(ColumnMessages.noTable(tableName));
  const { rows } = await db.query<{
    name: string;
    type: string;
    length: number | null;
    precision: number | null;
    scale: number | null;
    nullable: string;
    has_default: boolean;
    comment: string | null;
  }>(
    `select c.column_name as name, c.udt_name as type, c.character_maximum_length as length,
            c.numeric_precision as precision, c.numeric_scale as scale, c.is_nullable as nullable,
            c.column_default is not null as has_default,
            col_description(format('%I.%I', c.table_schema, c.table_name)::regclass, c.ordinal_position::int) as comment
       from information_schema.columns c
      where c.table_schema = $1 and c.table_name = $2
      order by c.ordinal_position`,
    [found.schema, found.table],
  );
  const { rows: keys } = await db.query<{ name: string }>(
    `select k.column_name as name
       from information_schema.table_constraints t
       join information_schema.key_column_usage k
         on k.constraint_schema = t.constraint_schema and k.constraint_name = t.constraint_name
      where t.constraint_type = 'PRIMARY KEY' and t.table_schema = $1 and t.table_name = $2
      order by k.ordinal_position`,
    [found.schema, found.table],
  );
  return {
    ...found,
    primaryKey: keys.map((k) => k.name),
    columns: rows.map((r) => ({
      name: r.name,
      type: r.type,
      length: r.length === null ? null : Number(r.length),
      precision: r.precision === null ? null : Number(r.precision),
      scale: r.scale === null ? null : Number(r.scale),
      nullable: r.nullable === 'YES',
      hasDefault: r.has_default,
      comment: r.comment,
    })),
  };
}

/** The longest varchar the engine makes; longer or unbounded text becomes `text`. */
const LONGEST_STRING = 4000;

/** The field kind, length, precision and scale of a PostgreSQL type. */
export function kindOf(column: CatalogColumn): Pick<CodeColumn, 'length' | 'precision' | 'scale'> & {
  kind: GeneratedFieldKind;
} {
  const none = { length: null, precision: null, scale: null };
  switch (column.type) {
    case 'varchar':
    case 'bpchar':
      return column.length !== null && column.length <= LONGEST_STRING
        ? { ...none, kind: 'string', length: column.length }
        : { ...none, kind: 'text' };
    case 'text':
      return { ...none, kind: 'text' };
    case 'int2':
    case 'int4':
      return { ...none, kind: 'int' };
    // A 64-bit key of another row is an id (it travels as text); other bigints are counts.
    case 'int8':
      return /(^|_)id$/.test(column.name) ? { ...none, kind: 'id' } : { ...none, kind: 'int' };
    case 'numeric':
      return { ...none, kind: 'decimal', precision: column.precision, scale: column.scale };
    // The engine keeps no floats (values are read exactly); a float column becomes a decimal.
    case 'float4':
    case 'float8':
      return { ...none, kind: 'decimal', precision: 18, scale: 6 };
    case 'bool':
      return { ...none, kind: 'boolean' };
    case 'date':
      return { ...none, kind: 'date' };
    case 'timestamptz':
    case 'timestamp':
      return { ...none, kind: 'datetime' };
    case 'json':
    case 'jsonb':
      return { ...none, kind: 'json' };
    case 'uuid':
      return { ...none, kind: 'string', length: 36 };
    default:
      return { ...none, kind: 'text' };
  }
}

/** `gauge_code` → `Gauge code`. */
const humanOf = (name: string) => {
  const words = name.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** One line of at most 64 characters, from a comment that may hold several. */
const labelOf = (comment: string | null, fallback: string) => {
  const first = (comment ?? '').split(/[\r\n]/)[0] ?? '';
  // eslint-disable-next-line no-control-regex
  const line = first.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, '').trim();
  return (line || fallback).slice(0, 64);
};

const SEARCHED = /(^|_)(name|code|no|title)$/;

/**
 * The column rows of a table: every column but the primary key and those the engine adds, in
 * the table's order. A name that cannot become a field is refused, naming the column.
 */
export function columnRows(table: CatalogTable): CodeColumn[] {
  const rows: CodeColumn[] = [];
  for (const column of table.columns) {
    if (table.primaryKey.includes(column.name) || ENGINE_COLUMNS.has(column.name)) continue;
    const fieldName = camelOf(column.name.replace(/^_+/, ''));
    if (
      !new RegExp(CodeNamePatterns.sqlName).test(column.name) ||
      !new RegExp(CodeNamePatterns.fieldName).test(fieldName)
    )
      throw new CodeProblem(ColumnMessages.badColumn(column.name));
    const shape = kindOf(column);
    const human = humanOf(column.name);
    rows.push({
      columnName: column.name,
      fieldName,
      labelZh: labelOf(column.comment, human),
      labelEn: human.slice(0, 64),
      ...shape,
      required: !column.nullable && !column.hasDefault && shape.kind !== 'boolean',
      searchable: shape.kind === 'string' && SEARCHED.test(column.name),
      listed: shape.kind !== 'text' && shape.kind !== 'json',
      inForm: true,
      dictCode: '',
    });
  }
  return rows;
}
