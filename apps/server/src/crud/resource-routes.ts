import { and, asc, count, desc, eq, getTableColumns, inArray, ne, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  apiScopeCodes,
  EnableStatus,
  maskCredential,
  Messages,
  operationLogResource,
  operationsOf,
  validateSubmit,
  type FieldDef,
  type ResourceDef,
  type StoredValue,
} from '@mes/contracts';
import type { AppContext } from '../app-context';
import { requireAuth, splitIds, type AuthContext } from '../platform/auth/request-auth';
import type { Db } from '../platform/db/database';
import { nextId } from '../platform/db/ids';
import { selectNamed } from '../platform/db/named-statements';
import { ok, pageOf } from '../platform/http/envelope';
import { badRequest, HttpError, notFound } from '../platform/http/errors';
import { idsValue, idValue } from '../platform/http/request-params';
import { SecretBox, secretBoxFor } from '../platform/crypto/secret-box';
import { parseListQuery, type ListFields } from '../platform/http/list-query';
import { describeChanges, recordOperation } from '../modules/log/operation-log';
import { assertOwnerAccess, dataScopeCondition, rowScope, type AnyResourceTable } from './resource-access';
import { openApiSchemas } from './resource-openapi';
import { sendXlsx } from './xlsx-export';

export type Row = Record<string, unknown>;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

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
}

export interface RemoveArgs {
  tx: Tx;
  auth: AuthContext;
  rows: Row[];
  afterCommit(task: () => Promise<void>): void;
}

/**
 * Custom behaviour of one resource, hooked into the generic lifecycle:
 * access → validate → beforeChange → write → afterChange (and the same around remove).
 */
export interface ResourceHooks {
  /** Query parameters the list accepts besides declared filters, and the condition they add. */
  listParams?: {
    names: readonly string[];
    where(query: Record<string, unknown>, auth: AuthContext): SQL | undefined | Promise<SQL | undefined>;
  };
  beforeChange?(args: ChangeArgs): void | Promise<void>;
  afterChange?(args: ChangeArgs & { id: string }): void | Promise<void>;
  beforeRemove?(args: RemoveArgs): void | Promise<void>;
  afterRemove?(args: RemoveArgs): void | Promise<void>;
  /** Adds view fields (names of roles, departments, dictionary labels) to rows being sent. */
  decorate?(rows: Row[], auth: AuthContext): Promise<Row[]>;
}

/** A generic route a module may answer itself instead (registering its own handler on the path). */
export type GenericRoute = 'list' | 'tree' | 'detail' | 'submit' | 'remove' | 'export';

export interface ResourceBinding {
  def: ResourceDef;
  table: AnyResourceTable;
  hooks?: ResourceHooks;
  /** Generic routes not to register; the module answers these paths with its own handlers. */
  omit?: readonly GenericRoute[];
}

const MAX_EXPORT_ROWS = 50_000;
const PG_UNIQUE_VIOLATION = '23505';

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

function listFields(def: ResourceDef, table: AnyResourceTable): ListFields {
  const cols = getTableColumns(table) as Record<string, PgColumn>;
  const typeOf = (f: FieldDef) =>
    f.kind === 'int' || f.kind === 'decimal'
      ? 'number'
      : f.kind === 'id'
        ? 'id'
        : f.kind === 'datetime'
          ? 'date'
          : 'text';
  const fields: ListFields = {};
  for (const [name, field] of Object.entries(def.fields)) {
    const column = cols[name];
    if (!column || field.kind === 'secret' || (!field.search && !field.sort)) continue;
    fields[name] = { type: typeOf(field), filter: field.search ?? false, sort: field.sort ?? false, column };
  }
  if (cols.createTime) fields.createTime = { type: 'date', filter: true, sort: true, column: cols.createTime };
  if (cols.updateTime) fields.updateTime = { type: 'date', sort: true, column: cols.updateTime };
  if (cols.status) fields.status = { type: 'number', filter: true, column: cols.status };
  return fields;
}

const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest(Messages.badRequest);
  return body as Record<string, unknown>;
};

