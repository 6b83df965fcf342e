import { and, asc, count, desc, eq, getTableColumns, inArray, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import {
  apiScopeCodes,
  checkField,
  EnableStatus,
  isAggregate,
  maskCredential,
  bilingual,
  inputWhy,
  invalidParamText,
  operationLogResource,
  operationsOf,
  validateSubmit,
  type BilingualText,
  type FieldDef,
  type QueryFieldType,
  type ReferenceRemoval,
  type ResourceDef,
  type SelectDef,
  type StoredValue,
} from '@mes/contracts';
import type { AppContext } from '../app-context';
import { isPlatformCaller, requireAuth, splitIds, type AuthContext } from '../platform/auth/request-auth';
import { isId, nextId } from '../platform/db/ids';
import { selectNamed, selectNamedPages } from '../platform/db/named-statements';
import { ok, pageOf } from '../platform/http/envelope';
import { badRequest, HttpError, notFound } from '../platform/http/errors';
import { requestLanguage } from '../platform/http/request-language';
import { throwFirstFault } from './validation-fault';
import { idsValue, idValue } from '../platform/http/request-params';
import { SecretBox, secretBoxFor } from '../platform/crypto/secret-box';
import { parseListQuery, type ListFields } from '../platform/http/list-query';
import { describeChanges, recordOperation } from '../platform/audit/operation-audit';
import { ChildRows } from './child-rows';
import { indexNameOf } from '../platform/db/resource-table';
import { DisplayNames, referenceJoins, type ReferenceJoin } from './display-names';
import {
  assertOwnerAccess,
  dataScopeCondition,
  readsAllTenants,
  rowScope,
  type AnyResourceTable,
} from './resource-access';
import { tenantRow, tenantRows, type TenantOwnedTable } from '../platform/tenancy/tenant-scope';
import { openApiSchemas } from './resource-openapi';
import { ALL_TENANTS } from './page-totals';
import { seriesPage } from './series-page';
import { sendXlsx } from './xlsx-export';
import { isQueryAggregate } from './aggregate-source';
import { RecordChain } from './records/record-chain';
import {
  measureExpression,
  PERIOD_KEY,
  periodExpression,
  rangeCondition,
  summaryColumn,
  type SummarySpec,
} from './summary';
import { recordHooks } from './records/record-hooks';
import { registerRecordRoutes } from './records/record-routes';
import type { ChangeArgs, EnqueueInChange, RemoveArgs, ResourceBinding, Row, Tx } from './resource-hooks';

// The hooks' and bindings' types live in resource-hooks.ts (the record hooks and the xlsx writer
// name them without importing this file back); modules import them from here as before.
export type {
  ChangeArgs,
  EnqueueInChange,
  GenericRoute,
  RemoveArgs,
  ResourceBinding,
  ResourceHooks,
  Row,
} from './resource-hooks';

const MAX_EXPORT_ROWS = 50_000;
/** An export's rows are read and decorated this many at a time (`exportPages`). */
const EXPORT_PAGE_ROWS = 1_000;
/** Renders the per-request tail of a page query (see `ResourceService.selectText`). */
const dialect = new PgDialect();
const PG_UNIQUE_VIOLATION = '23505';
const TENANT_ID = /^[A-Za-z0-9_-]{1,12}$/;
/** The list filter naming a tenant (tenant-owned resources); see `tenantFilter`. */
const TENANT_FILTER = 'tenantId';

/** Which rows a read covers: the caller's tenant, or what the generic reads show (`view`). */
type Reach = 'own' | 'view';

/** Columns sent to clients: everything but secrets and the soft-delete flag. */
function outputColumns(def: ResourceDef, table: AnyResourceTable): Record<string, PgColumn> {
  const secret = new Set(
    Object.entries(def.fields)
      .filter(([, f]) => f.kind === 'secret')
      .map(([name]) => name),
  );
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).filter(([name]) => !secret.has(name) && name !== 'isDeleted'),
  ) as Record<string, PgColumn>;
}

/** How a field of each kind is filtered; `undefined` for kinds that are not filterable at all. */
function queryTypeOf(field: FieldDef): QueryFieldType | undefined {
  switch (field.kind) {
    case 'int':
    case 'decimal':
      return 'number';
    case 'id':
    case 'reference':
      return 'id';
    case 'datetime':
    case 'date':
      return 'date';
    case 'boolean':
      return 'boolean';
    case 'secret':
    case 'json':
      return undefined;
    default:
      return 'text';
  }
}

function listFields(def: ResourceDef, table: AnyResourceTable): ListFields {
  const cols = getTableColumns(table) as Record<string, PgColumn>;
  const fields: ListFields = {};
  for (const [name, field] of Object.entries(def.fields)) {
    const column = cols[name];
    const type = queryTypeOf(field);
    const filter = field.search === true || field.filter === true;
    if (!column || !type || (!filter && !field.sort)) continue;
    fields[name] = { type, filter, sort: field.sort ?? false, column };
  }
  if (cols.createTime) fields.createTime = { type: 'date', filter: true, sort: true, column: cols.createTime };
  if (cols.updateTime) fields.updateTime = { type: 'date', sort: true, column: cols.updateTime };
  if (cols.status) fields.status = { type: 'number', filter: true, column: cols.status };
  return fields;
}

/** Two stored values compared as text, NULL as empty: ids travel as text, columns may read as numbers. */
const sameValue = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');

/** Why a parameter's text was refused when no rule says more. */
const BAD_FORMAT: BilingualText = { zh: '格式不正确', en: 'is not in a valid format' };

const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest(bilingual('badRequest'));
  return body as Record<string, unknown>;
};

/** A resource whose `reference` field points at another resource's rows. */
interface Referrer {
  def: ResourceDef;
  table: AnyResourceTable;
  /** The reference field, and its column. */
  field: string;
  column: PgColumn;
  onRemove: ReferenceRemoval;
  /** `reference.matches`: the target's field, and the referrer's column that must equal it. */
  matches?: { targetField: string; column: PgColumn };
}

