import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn } from 'drizzle-orm/pg-core';
import {
  isAggregate,
  maskCredential,
  bilingual,
  inputWhy,
  invalidParamText,
  operationLogResource,
  validateSubmit,
  type BilingualText,
  type FieldChange,
  type FieldDef,
  type PageResult,
  type QueryFieldType,
  type ResourceDef,
  type StoredValue,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import type { AuthContext } from '../../platform/auth/request-auth';
import { isId } from '../../platform/db/ids';
import { selectNamed, selectNamedPages } from '../../platform/db/named-statements';
import { pageOf } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { throwFirstFault } from '../validation-fault';
import { newRow } from '../new-row';
import { idsValue } from '../../platform/http/request-params';
import { SecretBox, secretBoxFor } from '../../platform/crypto/secret-box';
import { parseListQuery, type ListFields } from '../../platform/http/list-query';
import { describeChanges, recordOperation } from '../../platform/audit/operation-audit';
import { checkReferenced, checkReferrersMatch, noteReferrers, releaseReferences } from './references';
import { indexNameOf } from '../../platform/db/resource-table';
import { DisplayNames, referenceJoins, type ReferenceJoin } from '../display-names';
import {
  assertOwnerAccess,
  dataScopeCondition,
  readsAllTenants,
  rowScope,
  type AnyResourceTable,
} from '../resource-access';
import { tenantRows, type TenantOwnedTable } from '../../platform/tenancy/tenant-scope';
import { ALL_TENANTS } from '../page-totals';
import { isQueryAggregate } from '../aggregate/aggregate-source';
import type { ChangeArgs, EnqueueInChange, RemoveArgs, ResourceBinding, Row, Tx } from '../resource-hooks';

export const MAX_EXPORT_ROWS = 50_000;
/** An export's rows are read and decorated this many at a time (`exportPages`). */
const EXPORT_PAGE_ROWS = 1_000;
/** Renders the per-request tail of a page query (see `ResourceService.selectText`). */
const dialect = new PgDialect();
const PG_UNIQUE_VIOLATION = '23505';
export const TENANT_ID = /^[A-Za-z0-9_-]{1,12}$/;
/** The list filter naming a tenant (tenant-owned resources); see `tenantFilter`. */
export const TENANT_FILTER = 'tenantId';

/** Which rows a read covers: the caller's tenant, or what the generic reads show (`view`). */
export type Reach = 'own' | 'view';

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

/** Why a parameter's text was refused when no rule says more. */
export const BAD_FORMAT: BilingualText = { zh: '格式不正确', en: 'is not in a valid format' };

function uniqueMessage(def: ResourceDef, error: unknown): BilingualText | undefined {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pgError = e.code ? e : e.cause;
  if (pgError?.code !== PG_UNIQUE_VIOLATION) return undefined;
  // By name: a resource with two unique indexes (a car's plate and bar code) names the one refused.
  const ix = def.indexes?.find((i) => i.unique && indexNameOf(def, i) === pgError.constraint);
  return ix?.message ?? bilingual('duplicate');
}

/**
 * Reads a page in place of the kernel's offset paging, given the service it reads through: a
 * plug-in's (`PluginAttachment.page`: a series' keyset).
 */
export type PageReader = (query: Record<string, unknown>, auth: AuthContext) => Promise<PageResult<Row>>;

/** The services `registerResource` built, per app and resource code (report sources find theirs here). */
const servicesByApp = new WeakMap<AppContext, Map<string, ResourceService>>();

/**
 * The service of a registered resource, by code: what reads of another module's resource go
 * through (a report reads any table or aggregate by name, with the engine's scope and filters).
 */
export function resourceServiceOf(ctx: AppContext, code: string): ResourceService | undefined {
  return servicesByApp.get(ctx)?.get(code);
}

/** Every registered resource's service (a check that holds for all of them enumerates here). */
export function resourceServicesOf(ctx: AppContext): ResourceService[] {
  return [...(servicesByApp.get(ctx)?.values() ?? [])];
}

/** Remembers the service `registerResource` built, for `resourceServiceOf`. */
export function rememberService(ctx: AppContext, service: ResourceService): void {
  const services = servicesByApp.get(ctx) ?? new Map<string, ResourceService>();
  servicesByApp.set(ctx, services);
  services.set(service.binding.def.code, service);
}

/**
 * The generic operations of a resource. Each route reads as its lifecycle: access (API scope
 * in the request hook, owner and tenant here), validate, before-change, write, after-change.
 */
export class ResourceService {
  readonly fields: ListFields;
  readonly columns: Record<string, PgColumn>;
  readonly maskedFields: string[];
  private readonly sealedFields: string[];
  /** Secret columns a `requiredWhen` may ask about on update (the output columns leave secrets out). */
  private readonly conditionalSecrets: Record<string, PgColumn>;
  /** The definition's display names (dictionary labels …), added to the rows replies show. */
  readonly names: DisplayNames;
  /** One join per reference field, for its row's label; the reference checks walk them too. */
  readonly references: ReferenceJoin[];
  /** What list, detail and export select: the output columns and the referenced rows' labels. */
  readonly selection: Record<string, PgColumn>;
  /**
   * `select <output columns> from <table>`, rendered once, when the rows join nothing: most of
   * the query builder's cost for a wide table (12 % of a page request's CPU in the profile) is
   * the select list, which never changes. Only conditions, order and paging are rendered per call.
   */
  private readonly selectText: string | undefined;
  /** A plug-in's page read, when one provides it; else the kernel's offset paging. */
  private readonly pageReader: PageReader | undefined;

  constructor(
    readonly ctx: AppContext,
    readonly binding: ResourceBinding,
    pages?: (service: ResourceService) => PageReader,
  ) {
    this.fields = listFields(binding.def, binding.table);
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
    }
    noteReferrers(ctx, binding.def, binding.table, this.references);
    // A query aggregate's query may carry parameters, which a text rendered once would lose.
    this.selectText =
      this.references.length || isQueryAggregate(binding.def) || binding.relationFor
        ? undefined
        : ctx.db.select(this.selection).from(binding.table).toSQL().sql;
    this.pageReader = pages?.(this);
  }

  /** The rows as replies show them: with each referenced row's label, through one join per reference. */
  selectRows(auth: AuthContext, relation: AnyResourceTable = this.table) {
    let query = this.ctx.db.select(this.selection).from(relation).$dynamic();
    for (const ref of this.references) query = query.leftJoin(ref.rows, ref.on(auth));
    return query;
  }

  get def() {
    return this.binding.def;
  }
  get table() {
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

  /**
   * A page of the rows the list shows (every tenant's, for the platform, where declared): by
   * offset, or through a plug-in's page read (a series' keyset).
   */
  async page(query: Record<string, unknown>, auth: AuthContext) {
    if (this.pageReader) return this.pageReader(query, auth);
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
    return { count: Math.min(counted?.n ?? 0, limit), pages: pages(), query: rows };
  }

  /** Totals depend on the filters, the tenant and whatever decides the caller's data scope. */
  filterKey(query: Record<string, unknown>, auth: AuthContext): string {
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

  async detail(id: unknown, auth: AuthContext): Promise<Row> {
    if (typeof id !== 'string' || !isId(id)) throw badRequest(bilingual('missingParam', 'id'));
    const where = and(await this.readScope(auth, 'view'), eq(this.table.id, id));
    const [row] = await selectNamed(
      this.ctx.database.pool,
      this.selection,
      this.selectRows(auth).where(where).limit(1),
    );
    if (!row) throw notFound(bilingual('rowNotFound'));
    const [decorated] = (await this.decorate([row], auth)) as [Row];
    const hooks = this.binding.hooks;
    return hooks?.decorateDetail ? hooks.decorateDetail(decorated, auth) : decorated;
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
    this.binding.hooks?.validate?.(body, adding);
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
        await checkReferenced(tx, this.def, this.references, values, existing, auth);
        if (existing) await checkReferrersMatch(tx, this.ctx, this.def, existing.id as string, values, auth);
        const enqueue: EnqueueInChange = (def, payload, options) =>
          this.ctx.jobs.enqueueInTransaction(tx, def, payload, options);
        const logged: FieldChange[] = [];
        const logChanges = (changes: readonly FieldChange[]) => void logged.push(...changes);
        const args: ChangeArgs = { tx, auth, adding, values, existing, body, afterCommit, enqueue, logChanges };
        // before-change
        await this.binding.hooks?.beforeChange?.(args);
        // write
        const stored = this.storedValues(args.values, existing);
        const now = new Date();
        const audit = this.def.audit !== false;
        let id: string;
        if (adding) {
          const row = newRow(this.def, stored, auth, now);
          id = row.id as string;
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
        // after-change
        await this.binding.hooks?.afterChange?.({ ...args, id });
        // The operation log commits or rolls back with the change it records.
        const changes = [...describeChanges(this.def, existing, stored), ...logged];
        const operation = adding ? 'add' : 'update';
        await recordOperation(tx, { def: this.def, auth, operation, ids: [id], changes, at: now });
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
        await releaseReferences(tx, this.ctx, this.def, this.table, ids, auth, afterCommit);
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
  tenantOfRows(auth: AuthContext): string {
    return this.def.owner === 'tenant' ? auth.tenantId : '*';
  }

  /** The list totals of the rows a caller writes are stale now. */
  changed(auth: AuthContext): Promise<void> {
    return this.ctx.totals.changed(this.def.code, this.tenantOfRows(auth));
  }

  /** The operation log's list totals (the writer's tenant and the platform's) are stale now. */
  operationLogged(): Promise<void> {
    return this.ctx.totals.changed(operationLogResource.code, '*');
  }
}
