import { and, eq, getTableColumns, inArray, type SQL, type Subquery } from 'drizzle-orm';
import { QueryBuilder, type PgColumn } from 'drizzle-orm/pg-core';
import { dictionaryFields, displayNameOf, referenceFields, toSnake, type ResourceDef, type Row } from '@mes/contracts';
import type { AuthContext } from '../platform/auth/request-auth';
import { resourceTable } from '../platform/db/resource-table';
import { liveRows, rowsOfSameTenant, tenantRows } from '../platform/tenancy/tenant-scope';
import type { NamedResource, NameLookups } from './name-lookups';
import { nameRows, tenantsOf, type NamesPlan, type SharedNames, type TenantNames } from './row-names';
import type { AnyResourceTable } from './resource-access';

/**
 * The display names BladeX's wrappers add to the rows they send, derived from the definition:
 * `<field>Name` for every field whose options are a dictionary (`categoryName`, `sexName`,
 * `scopeTypeName`), `parentName` for tree rows and `tenantName` where the platform reads every
 * tenant. Every name comes from the in-memory lookups, so a page costs no query beyond its own
 * (a tenant's maps are loaded once, then kept until one of its rows changes).
 */
export class DisplayNames {
  private readonly dictFields: ReturnType<typeof dictionaryFields>;
  /** `<field>Name` of each dictionary field, in the same order. */
  private readonly nameKeys: string[];
  private readonly parents: NamedResource | undefined;
  /** What `nameRows` adds, as plain data (the export thread names the rows it reads). */
  readonly plan: NamesPlan;

  constructor(
    private readonly def: ResourceDef,
    table: AnyResourceTable,
    columns: Record<string, PgColumn>,
    private readonly lookups: NameLookups,
  ) {
    this.dictFields = dictionaryFields(def);
    this.nameKeys = this.dictFields.map((f) => displayNameOf(f.name));
    const title = def.tree ? columns[def.tree.title] : undefined;
    this.parents = title && {
      code: def.code,
      table,
      name: title,
      perTenant: def.owner === 'tenant',
    };
    this.plan = {
      dictFields: this.dictFields.map((f, n) => ({ name: f.name, nameKey: this.nameKeys[n] as string })),
      treeParent: this.parents ? def.tree?.parent : undefined,
      tenantName: def.platformSeesAllTenants === true,
    };
  }

  /** Whether this resource's rows get any name at all. */
  get any(): boolean {
    return this.dictFields.length > 0 || this.parents !== undefined || this.def.platformSeesAllTenants === true;
  }

  /** Adds the names to `rows` themselves (and returns them). */
  async add(rows: Row[]): Promise<Row[]> {
    if (!rows.length || !this.any) return rows;
    const tenants = tenantsOf(rows);
    const perTenant = new Map(await Promise.all(tenants.map(async (t) => [t, await this.tenantNames(t)] as const)));
    nameRows(this.plan, await this.sharedNames(), perTenant, rows);
    return rows;
  }

  /** The maps every tenant shares: system dictionaries' labels, tenant names. */
  async sharedNames(): Promise<SharedNames> {
    const [dict, tenants] = await Promise.all([
      Promise.all(
        this.dictFields.map((f) => ('dict' in f.source ? this.lookups.dictLabels(f.source.dict) : undefined)),
      ),
      this.def.platformSeesAllTenants ? this.lookups.tenantNames() : undefined,
    ]);
    return { dict, tenants };
  }

  /** The per-tenant maps: the tenant's business-dictionary labels and its tree rows' names. */
  async tenantNames(tenantId: string): Promise<TenantNames> {
    const [biz, parents] = await Promise.all([
      Promise.all(
        this.dictFields.map((f) =>
          'dictBiz' in f.source ? this.lookups.dictBizLabels(f.source.dictBiz, tenantId) : undefined,
        ),
      ),
      this.parents ? this.lookups.names(this.parents, tenantId) : undefined,
    ]);
    return { biz, parents };
  }
}