/**
 * Who references whom, per app: a target's remove looks up the resources whose reference fields
 * point at it (registered with their routes), to refuse or to clear.
 */
const referrersByApp = new WeakMap<AppContext, Map<string, Referrer[]>>();

function referrersOf(ctx: AppContext): Map<string, Referrer[]> {
  let map = referrersByApp.get(ctx);
  if (!map) {
    map = new Map();
    referrersByApp.set(ctx, map);
  }
  return map;
}

function uniqueMessage(def: ResourceDef, error: unknown): BilingualText | undefined {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pgError = e.code ? e : e.cause;
  if (pgError?.code !== PG_UNIQUE_VIOLATION) return undefined;
  // By name: a resource with two unique indexes (a car's plate and bar code) names the one refused.
  const ix = def.indexes?.find((i) => i.unique && indexNameOf(def, i) === pgError.constraint);
  return ix?.message ?? bilingual('duplicate');
}

/** The services `registerResource` built, per app and resource code (report sources find theirs here). */
const servicesByApp = new WeakMap<AppContext, Map<string, ResourceService>>();

/**
 * The service of a registered resource, by code: what reads of another module's resource go
 * through (a report reads any table or aggregate by name, with the engine's scope and filters).
 */
export function resourceServiceOf(ctx: AppContext, code: string): ResourceService | undefined {
  return servicesByApp.get(ctx)?.get(code);
}

/**
 * The generic operations of a resource. Each route reads as its lifecycle: access (API scope
 * in the request hook, owner and tenant here), validate, before-change, write, after-change.
 */
export class ResourceService {
  readonly fields: ListFields;
  readonly columns: Record<string, PgColumn>;
  private readonly maskedFields: string[];
  private readonly sealedFields: string[];
  /** Secret columns a `requiredWhen` may ask about on update (the output columns leave secrets out). */
  private readonly conditionalSecrets: Record<string, PgColumn>;
  private readonly names: DisplayNames;
  private readonly references: ReferenceJoin[];
  /** What list, detail and export select: the output columns and the referenced rows' labels. */
  private readonly selection: Record<string, PgColumn>;
  /**
   * `select <output columns> from <table>`, rendered once, when the rows join nothing: most of
   * the query builder's cost for a wide table (12 % of a page request's CPU in the profile) is
   * the select list, which never changes. Only conditions, order and paging are rendered per call.
   */
  private readonly selectText: string | undefined;
  /** The definition's child collections (child-rows.ts): read, saved and removed with each row. */
  readonly children: ChildRows;

  constructor(
    readonly ctx: AppContext,
    readonly binding: ResourceBinding,
  ) {
    this.fields = listFields(binding.def, binding.table);
    this.children = new ChildRows(ctx, binding.def);
    this.columns = outputColumns(binding.def, binding.table);
    const names = (test: (f: FieldDef) => boolean) =>
      Object.entries(binding.def.fields)
        .filter(([, f]) => test(f))
        .map(([name]) => name);
    this.maskedFields = names((f) => f.kind === 'string' && f.masked === true);
    this.sealedFields = names((f) => f.kind === 'secret' && f.sealed === true);
    const tableColumns = getTableColumns(binding.table) as Record<string, PgColumn>;
    this.conditionalSecrets = Object.fromEntries(
      names((f) => f.kind === 'secret' && f.requiredWhen !== undefined).flatMap((name) => {
        const column = tableColumns[name];
        return column ? [[name, column] as const] : [];
      }),
    );
    this.names = new DisplayNames(binding.def, binding.table, this.columns, ctx.lookups);
    this.references = referenceJoins(binding.def, binding.table);
    this.selection = { ...this.columns };
    for (const ref of this.references) {
      this.selection[ref.nameKey] = ref.label;
      // An aggregate's rows are other tables' rows: they are those tables' referrers, not its own.
      if (isAggregate(binding.def)) continue;
      const referrers = referrersOf(ctx);
      const onRemove = binding.def.fields[ref.field]?.reference?.onRemove ?? 'refuse';
      const column = tableColumns[ref.field] as PgColumn;
      const matchColumn = ref.matches ? tableColumns[ref.matches.field] : undefined;
      const matches =
        ref.matches && matchColumn ? { targetField: ref.matches.targetField, column: matchColumn } : undefined;
      const list = referrers.get(ref.target.code) ?? [];
      // A module may build a second service of the same resource: one entry per field.
      if (!list.some((r) => r.def.code === binding.def.code && r.field === ref.field))
        list.push({ def: binding.def, table: binding.table, field: ref.field, column, onRemove, matches });
      referrers.set(ref.target.code, list);
    }
    // A query aggregate's query may carry parameters, which a text rendered once would lose.
    this.selectText =
      this.references.length || isQueryAggregate(binding.def) || binding.relationFor
        ? undefined
        : ctx.db.select(this.selection).from(binding.table).toSQL().sql;
  }

  /** The rows as replies show them: with each referenced row's label, through one join per reference. */
  private selectRows(
    auth: AuthContext,
    relation: AnyResourceTable = this.table,
    selection: Record<string, PgColumn> = this.selection,
  ) {
    let query = this.ctx.db.select(selection).from(relation).$dynamic();
    for (const ref of this.references) query = query.leftJoin(ref.rows, ref.on(auth));
    return query;
  }

  private get def() {
    return this.binding.def;
  }
  private get table() {
    return this.binding.table;
  }

  /**
   * Conditions every read applies: live rows, the caller's tenant, the caller's data scope.
   * `view` is what the generic reads show (every tenant, for the platform, where the definition
   * says so); writes and the rows they check always use the caller's own tenant.
   */
  async readScope(auth: AuthContext, reach: Reach = 'own'): Promise<SQL | undefined> {
    assertOwnerAccess(this.def, auth, false);
    return and(rowScope(this.def, this.table, auth, reach), await dataScopeCondition(this.def, auth, this.ctx.grants));
  }