function uniqueMessage(def: ResourceDef, error: unknown): string | undefined {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pgError = e.code ? e : e.cause;
  if (pgError?.code !== PG_UNIQUE_VIOLATION) return undefined;
  const ix = def.indexes?.find((i) => i.unique && (i.name === pgError.constraint || !i.name));
  return ix?.message?.zh ?? Messages.duplicate;
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

  constructor(
    readonly ctx: AppContext,
    readonly binding: ResourceBinding,
  ) {
    this.fields = listFields(binding.def, binding.table);
    this.columns = outputColumns(binding.def, binding.table);
    const names = (test: (f: FieldDef) => boolean) =>
      Object.entries(binding.def.fields)
        .filter(([, f]) => test(f))
        .map(([name]) => name);
    this.maskedFields = names((f) => f.kind === 'string' && f.masked === true);
    this.sealedFields = names((f) => f.kind === 'secret' && f.sealed === true);
  }

  private get def() {
    return this.binding.def;
  }
  private get table() {
    return this.binding.table;
  }

  /** Conditions every read applies: live rows, the caller's tenant, the caller's data scope. */
  async readScope(auth: AuthContext): Promise<SQL | undefined> {
    assertOwnerAccess(this.def, auth, false);
    return and(rowScope(this.def, this.table, auth), await dataScopeCondition(this.def, auth, this.ctx.grants));
  }

  defaultOrder(): SQL[] {
    const cols = this.columns;
    const order = (this.def.defaultSort ?? [])
      .map((s) =>
        cols[s.field] ? (s.desc ? desc(cols[s.field] as PgColumn) : asc(cols[s.field] as PgColumn)) : undefined,
      )
      .filter((o): o is SQL => o !== undefined);
    return order;
  }

  async listWhere(query: Record<string, unknown>, auth: AuthContext) {
    const hooks = this.binding.hooks;
    const parsed = parseListQuery(query, this.fields, {
      extraParams: hooks?.listParams?.names,
      defaultOrder: this.defaultOrder(),
    });
    const extra = hooks?.listParams ? await hooks.listParams.where(query, auth) : undefined;
    return { parsed, where: and(await this.readScope(auth), parsed.where, extra) };
  }

  async page(query: Record<string, unknown>, auth: AuthContext) {
    const { parsed, where } = await this.listWhere(query, auth);
    const records = selectNamed(
      this.ctx.database.pool,
      this.columns,
      this.ctx.db
        .select(this.columns)
        .from(this.table)
        .where(where)
        .orderBy(...parsed.orderBy, asc(this.table.id))
        .limit(parsed.size)
        .offset(parsed.offset),
    );
    const filterKey = this.filterKey(query, auth);
    const total = this.ctx.totals.get(this.def.code, this.tenantOfRows(auth), filterKey, async () => {
      const [row] = await this.ctx.db.select({ n: count() }).from(this.table).where(where);
      return row?.n ?? 0;
    });
    const [rows, n] = await Promise.all([records, total]);
    return pageOf(await this.decorate(rows, auth), n, parsed.current, parsed.size);
  }

  /** Every matching row (tree lists and export), in list order. */
  async all(query: Record<string, unknown>, auth: AuthContext, limit = MAX_EXPORT_ROWS + 1) {
    const { parsed, where } = await this.listWhere(query, auth);
    const rows = await this.ctx.db
      .select(this.columns)
      .from(this.table)
      .where(where)
      .orderBy(...parsed.orderBy, asc(this.table.id))
      .limit(limit);
    return this.decorate(rows, auth);
  }

  /** Totals depend on the filters, the tenant and whatever decides the caller's data scope. */
  private filterKey(query: Record<string, unknown>, auth: AuthContext): string {
    const filters = Object.entries(query)
      .filter(([k]) => !['current', 'size', 'ascs', 'descs'].includes(k))
      .sort(([a], [b]) => a.localeCompare(b));
    const scope = this.def.dataScope ? `${[...auth.roleIds].sort().join(',')}|${auth.userId}|${auth.deptId}` : '';
    return `${JSON.stringify(filters)}|${scope}`;
  }

  async decorate(rows: Row[], auth: AuthContext): Promise<Row[]> {
    const shown = this.maskedFields.length ? rows.map((r) => this.mask(r)) : rows;
    return this.binding.hooks?.decorate ? this.binding.hooks.decorate(shown, auth) : shown;
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
        if (!target || !tenantRows.some((r) => r.id === rowId)) throw notFound(Messages.rowNotFound);
        const now = new Date();
        await tx
          .update(this.table)
          .set({ status: EnableStatus.disabled, updateUser: auth.userId, updateTime: now })
          .where(and(rowScope(this.def, this.table, auth), ne(this.table.id, rowId)));
        await tx
          .update(this.table)
          .set({ status: EnableStatus.enabled, updateUser: auth.userId, updateTime: now })
          .where(eq(this.table.id, rowId));
        await recordOperation(tx, { def: this.def, auth, operation: 'enable', ids: [rowId], at: now });
      });
      await this.operationLogged();
    } finally {
      await this.changed(auth);
    }
  }

  async detail(id: unknown, auth: AuthContext): Promise<Row> {
    if (typeof id !== 'string' || !/^\d{1,19}$/.test(id)) throw badRequest(Messages.missingParam('id'));
    const where = and(await this.readScope(auth), eq(this.table.id, id));
    const [row] = await selectNamed(
      this.ctx.database.pool,
      this.columns,
      this.ctx.db.select(this.columns).from(this.table).where(where).limit(1),
    );
    if (!row) throw notFound(Messages.rowNotFound);
    const [decorated] = await this.decorate([row], auth);
    return decorated as Row;
  }

  async submit(body: Record<string, unknown>, auth: AuthContext): Promise<{ id: string; adding: boolean }> {
    // access
    assertOwnerAccess(this.def, auth, true);
    const rawId = body.id;
    const adding = rawId === undefined || rawId === null || rawId === '' || rawId === '0';
    if (!adding && (typeof rawId !== 'string' || !/^\d{1,19}$/.test(rawId)))
      throw badRequest(Messages.invalidParam('id', '应为编号'));
    // validate
    const checked = validateSubmit(this.def, body, adding);
    const firstError = Object.values(checked.errors)[0];
    if (firstError) throw badRequest(firstError);
    const scope = await this.readScope(auth);
    const committed: (() => Promise<void>)[] = [];
    const afterCommit = (task: () => Promise<void>) => void committed.push(task);
    try {
      const result = await this.ctx.db.transaction(async (tx) => {
        let existing: Row | undefined;
        if (!adding) {
          [existing] = await tx
            .select(this.columns)
            .from(this.table)
            .where(and(scope, eq(this.table.id, rawId as string)))
            .for('update');
          if (!existing) throw notFound(Messages.rowNotFound);
        }
        const args: ChangeArgs = { tx, auth, adding, values: checked.values, existing, body, afterCommit };
        // before-change
        await this.binding.hooks?.beforeChange?.(args);
        // write
        const stored = this.storedValues(args.values, existing);
        const now = new Date();
        const audit = this.def.audit !== false;
        let id: string;
        if (adding) {
          id = nextId();
          const row: Row = { ...stored, id };
          if (this.def.owner === 'tenant') row.tenantId = auth.tenantId;
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
          if (Object.keys(set).length) await tx.update(this.table).set(set).where(eq(this.table.id, id));
        }
        // The operation log commits or rolls back with the change it records.
        const changes = describeChanges(this.def, existing, stored);
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
        if (rows.length !== new Set(ids).size) throw notFound(Messages.rowNotFound);
        const tree = this.def.tree;
        if (tree) {
          const parentCol = this.columns[tree.parent] as PgColumn;
          const children = await tx
            .select({ id: this.table.id })
            .from(this.table)
            .where(and(rowScope(this.def, this.table, auth), inArray(parentCol, ids)));
          if (children.some((c) => !ids.includes(c.id as string))) throw badRequest(Messages.hasChildren);
        }
        const args: RemoveArgs = { tx, auth, rows, afterCommit };
        await this.binding.hooks?.beforeRemove?.(args);
        if (this.table.isDeleted) {
          const set: Row = { isDeleted: 1 };
          if (this.def.audit !== false) Object.assign(set, { updateUser: auth.userId, updateTime: new Date() });
          await tx.update(this.table).set(set).where(inArray(this.table.id, ids));
        } else {
          await tx.delete(this.table).where(inArray(this.table.id, ids));
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
export function registerResource(app: FastifyInstance, ctx: AppContext, binding: ResourceBinding): ResourceService {
  const { def } = binding;
  const service = new ResourceService(ctx, binding);
  const ops = new Set<string>(operationsOf(def));
  for (const route of binding.omit ?? []) ops.delete(route);
  const base = `/api${def.api}`;
  const scopes = apiScopeCodes(def.code);
  const read = { apiScope: scopes.read };
  const write = { apiScope: scopes.write };
  const docs = openApiSchemas(def, service.fields);
  const query = (request: FastifyRequest) => request.query as Record<string, unknown>;

  if (ops.has('list') || ops.has('page')) {
    const listRoute = def.listRoute ?? 'list';
    app.get(`${base}/${listRoute}`, { config: read, schema: docs.list }, async (request) => {
      const auth = requireAuth(request);
      if (def.tree && !query(request).current) {
        return ok(toForest(await service.all(query(request), auth), def.tree.parent));
      }
      return ok(await service.page(query(request), auth));
    });
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
  if (ops.has('detail')) {
    app.get(`${base}/detail`, { config: read, schema: docs.detail }, async (request) =>
      ok(await service.detail(query(request).id, requireAuth(request))),
    );
  }
  if (ops.has('submit')) {
    app.post(`${base}/submit`, { config: write, schema: docs.submit }, async (request) => {
      const result = await service.submit(bodyOf(request), requireAuth(request));
      return ok(result.id, result.adding ? Messages.added : Messages.updated);
    });
  }
  if (ops.has('remove')) {
    app.post(`${base}/remove`, { config: write, schema: docs.remove }, async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      await service.remove(query(request).ids ?? body.ids, requireAuth(request));
      return ok(true, Messages.removed);
    });
  }
  if (ops.has('enable')) {
    app.post(`${base}/enable`, { config: write, schema: docs.enable }, async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      await service.enable(query(request).id ?? body.id, requireAuth(request));
      return ok(true, Messages.enabled);
    });
  }
  if (ops.has('export')) {
    app.get(`${base}/export`, { config: read, schema: docs.export }, async (request, reply) => {
      const auth = requireAuth(request);
      const rows = await service.all(query(request), auth);
      if (rows.length > MAX_EXPORT_ROWS) throw new HttpError(400, Messages.exportTooLarge(MAX_EXPORT_ROWS));
      return sendXlsx(reply, ctx, def, rows, auth, request.headers['accept-language']);
    });
  }
  return service;
}