/** One `reference` field's join: the live rows of its target, exposing id, label and tenant. */
export interface ReferenceJoin {
  /** The field holding the referenced id. */
  field: string;
  /** Where its label goes in a reply: `<field>Name`. */
  nameKey: string;
  def: ResourceDef;
  target: ResourceDef;
  /** The target's table, for the checks made in a write's transaction. */
  targetTable: AnyResourceTable;
  rows: Subquery;
  label: PgColumn;
  /** The reference's `where` as a condition on the target's table, when it has one. */
  allowed?: SQL;
  /** The reference's `matches`, and the target's column it compares with this row's field. */
  matches?: { field: string; targetField: string };
  matchColumn?: PgColumn;
  /** The condition joining the referenced row of the caller's reach to a row. */
  on(auth: AuthContext): SQL;
}

/** Target tables, built once per definition from the definition, as the schema builds them. */
const targetTables = new WeakMap<ResourceDef, AnyResourceTable>();
function tableOf(def: ResourceDef): AnyResourceTable {
  let table = targetTables.get(def);
  if (!table) {
    table = resourceTable(def) as unknown as AnyResourceTable;
    targetTables.set(def, table);
  }
  return table;
}

/** Columns a resource's own SQL may name without a table (the data-scope columns). */
const unqualifiedColumns = (def: ResourceDef) =>
  new Set([def.dataScope?.userColumn ?? 'create_user', def.dataScope?.deptColumn ?? 'create_dept']);

/**
 * The joins that name the referenced rows of a resource's `reference` fields: each a LEFT JOIN
 * of the target's live rows (a derived table exposing only id, label and tenant, so that no
 * column name of the target can make the list's own conditions ambiguous), on the referenced
 * id and, for a tenant-owned target, on the tenant of the row (or of the caller, for rows that
 * have none), so no other tenant's row is ever joined. Table and column names come from the
 * definitions, as identifiers.
 */
export function referenceJoins(def: ResourceDef, table: AnyResourceTable): ReferenceJoin[] {
  const own = getTableColumns(table) as Record<string, PgColumn>;
  return referenceFields(def).map(({ name, reference }) => {
    const target = reference.to();
    const targetTable = tableOf(target);
    const targetColumns = getTableColumns(targetTable) as Record<string, PgColumn>;
    const label = targetColumns[reference.label];
    const column = own[name];
    const nameKey = displayNameOf(name);
    if (!label || target.fields[reference.label]?.kind === 'secret')
      throw new Error(`${def.code}.${name}: ${target.code} has no field ${reference.label} to name its rows`);
    if (!column) throw new Error(`${def.code}.${name}: no column`);
    if (own[nameKey]) throw new Error(`${def.code}.${name}: ${nameKey} is already a field`);
    if (unqualifiedColumns(def).has(label.name) || label.name === 'id')
      throw new Error(`${def.code}.${name}: label column ${label.name} would be ambiguous in the list query`);
    const where = reference.where;
    const whereColumn = where ? targetColumns[where.field] : undefined;
    if (where && !whereColumn) throw new Error(`${def.code}.${name}: ${target.code} has no field ${where.field}`);
    const matches = reference.matches;
    const matchColumn = matches ? targetColumns[matches.targetField] : undefined;
    if (matches && (!matchColumn || !own[matches.field]))
      throw new Error(`${def.code}.${name}: cannot match ${matches.field} with ${target.code}.${matches.targetField}`);
    const tenantOwned = target.owner === 'tenant' && targetTable.tenantId !== undefined;
    const exposed: Record<string, PgColumn> = { id: targetTable.id, label };
    if (tenantOwned) exposed.tenantId = targetTable.tenantId as PgColumn;
    const rows = new QueryBuilder()
      .select(exposed)
      .from(targetTable)
      .where(liveRows(targetTable))
      .as(`ref_${toSnake(name)}`);
    const joined = rows as unknown as Record<'id' | 'label' | 'tenantId', PgColumn>;
    // The referenced row is in the referencing row's tenant (or, for a row of no tenant, the caller's).
    const rowTenant = def.owner === 'tenant' ? table.tenantId : undefined;
    const sameTenant = (auth: AuthContext) =>
      rowTenant ? rowsOfSameTenant(joined, { tenantId: rowTenant }) : tenantRows(joined, auth.tenantId);
    return {
      field: name,
      nameKey,
      def,
      target,
      targetTable,
      rows,
      label: joined.label,
      allowed: where && whereColumn ? inArray(whereColumn, [...where.in]) : undefined,
      matches,
      matchColumn,
      on: (auth) => and(eq(joined.id, column), tenantOwned ? sameTenant(auth) : undefined) as SQL,
    };
  });
}