  /**
   * `tenantId` on a tenant-owned list (the family's screens send it): narrows a list that spans
   * every tenant, and is ignored where the caller sees only their own tenant anyway.
   */
  private tenantFilter(query: Record<string, unknown>, auth: AuthContext, reach: Reach): SQL | undefined {
    const raw = query[TENANT_FILTER];
    if (raw === undefined || raw === '' || !this.table.tenantId) return undefined;
    if (typeof raw !== 'string' || !TENANT_ID.test(raw)) throw badRequest(invalidParamText(TENANT_FILTER, BAD_FORMAT));
    return reach === 'view' && readsAllTenants(this.def, auth)
      ? tenantRows(this.table as TenantOwnedTable, raw)
      : undefined;
  }

  /**
   * The definition's order. A list of every tenant's rows is grouped by tenant first, which
   * also lets PostgreSQL walk the `(tenant_id, ...)` indexes instead of sorting every row.
   */
  defaultOrder(acrossTenants = false): SQL[] {
    const cols = this.columns;
    const order = (this.def.defaultSort ?? [])
      .map((s) =>
        cols[s.field] ? (s.desc ? desc(cols[s.field] as PgColumn) : asc(cols[s.field] as PgColumn)) : undefined,
      )
      .filter((o): o is SQL => o !== undefined);
    return acrossTenants && this.table.tenantId ? [asc(this.table.tenantId), ...order] : order;
  }

  async listWhere(query: Record<string, unknown>, auth: AuthContext, reach: Reach = 'own') {
    const hooks = this.binding.hooks;
    const tenantOwned = this.def.owner === 'tenant';
    const parsed = parseListQuery(query, this.fields, {
      extraParams: [...(hooks?.listParams?.names ?? []), ...(tenantOwned ? [TENANT_FILTER] : [])],
      defaultOrder: this.defaultOrder(reach === 'view' && readsAllTenants(this.def, auth)),
    });
    const extra = hooks?.listParams ? await hooks.listParams.where(query, auth) : undefined;
    const tenant = tenantOwned ? this.tenantFilter(query, auth, reach) : undefined;
    return { parsed, where: and(await this.readScope(auth, reach), parsed.where, extra, tenant) };
  }

  /** A page of the rows the list shows (every tenant's, for the platform, where declared). */
  async page(query: Record<string, unknown>, auth: AuthContext) {
    // Append-only series read a bounded time range by keyset, with estimated totals when large.
    if (this.def.series)
      return seriesPage(
        {
          ctx: this.ctx,
          def: this.def,
          table: this.table,
          selection: this.selection,
          selectRows: () => this.selectRows(auth),
          listWhere: (q) => this.listWhere(q, auth, 'view'),
          decorate: (rows) => this.decorate(rows, auth),
          estimateScale: this.binding.hooks?.estimateScale,
          rowsOf: readsAllTenants(this.def, auth) ? ALL_TENANTS : this.tenantOfRows(auth),
          filterKey: this.filterKey(query, auth),
        },
        query,
      );
    const { parsed, where } = await this.listWhere(query, auth, 'view');
    const relation = this.binding.relationFor?.(query) ?? this.table;
    const orderBy = [...parsed.orderBy, asc(this.table.id)];
    const head = this.selectText;
    const records = selectNamed(
      this.ctx.database.pool,
      this.selection,
      head === undefined
        ? this.selectRows(auth, relation)
            .where(where)
            .orderBy(...orderBy)
            .limit(parsed.size)
            .offset(parsed.offset)
        : {
            // Every value stays a parameter; `offset` always is one, so page 1 and 2 share a plan.
            toSQL: () =>
              dialect.sqlToQuery(
                sql`${sql.raw(head)}${where ? sql` where ${where}` : sql``} order by ${sql.join(orderBy, sql`, `)} limit ${parsed.size} offset ${parsed.offset}`,
              ),
          },
    );
    const filterKey = this.filterKey(query, auth);
    const rowsOf = readsAllTenants(this.def, auth) ? ALL_TENANTS : this.tenantOfRows(auth);
    const counted = async () => {
      const [row] = await this.ctx.db.select({ n: count() }).from(relation).where(where);
      return row?.n ?? 0;
    };
    // An aggregate's rows change through other tables (or outside the engine, for the jobs),
    // whose writes never announce its code: a kept total would be stale, so it is counted.
    const total = isAggregate(this.def) ? counted() : this.ctx.totals.get(this.def.code, rowsOf, filterKey, counted);
    const [rows, n] = await Promise.all([records, total]);
    return pageOf(await this.decorate(rows, auth), n, parsed.current, parsed.size);
  }

  /**
   * The caller's own tenant's rows the list would read (its filters and data scope), within a
   * range of a date field, either as rows (no grouping; at most `limit`) or grouped by a time
   * bucket and fields with measures, plus the measures over every matching row (`totals`).
   * Group fields that are references carry their label (`<field>Name`), dictionary fields theirs.
   */
  async summarize(
    query: Record<string, unknown>,
    auth: AuthContext,
    spec: SummarySpec,
  ): Promise<{ rows: Row[]; totals: Row | undefined }> {
    const { parsed, where } = await this.listWhere(query, auth, 'own');
    const columns = this.columns;
    const rangeColumn = spec.range && summaryColumn(this.def, columns, spec.range.field, 'date');
    const scope = and(where, rangeColumn ? rangeCondition(rangeColumn, spec.range) : undefined);
    const measures = Object.fromEntries(
      spec.measures.map((m) => [m.key, measureExpression(this.def, columns, m)] as const),
    );
    if (!spec.period && !spec.groupBy.length) {
      const rows = await this.selectRows(auth)
        .where(scope)
        .orderBy(...parsed.orderBy, asc(this.table.id))
        .limit(spec.limit);
      return { rows: await this.decorate(rows, auth), totals: undefined };
    }
    const keys: Record<string, SQL | PgColumn> = {};
    if (spec.period)
      keys[PERIOD_KEY] = periodExpression(
        summaryColumn(this.def, columns, spec.period.field, 'date'),
        spec.period.unit,
      );
    const joins: ReferenceJoin[] = [];
    for (const name of spec.groupBy) {
      keys[name] = summaryColumn(this.def, columns, name, 'group');
      const ref = this.references.find((r) => r.field === name);
      if (ref) {
        keys[ref.nameKey] = ref.label;
        joins.push(ref);
      }
    }
    let grouped = this.ctx.db
      .select({ ...keys, ...measures })
      .from(this.table)
      .$dynamic();
    for (const ref of joins) grouped = grouped.leftJoin(ref.rows, ref.on(auth));
    const order = Object.values(keys);
    const [rows, totalRows] = await Promise.all([
      grouped
        .where(scope)
        .groupBy(...order)
        .orderBy(...order)
        .limit(spec.limit),
      Object.keys(measures).length
        ? this.ctx.db.select(measures).from(this.table).where(scope)
        : Promise.resolve([] as Row[]),
    ]);
    // Dictionary labels are per tenant for business dictionaries: the rows are the caller's tenant's.
    const named = await this.names.add(rows.map((r) => ({ ...r, tenantId: auth.tenantId }) as Row));
    for (const row of named) delete row.tenantId;
    return { rows: named, totals: totalRows[0] as Row | undefined };
  }

  /**
   * Every matching row, in list order: of the caller's tenant, or with `view` what the generic
   * list shows (tree lists and export).
   */
  async all(query: Record<string, unknown>, auth: AuthContext, reach: Reach = 'own', limit = MAX_EXPORT_ROWS + 1) {
    const { parsed, where } = await this.listWhere(query, auth, reach);
    const rows = await this.selectRows(auth, this.binding.relationFor?.(query))
      .where(where)
      .orderBy(...parsed.orderBy, asc(this.table.id))
      .limit(limit);
    return this.decorate(rows, auth);
  }

  /**
   * What the export writes: every matching row in list order (as `all` with `view`), in pages, so
   * that no step holds the event loop for long. Counted first (more than the cap is refused before
   * any row is read); then one query read through a cursor 1,000 rows at a time (no OFFSET, which
   * would read and drop every row before its page), each page named (references, dictionaries) as
   * it comes.
   */
  async exportPages(query: Record<string, unknown>, auth: AuthContext, limit = MAX_EXPORT_ROWS + 1) {
    const { parsed, where } = await this.listWhere(query, auth, 'view');
    const relation = this.binding.relationFor?.(query) ?? this.table;
    const [counted] = await this.ctx.db.select({ n: count() }).from(relation).where(where);
    const rows = this.selectRows(auth, relation)
      .where(where)
      .orderBy(...parsed.orderBy, asc(this.table.id))
      .limit(limit);
    const raw = selectNamedPages(this.ctx.database.pool, this.selection, rows, EXPORT_PAGE_ROWS);
    const decorate = (page: Row[]) => this.decorate(page, auth);
    async function* pages(): AsyncGenerator<Row[]> {
      for await (const page of raw) yield await decorate(page);
    }
    return { count: Math.min(counted?.n ?? 0, limit), pages: pages() };
  }

  /**
   * Every row for a picker (`select`), through the same scope as every read: of the caller's
   * tenant, or of the tenant a platform caller names (its administrator fills forms for others).
   * Anyone else naming another tenant gets their own rows, as BladeX's tenant plugin would.
   */
  async options(named: unknown, auth: AuthContext, query: Record<string, unknown> = {}) {
    if (named !== undefined && named !== '' && (typeof named !== 'string' || !TENANT_ID.test(named)))
      throw badRequest(invalidParamText(TENANT_FILTER, BAD_FORMAT));
    // Naming a tenant means something only where rows belong to tenants.
    const tenantId =
      typeof named === 'string' && named && isPlatformCaller(auth) && this.def.owner === 'tenant'
        ? named
        : auth.tenantId;
    const caller = tenantId === auth.tenantId ? auth : { ...auth, tenantId };
    const shape = this.def.select;
    if (!shape) return this.all({}, caller, 'own', MAX_EXPORT_ROWS);
    const scope =
      shape.ownTenantRows && !isPlatformCaller(auth) && this.table.tenantId
        ? tenantRows(this.table as TenantOwnedTable, auth.tenantId)
        : await this.readScope(caller);
    const rows = await this.selectRows(caller)
      .where(and(scope, shape.children ? this.childrenOf(shape.children, query) : undefined))
      .orderBy(...this.defaultOrder(), asc(this.table.id))
      .limit(MAX_EXPORT_ROWS);
    const shown = await this.decorate(rows, caller);
    const keep = shape.fields && ['id', ...shape.fields];
    return keep ? shown.map((row) => Object.fromEntries(keep.map((k) => [k, row[k]]))) : shown;
  }

  /** `select`'s `children`: the rows under the parent the query names, the root's by default. */
  private childrenOf(children: NonNullable<SelectDef['children']>, query: Record<string, unknown>): SQL {
    const raw = query[children.param];
    const value = raw === undefined || raw === '' ? children.root : raw;
    // Both fields exist: `registerResource` refuses to start otherwise.
    const rules = this.def.fields[children.checkAs ?? children.field] as FieldDef;
    if (typeof value !== 'string') throw badRequest(invalidParamText(children.param, BAD_FORMAT));
    const error = checkField(rules, value, 'zh');
    if (error) throw badRequest({ zh: error, en: checkField(rules, value, 'en') ?? error });
    return eq(this.columns[children.field] as PgColumn, value);
  }

  /** Totals depend on the filters, the tenant and whatever decides the caller's data scope. */
  private filterKey(query: Record<string, unknown>, auth: AuthContext): string {
    const filters = Object.entries(query)
      .filter(([k]) => !['current', 'size', 'ascs', 'descs'].includes(k))
      .sort(([a], [b]) => a.localeCompare(b));
    const perCaller = this.def.dataScope || this.binding.hooks?.listParams?.perCaller;
    const scope = perCaller ? `${[...auth.roleIds].sort().join(',')}|${auth.userId}|${auth.deptId}` : '';
    return `${JSON.stringify(filters)}|${scope}`;
  }

  /** Rows as clients see them: masked credentials, the definition's display names, the hook's fields. */
  async decorate(rows: Row[], auth: AuthContext): Promise<Row[]> {
    if (this.references.length)
      for (const row of rows)
        for (const ref of this.references)
          if (row[ref.nameKey] === null || row[ref.nameKey] === undefined) row[ref.nameKey] = '';
    const masked = this.maskedFields.length ? rows.map((r) => this.mask(r)) : rows;
    const named = await this.names.add(masked);
    return this.binding.hooks?.decorate ? this.binding.hooks.decorate(named, auth) : named;
  }

  /** Masked credentials leave the server only in part, whatever route sends the row. */
  private mask(row: Row): Row {
    const copy = { ...row };
    for (const name of this.maskedFields) {
      if (typeof copy[name] === 'string') copy[name] = maskCredential(copy[name]);
    }
    return copy;
  }

  /**
   * Stored form of the write: a masked credential sent back unchanged keeps the stored value,
   * sealed secrets are encrypted.
   */
  private storedValues(values: Record<string, StoredValue>, existing: Row | undefined): Row {
    const out: Row = { ...values };
    for (const name of this.maskedFields) {
      const stored = existing?.[name];
      if (typeof stored === 'string' && stored !== '' && out[name] === maskCredential(stored)) delete out[name];
    }
    for (const name of this.sealedFields) {
      const value = out[name];
      if (typeof value === 'string' && value !== '' && !SecretBox.isSealed(value))
        out[name] = secretBoxFor(this.ctx.dataDir).seal(value);
    }
    return out;
  }

  /**
   * Makes one row the tenant's only enabled row (`enable` operation). Rows are locked in id order
   * so two concurrent enables cannot leave two rows enabled.
   */
  async enable(id: unknown, auth: AuthContext): Promise<void> {
    assertOwnerAccess(this.def, auth, true);
    const rowId = idValue(id, 'id');
    const scope = await this.readScope(auth);
    try {
      await this.ctx.db.transaction(async (tx) => {
        const tenantRows = await tx
          .select({ id: this.table.id })
          .from(this.table)
          .where(rowScope(this.def, this.table, auth))
          .orderBy(asc(this.table.id))
          .for('update');
        const [target] = await tx
          .select({ id: this.table.id })
          .from(this.table)
          .where(and(scope, eq(this.table.id, rowId)));
        if (!target || !tenantRows.some((r) => r.id === rowId)) throw notFound(bilingual('rowNotFound'));
        const now = new Date();
        await tx
          .update(this.table)
          .set({ status: EnableStatus.disabled, updateUser: auth.userId, updateTime: now })
          .where(and(rowScope(this.def, this.table, auth), ne(this.table.id, rowId)));
        await tx
          .update(this.table)
          .set({ status: EnableStatus.enabled, updateUser: auth.userId, updateTime: now })
          .where(and(rowScope(this.def, this.table, auth), eq(this.table.id, rowId)));
        await recordOperation(tx, { def: this.def, auth, operation: 'enable', ids: [rowId], at: now });
      });
      await this.operationLogged();
    } finally {
      await this.changed(auth);
    }
  }

  async detail(id: unknown, auth: AuthContext): Promise<Row> {
    if (typeof id !== 'string' || !isId(id)) throw badRequest(bilingual('missingParam', 'id'));
    const where = and(await this.readScope(auth, 'view'), eq(this.table.id, id));
    const [row] = await selectNamed(
      this.ctx.database.pool,
      this.selection,
      this.selectRows(auth).where(where).limit(1),
    );
    if (!row) throw notFound(bilingual('rowNotFound'));
    const [decorated] = await this.decorate([row], auth);
    const [withChildren] = await this.children.attach(this.ctx.db, auth, [decorated as Row]);
    return withChildren as Row;
  }

  /**
   * Adds or updates one row. `within`: a caller's transaction to run in (as a savepoint), so a
   * change made on behalf of another write (a process's `setField` task) commits or rolls back
   * with it, and a refusal undoes only this change.
   */
  async submit(
    sent: Record<string, unknown>,
    auth: AuthContext,
    within?: Tx,
  ): Promise<{ id: string; adding: boolean }> {
    // access
    assertOwnerAccess(this.def, auth, true);
    const body = this.binding.hooks?.fromWire?.(sent) ?? sent;
    const rawId = body.id;
    const adding = rawId === undefined || rawId === null || rawId === '' || rawId === '0';
    if (!adding && (typeof rawId !== 'string' || !isId(rawId)))
      throw badRequest(invalidParamText('id', inputWhy('id')));
    // validate
    const checked = validateSubmit(this.def, body, adding);
    throwFirstFault(checked.errors, () => validateSubmit(this.def, body, adding, 'en').errors);
    const childRows = this.children.check(body, adding);
    const scope = await this.readScope(auth);
    const committed: (() => Promise<void>)[] = [];
    const afterCommit = (task: () => Promise<void>) => void committed.push(task);
    try {
      const result = await (within ?? this.ctx.db).transaction(async (tx) => {
        let existing: Row | undefined;
        if (!adding) {
          [existing] = await tx
            .select(this.columns)
            .from(this.table)
            .where(and(scope, eq(this.table.id, rawId as string)))
            .for('update');
          if (!existing) throw notFound(bilingual('rowNotFound'));
        }
        const values = existing ? await this.checkAgainstStored(tx, body, existing, auth) : checked.values;
        await this.checkReferenced(tx, values, existing, auth);
        if (existing) await this.checkReferrersMatch(tx, existing.id as string, values, auth);
        const enqueue: EnqueueInChange = (def, payload, options) =>
          this.ctx.jobs.enqueueInTransaction(tx, def, payload, options);
        const args: ChangeArgs = { tx, auth, adding, values, existing, body, afterCommit, enqueue };
        // before-change
        await this.binding.hooks?.beforeChange?.(args);
        // write
        const stored = this.storedValues(args.values, existing);
        const now = new Date();
        const audit = this.def.audit !== false;
        let id: string;
        if (adding) {
          id = nextId();
          let row: Row = { ...stored, id };
          if (this.def.owner === 'tenant') row = tenantRow(auth.tenantId, row);
          if (audit)
            Object.assign(row, {
              createUser: auth.userId,
              createDept: splitIds(auth.deptId)[0] ?? null,
              createTime: now,
              updateUser: auth.userId,
              updateTime: now,
            });
          await tx.insert(this.table).values(row);
        } else {
          id = rawId as string;
          const set: Row = { ...stored };
          if (audit) Object.assign(set, { updateUser: auth.userId, updateTime: now });
          if (Object.keys(set).length)
            await tx
              .update(this.table)
              .set(set)
              .where(and(rowScope(this.def, this.table, auth), eq(this.table.id, id)));
        }
        // The operation log commits or rolls back with the change it records.
        const changes = [
          ...describeChanges(this.def, existing, stored),
          ...(await this.children.save(tx, auth, id, childRows)),
        ];
        const operation = adding ? 'add' : 'update';
        await recordOperation(tx, { def: this.def, auth, operation, ids: [id], changes, at: now });
        // after-change
        await this.binding.hooks?.afterChange?.({ ...args, id });
        return { id, adding };
      });
      afterCommit(() => this.operationLogged());
      for (const task of committed) await task();
      return result;
    } catch (error) {
      const message = uniqueMessage(this.def, error);
      if (message) throw badRequest(message);
      throw error;
    } finally {
      await this.changed(auth);
    }
  }

  /**
   * An update validated against the row it changes: a condition (`requiredWhen`, `visibleWhen`)
   * may turn on a field that was not sent, whose stored value then has to do.
   */
  private async checkAgainstStored(tx: Tx, body: Record<string, unknown>, existing: Row, auth: AuthContext) {
    let stored: Row = existing;
    if (Object.keys(this.conditionalSecrets).length) {
      const [secrets] = await tx
        .select(this.conditionalSecrets)
        .from(this.table)
        .where(and(rowScope(this.def, this.table, auth), eq(this.table.id, existing.id as string)));
      stored = { ...existing, ...secrets };
    }
    const checked = validateSubmit(this.def, body, false, 'zh', stored);
    throwFirstFault(checked.errors, () => validateSubmit(this.def, body, false, 'en', stored).errors);
    return checked.values;
  }

  /**
   * Every referenced row a write names must be a live row the caller's tenant may reference.
   * `FOR SHARE` holds it until the write commits, so a concurrent remove of the target waits
   * and then sees the new reference (or this write sees the target gone).
   */
  private async checkReferenced(
    tx: Tx,
    values: Record<string, StoredValue>,
    existing: Row | undefined,
    auth: AuthContext,
  ) {
    const row: Row = { ...existing, ...values };
    for (const ref of this.references) {
      const matches = ref.matches;
      // A reference is checked when it is written, and when the field it must match changes.
      const sent = ref.field in values || (matches !== undefined && matches.field in values);
      const id = row[ref.field];
      if (!sent || typeof id !== 'string') continue;
      const t = ref.targetTable;
      const label = this.def.fields[ref.field]?.label ?? { zh: ref.field, en: ref.field };
      const [found] = await tx
        .select({
          id: t.id,
          ...(ref.allowed ? { allowed: sql<boolean>`${ref.allowed}` } : {}),
          ...(ref.matchColumn ? { matched: ref.matchColumn } : {}),
        })
        .from(t)
        .where(and(eq(t.id, id), rowScope(ref.target, t, auth)))
        .for('share');
      if (!found) throw badRequest({ zh: `所选${label.zh}不存在`, en: `The chosen ${label.en} does not exist` });
      // The reference's `where` (a device's department is a base or a clinic).
      if (found.allowed === false)
        throw badRequest({ zh: `所选${label.zh}不在可选范围内`, en: `The chosen ${label.en} may not be chosen here` });
      if (matches && ref.matchColumn && !sameValue(found.matched, row[matches.field])) {
        const other = this.def.fields[matches.field]?.label ?? { zh: matches.field, en: matches.field };
        throw badRequest({
          zh: `所选${label.zh}不属于所选${other.zh}`,
          en: `The chosen ${label.en} does not belong to the chosen ${other.en}`,
        });
      }
    }
  }

  /**
   * The other side of `reference.matches`: a row whose matched field changes (a line moved to
   * another base) is refused while rows that reference it still hold the old value (the line's
   * cars), rather than leaving them pointing across bases. `FOR SHARE` as in `checkReferenced`.
   */
  private async checkReferrersMatch(tx: Tx, id: string, values: Record<string, StoredValue>, auth: AuthContext) {
    for (const referrer of referrersOf(this.ctx).get(this.def.code) ?? []) {
      const matches = referrer.matches;
      if (!matches || !(matches.targetField in values)) continue;
      const t = referrer.table;
      const value = values[matches.targetField];
      const differs =
        value === null || value === undefined
          ? sql`${matches.column} is not null`
          : sql`${matches.column} is distinct from ${String(value)}`;
      const [using] = await tx
        .select({ id: t.id })
        .from(t)
        .where(and(eq(referrer.column, id), rowScope(referrer.def, t, auth), differs))
        .limit(1)
        .for('share');
      if (using) {
        const label = this.def.fields[matches.targetField]?.label ?? {
          zh: matches.targetField,
          en: matches.targetField,
        };
        throw badRequest({
          zh: `「${referrer.def.title.zh}」中引用此数据的记录属于原${label.zh}，请先调整它们`,
          en: `Rows of "${referrer.def.title.en}" that reference this row belong to its former ${label.en}: change them first`,
        });
      }
    }
  }

  /**
   * Before rows are removed, the rows of other resources that reference them: a `refuse`
   * reference stops the remove with a message naming the referencing resource; a `clear` one
   * is set to NULL in the same transaction (and logged as an update of those rows).
   */
  private async releaseReferences(
    tx: Tx,
    ids: string[],
    auth: AuthContext,
    afterCommit: (task: () => Promise<void>) => void,
  ) {
    const referrers = referrersOf(this.ctx).get(this.def.code) ?? [];
    for (const referrer of referrers) {
      const t = referrer.table;
      // Rows removed together with their targets (a reference to the same resource) do not count.
      const notRemovedToo = t === this.table ? notInArray(t.id, ids) : undefined;
      const live = t.isDeleted ? eq(t.isDeleted, 0) : undefined;
      if (referrer.onRemove === 'keep') continue;
      if (referrer.onRemove === 'refuse') {
        const [using] = await tx
          .select({ id: t.id })
          .from(t)
          .where(and(inArray(referrer.column, ids), live, notRemovedToo))
          .limit(1);
        if (using)
          throw badRequest({
            zh: `该数据正被「${referrer.def.title.zh}」引用，不能删除`,
            en: `This row is referenced by "${referrer.def.title.en}" and cannot be deleted`,
          });
        continue;
      }
      const set: Row = { [referrer.field]: null };
      if (referrer.def.audit !== false) Object.assign(set, { updateUser: auth.userId, updateTime: new Date() });
      const cleared = await tx
        .update(t)
        .set(set)
        .where(and(inArray(referrer.column, ids), notRemovedToo))
        .returning({ id: t.id, tenantId: t.tenantId ?? sql<string>`'*'` });
      if (!cleared.length) continue;
      await recordOperation(tx, {
        def: referrer.def,
        auth,
        operation: 'update',
        ids: cleared.map((r) => String(r.id)),
        at: new Date(),
      });
      const tenants = new Set(cleared.map((r) => (referrer.def.owner === 'tenant' ? String(r.tenantId) : '*')));
      afterCommit(async () => {
        for (const tenant of tenants) await this.ctx.totals.changed(referrer.def.code, tenant);
      });
    }
  }

  async remove(rawIds: unknown, auth: AuthContext): Promise<number> {
    // access
    assertOwnerAccess(this.def, auth, true);
    const ids = idsValue(rawIds, 'ids', { required: true });
    const scope = await this.readScope(auth);
    const committed: (() => Promise<void>)[] = [];
    const afterCommit = (task: () => Promise<void>) => void committed.push(task);
    try {
      const removed = await this.ctx.db.transaction(async (tx) => {
        const rows = await tx
          .select(this.columns)
          .from(this.table)
          .where(and(scope, inArray(this.table.id, ids)))
          .for('update');
        // Nothing is removed unless every id is one the caller may remove.
        if (rows.length !== new Set(ids).size) throw notFound(bilingual('rowNotFound'));
        const tree = this.def.tree;
        if (tree) {
          const parentCol = this.columns[tree.parent] as PgColumn;
          const children = await tx
            .select({ id: this.table.id })
            .from(this.table)
            .where(and(rowScope(this.def, this.table, auth), inArray(parentCol, ids)));
          if (children.some((c) => !ids.includes(c.id as string))) throw badRequest(bilingual('hasChildren'));
        }
        const enqueue: EnqueueInChange = (def, payload, options) =>
          this.ctx.jobs.enqueueInTransaction(tx, def, payload, options);
        const args: RemoveArgs = { tx, auth, rows, afterCommit, enqueue };
        await this.binding.hooks?.beforeRemove?.(args);
        await this.releaseReferences(tx, ids, auth, afterCommit);
        await this.children.removeFor(tx, auth, ids);
        if (this.table.isDeleted) {
          const set: Row = { isDeleted: 1 };
          if (this.def.audit !== false) Object.assign(set, { updateUser: auth.userId, updateTime: new Date() });
          await tx
            .update(this.table)
            .set(set)
            .where(and(rowScope(this.def, this.table, auth), inArray(this.table.id, ids)));
        } else {
          await tx.delete(this.table).where(and(rowScope(this.def, this.table, auth), inArray(this.table.id, ids)));
        }
        await recordOperation(tx, { def: this.def, auth, operation: 'remove', ids, at: new Date() });
        await this.binding.hooks?.afterRemove?.(args);
        return rows.length;
      });
      afterCommit(() => this.operationLogged());
      for (const task of committed) await task();
      return removed;
    } finally {
      await this.changed(auth);
    }
  }

  /** Whose rows a caller reads and writes: `*` for resources shared by every tenant. */
  private tenantOfRows(auth: AuthContext): string {
    return this.def.owner === 'tenant' ? auth.tenantId : '*';
  }

  private changed(auth: AuthContext): Promise<void> {
    return this.ctx.totals.changed(this.def.code, this.tenantOfRows(auth));
  }

  /** The operation log's list totals (the writer's tenant and the platform's) are stale now. */
  private operationLogged(): Promise<void> {
    return this.ctx.totals.changed(operationLogResource.code, '*');
  }
}

/** Builds a tree of rows through the definition's parent field. */
export function toForest(rows: Row[], parent: string): Row[] {
  const byId = new Map(rows.map((r) => [String(r.id), { ...r } as Row]));
  const roots: Row[] = [];
  for (const node of byId.values()) {
    const p = byId.get(String(node[parent]));
    if (p) ((p.children as Row[] | undefined) ?? (p.children = [])).push(node);
    else roots.push(node);
  }
  for (const node of byId.values()) node.hasChildren = Array.isArray(node.children) && node.children.length > 0;
  return roots;
}

/** `{id, parentId, title, key, value, children, hasChildren}` nodes for pickers (CONTRACT.md). */
export function toPickerForest(rows: Row[], parent: string, title: string): Row[] {
  return toForest(
    rows.map((r) => ({ id: r.id, parentId: r[parent], title: r[title], key: r.id, value: r.id })),
    'parentId',
  );
}

/**
 * Registers the generic routes of a resource under `/api<def.api>`: `list` (or `page`),
 * `detail`, `submit`, `remove`, `export`, and `tree` for tree resources. Returns the service so
 * a module can add its own routes on top without repeating the generic path.
 */
export function registerResource(app: FastifyInstance, ctx: AppContext, declared: ResourceBinding): ResourceService {
  const { def } = declared;
  // Regulated records (records/): the engine's lifecycle wraps the module's hooks.
  const chain = def.records ? new RecordChain(def, declared.table) : undefined;
  const binding = chain
    ? { ...declared, hooks: recordHooks(ctx, def, declared.table, chain, declared.hooks) }
    : declared;
  const service = new ResourceService(ctx, binding);
  const services = servicesByApp.get(ctx) ?? new Map<string, ResourceService>();
  servicesByApp.set(ctx, services);
  services.set(def.code, service);
  if (chain) registerRecordRoutes(app, ctx, service, chain);
  const ops = new Set<string>(operationsOf(def));
  for (const route of binding.omit ?? []) ops.delete(route);
  // An aggregate is read-only whatever its operations say: its rows are a view's or a query's.
  if (isAggregate(def)) for (const route of ['submit', 'remove', 'enable']) ops.delete(route);
  const base = `/api${def.api}`;
  const scopes = apiScopeCodes(def.code);
  const read = { apiScope: scopes.read };
  const write = { apiScope: scopes.write };
  const docs = openApiSchemas(def, service.fields);
  const query = (request: FastifyRequest) => request.query as Record<string, unknown>;

  if (ops.has('list') || ops.has('page')) {
    const listRoute = def.listRoute ?? 'list';
    const tree = def.tree;
    if (tree && listRoute === 'list') {
      // BladeX's tree lists answer the whole forest, paging parameters or not; `page` pages.
      app.get(`${base}/list`, { config: read, schema: docs.forest }, async (request) =>
        ok(toForest(await service.all(query(request), requireAuth(request), 'view'), tree.parent)),
      );
      if (!binding.omit?.includes('page'))
        app.get(`${base}/page`, { config: read, schema: docs.list }, async (request) =>
          ok(await service.page(query(request), requireAuth(request))),
        );
    } else {
      const names = new Set([listRoute, def.listAlias ?? listRoute]);
      for (const name of names)
        app.get(`${base}/${name}`, { config: read, schema: docs.list }, async (request) =>
          ok(await service.page(query(request), requireAuth(request))),
        );
    }
  }
  if (def.tree && !binding.omit?.includes('tree')) {
    const tree = def.tree;
    app.get(`${base}/tree`, { config: read, schema: docs.tree }, async (request) => {
      const auth = requireAuth(request);
      const rows = await ctx.db
        .select(service.columns)
        .from(binding.table)
        .where(await service.readScope(auth))
        .orderBy(...service.defaultOrder(), asc(binding.table.id));
      return ok(toPickerForest(rows, tree.parent, tree.title));
    });
  }
  if (ops.has('select')) {
    const children = def.select?.children;
    if (children && !(service.columns[children.field] && def.fields[children.checkAs ?? children.field]))
      throw new Error(`${def.code}: select.children names a field the resource does not have`);
    const config: FastifyContextConfig = def.select?.anyUser ? { anyUser: true } : read;
    app.get(`${base}/select`, { config, schema: docs.select }, async (request) =>
      ok(await service.options(query(request)[TENANT_FILTER], requireAuth(request), query(request))),
    );
  }
  if (ops.has('detail')) {
    app.get(`${base}/detail`, { config: read, schema: docs.detail }, async (request) =>
      ok(await service.detail(query(request).id, requireAuth(request))),
    );
  }
  if (ops.has('submit')) {
    app.post(`${base}/submit`, { config: write, schema: docs.submit }, async (request) => {
      const result = await service.submit(bodyOf(request), requireAuth(request));
      return ok(result.id, bilingual(result.adding ? 'added' : 'updated')[requestLanguage(request)]);
    });
  }
  if (ops.has('remove')) {
    app.post(`${base}/remove`, { config: write, schema: docs.remove }, async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      await service.remove(query(request).ids ?? body.ids, requireAuth(request));
      return ok(true, bilingual('removed')[requestLanguage(request)]);
    });
  }
  if (ops.has('enable')) {
    app.post(`${base}/enable`, { config: write, schema: docs.enable }, async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      await service.enable(query(request).id ?? body.id, requireAuth(request));
      return ok(true, bilingual('enabled')[requestLanguage(request)]);
    });
  }
  if (ops.has('export')) {
    app.get(`${base}/export`, { config: read, schema: docs.export }, async (request, reply) => {
      const auth = requireAuth(request);
      // The tenant's share of exports (429 before any row is read), held until the workbook is written.
      const release = await app.fairShares.take('export', auth.tenantId);
      try {
        const rows = await service.exportPages(query(request), auth);
        if (rows.count > MAX_EXPORT_ROWS) throw new HttpError(400, bilingual('exportTooLarge', MAX_EXPORT_ROWS));
        return await sendXlsx(reply, ctx, def, rows, auth, request.headers['accept-language'], release);
      } finally {
        await release();
      }
    });
  }
  return service;
}
