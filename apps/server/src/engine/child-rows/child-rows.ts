import { and, asc, eq, getTableColumns, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  childCollectionsOf,
  childRowMessage,
  Messages,
  MessagesEn,
  validateChildren,
  type ResolvedChildCollection,
  type ChildRowCheck,
  type ChildrenCheck,
  type FieldChange,
  type ResourceDef,
  type StoredValue,
  type Row,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { describeChildChanges, type ChildRowChange } from '../../platform/audit/operation-audit';
import type { AuthContext } from '../../platform/auth/request-auth';
import type { Db } from '../../platform/db/database';
import { badRequest } from '../../platform/http/errors';
import { throwFirstFault } from '../validation-fault';
import { liveRows, tenantRows, type TenantOwnedTable } from '../../platform/tenancy/tenant-scope';
import { DisplayNames, referenceJoins, type ReferenceJoin } from '../display-names';
import { tableFor } from '../definition-tables';
import { newRow } from '../new-row';
import { rowScope, type AnyResourceTable } from '../resource-access';
import type { Tx } from '../resource-hooks';

/** The database or the transaction a read runs on. */
type Reader = Pick<Db, 'select'>;

/** One declared collection with what the engine needs to read and write its rows. */
export interface ChildSet {
  name: string;
  collection: ResolvedChildCollection;
  child: ResourceDef;
  table: AnyResourceTable;
  /** Columns sent to clients (everything but the soft-delete flag and secrets). */
  columns: Record<string, PgColumn>;
  parentColumn: PgColumn;
  orderColumn: PgColumn | undefined;
  /** The order of reads: the group (when numbered per group), the position, the id. */
  order: SQL[];
  references: ReferenceJoin[];
  names: DisplayNames;
}

/** Compared as stored values compare: dates by instant, JSON by its text, the rest as text. */
const comparable = (v: unknown) =>
  v instanceof Date ? String(v.getTime()) : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v ?? '');
const same = (a: unknown, b: unknown) => comparable(a) === comparable(b);

/**
 * Child rows (issue 13, packages/contracts/src/engine/children.ts): read with the parent's
 * detail, one query per collection; saved by diff in the parent's transaction (a row with an id
 * of this parent is updated when it changed, a row without one inserted, a stored row not sent
 * removed); removed with the parent; described in the parent's operation record. Rows are
 * always those of one tenant (the parent's), through the shared tenancy conditions.
 */
export class ChildRows {
  readonly sets: readonly ChildSet[];

  constructor(
    private readonly ctx: AppContext,
    readonly def: ResourceDef,
  ) {
    this.sets = childCollectionsOf(def).map(({ name, collection, child }) => {
      const table = tableFor(child);
      const all = getTableColumns(table) as Record<string, PgColumn>;
      const secret = new Set(
        Object.entries(child.fields)
          .filter(([, f]) => f.kind === 'secret')
          .map(([n]) => n),
      );
      const columns = Object.fromEntries(
        Object.entries(all).filter(([n]) => n !== 'isDeleted' && !secret.has(n)),
      ) as Record<string, PgColumn>;
      const parentColumn = all[collection.parentField];
      if (!parentColumn) throw new Error(`${def.code}.${name}: ${child.code} has no field ${collection.parentField}`);
      const orderColumn = collection.orderField ? all[collection.orderField] : undefined;
      if (collection.orderField && !orderColumn)
        throw new Error(`${def.code}.${name}: ${child.code} has no field ${collection.orderField}`);
      const groupColumn = collection.orderGroup ? all[collection.orderGroup] : undefined;
      if (collection.orderGroup && !groupColumn)
        throw new Error(`${def.code}.${name}: ${child.code} has no field ${collection.orderGroup}`);
      const order = [groupColumn, orderColumn, table.id]
        .filter((c): c is PgColumn => c !== undefined)
        .map((c) => asc(c));
      if (def.owner === 'tenant' && child.owner !== 'tenant')
        throw new Error(`${def.code}.${name}: the child rows of a tenant's row must be the tenant's too`);
      const references = referenceJoins(child, table);
      const names = new DisplayNames(child, table, columns, ctx.lookups);
      return { name, collection, child, table, columns, parentColumn, orderColumn, order, references, names };
    });
  }

  /** Whether the definition declares any collection. */
  get any(): boolean {
    return this.sets.length > 0;
  }

  set(name: string): ChildSet {
    const found = this.sets.find((s) => s.name === name);
    if (!found) throw new Error(`${this.def.code} has no child collection ${name}`);
    return found;
  }

  /** Validates the collections of a submit (the same function as the form); the first fault is a 400. */
  check(body: Record<string, unknown>, adding: boolean): ChildrenCheck {
    const checked = validateChildren(this.def, body, adding, 'zh');
    throwFirstFault(checked.errors, () => validateChildren(this.def, body, adding, 'en').errors);
    return checked;
  }

  /** The tenant's live rows of a set, with extra conditions. */
  private scope(set: ChildSet, tenantId: string, ...conditions: (SQL | undefined)[]): SQL | undefined {
    return set.child.owner === 'tenant' && set.table.tenantId
      ? tenantRows(set.table as TenantOwnedTable, tenantId, ...conditions)
      : and(liveRows(set.table), ...conditions);
  }

  /**
   * The child rows of parents of one tenant, in order, with their display names: one query per
   * collection whatever the number of parents. `where` narrows the rows (one direction of a line).
   */
  async rowsOf(db: Reader, auth: AuthContext, set: ChildSet, parentIds: string[], tenantId: string, where?: SQL) {
    if (!parentIds.length) return [];
    let query = db
      .select({ ...set.columns, ...Object.fromEntries(set.references.map((r) => [r.nameKey, r.label])) })
      .from(set.table)
      .$dynamic();
    const asTenant = tenantId === auth.tenantId ? auth : { ...auth, tenantId };
    for (const ref of set.references) query = query.leftJoin(ref.rows, ref.on(asTenant));
    const rows: Row[] = await query
      .where(this.scope(set, tenantId, inArray(set.parentColumn, parentIds), where))
      .orderBy(...set.order);
    for (const row of rows)
      for (const ref of set.references)
        if (row[ref.nameKey] === null || row[ref.nameKey] === undefined) row[ref.nameKey] = '';
    return set.names.add(rows);
  }

  /** Adds every collection to parent rows (detail), as arrays under the collections' names. */
  async attach(db: Reader, auth: AuthContext, parents: Row[]): Promise<Row[]> {
    if (!this.any || !parents.length) return parents;
    const byTenant = new Map<string, string[]>();
    for (const p of parents) {
      const tenant = p.tenantId === undefined || p.tenantId === null ? auth.tenantId : String(p.tenantId);
      byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), String(p.id)]);
    }
    for (const set of this.sets) {
      const grouped = new Map<string, Row[]>();
      for (const [tenant, ids] of byTenant)
        for (const row of await this.rowsOf(db, auth, set, ids, tenant)) {
          const key = String(row[set.collection.parentField]);
          grouped.set(key, [...(grouped.get(key) ?? []), row]);
        }
      for (const p of parents) p[set.name] = grouped.get(String(p.id)) ?? [];
    }
    return parents;
  }

  /** Saves every collection the submit sets; returns the changes for the parent's operation record. */
  async save(tx: Tx, auth: AuthContext, parentId: string, checked: ChildrenCheck): Promise<FieldChange[]> {
    const changes: FieldChange[] = [];
    for (const set of this.sets) {
      const rows = checked.rows[set.name];
      if (rows) changes.push(...(await this.replace(tx, auth, set, parentId, rows)));
    }
    return changes;
  }

  /**
   * Makes the parent's rows of a set (of the rows matching `fixed`, when given: one direction of
   * a line) the ones given, in their order. Removals go first and a row whose unique fields
   * change is replaced rather than updated, so the set never passes through a state its unique
   * index refuses (two stops swapping their nodes).
   */
  async replace(
    tx: Tx,
    auth: AuthContext,
    set: ChildSet,
    parentId: string,
    incoming: readonly ChildRowCheck[],
    fixed: Record<string, StoredValue> = {},
  ): Promise<FieldChange[]> {
    const { table, collection, child } = set;
    const all = getTableColumns(table) as Record<string, PgColumn>;
    const narrowing = Object.entries(fixed).map(([name, value]) => eq(all[name] as PgColumn, value));
    // Saves of one parent's rows run one at a time, whichever route makes them (the parent's form,
    // a module's own route): two diffs of the same rows could otherwise both insert a row.
    const lockKey = `child:${getTableName(table)}:${auth.tenantId}:${parentId}`;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`);
    const stored: Row[] = await tx
      .select(set.columns)
      .from(table)
      .where(this.scope(set, auth.tenantId, eq(set.parentColumn, parentId), ...narrowing))
      .orderBy(...set.order)
      .for('update');
    const byId = new Map(stored.map((r, i) => [String(r.id), { row: r, position: i + 1 }]));
    const claimed = new Set<string>();
    const uniqueFields = collection.unique?.fields ?? [];
    const removals: { row: Row; position: number }[] = [];
    const updates: { id: string; set: Row; before: Row; position: number }[] = [];
    const inserts: { values: Row; position: number }[] = [];
    const inGroup = new Map<string, number>();
    incoming.forEach((item, index) => {
      const position = index + 1;
      const values: Row = { ...item.values, ...fixed };
      if (collection.orderField) {
        const group = collection.orderGroup ? comparable(values[collection.orderGroup]) : '';
        const rank = (inGroup.get(group) ?? 0) + 1;
        inGroup.set(group, rank);
        values[collection.orderField] = rank;
      }
      if (item.id === undefined) {
        inserts.push({ values, position });
        return;
      }
      const match = byId.get(item.id);
      if (!match || claimed.has(item.id))
        throw badRequest({
          zh: childRowMessage(collection, position, Messages.rowNotFound, 'zh'),
          en: childRowMessage(collection, position, MessagesEn.rowNotFound, 'en'),
        });
      claimed.add(item.id);
      const changed = Object.entries(values).filter(([name, value]) => !same(match.row[name], value));
      if (!changed.length) return;
      if (changed.some(([name]) => uniqueFields.includes(name))) {
        removals.push(match);
        inserts.push({ values, position });
      } else updates.push({ id: item.id, set: Object.fromEntries(changed), before: match.row, position });
    });
    for (const [id, match] of byId) if (!claimed.has(id)) removals.push(match);
    await this.checkReferenced(tx, auth, set, incoming);

    const audit = child.audit !== false;
    const now = new Date();
    if (removals.length)
      await this.deleteRows(
        tx,
        auth,
        set,
        removals.map((r) => String(r.row.id)),
        now,
      );
    for (const u of updates) {
      const values: Row = { ...u.set };
      if (audit) Object.assign(values, { updateUser: auth.userId, updateTime: now });
      await tx
        .update(table)
        .set(values)
        .where(and(rowScope(child, table, auth), eq(table.id, u.id)));
    }
    if (inserts.length)
      await tx
        .insert(table)
        .values(
          inserts.map(({ values }) => newRow(child, { ...values, [collection.parentField]: parentId }, auth, now)),
        );

    const described: ChildRowChange[] = [
      ...removals.map((r) => ({ row: r.position, before: r.row })),
      ...updates.map((u) => ({ row: u.position, before: u.before, after: { ...u.before, ...u.set } })),
      ...inserts.map((i) => ({ row: i.position, after: i.values })),
    ];
    return describeChildChanges(
      child,
      { name: set.name, label: collection.label.zh, omit: [collection.parentField] },
      described,
    );
  }

  /**
   * Every reference a row names must be a live row the caller's tenant may reference, held
   * (`FOR SHARE`) until the write commits: one query per reference field.
   */
  private async checkReferenced(tx: Tx, auth: AuthContext, set: ChildSet, rows: readonly ChildRowCheck[]) {
    for (const ref of set.references) {
      const ids = [...new Set(rows.map((r) => r.values[ref.field]).filter((v): v is string => typeof v === 'string'))];
      if (!ids.length) continue;
      const t = ref.targetTable;
      const found = await tx
        .select({ id: t.id })
        .from(t)
        .where(and(inArray(t.id, ids), rowScope(ref.target, t, auth), ref.allowed))
        .for('share');
      const known = new Set(found.map((f) => String(f.id)));
      const index = rows.findIndex((r) => {
        const v = r.values[ref.field];
        return typeof v === 'string' && !known.has(v);
      });
      if (index >= 0) {
        const label = set.child.fields[ref.field]?.label ?? { zh: ref.field, en: ref.field };
        throw badRequest({
          zh: childRowMessage(set.collection, index + 1, `所选${label.zh}不存在`, 'zh'),
          en: childRowMessage(set.collection, index + 1, `the chosen ${label.en} does not exist`, 'en'),
        });
      }
    }
  }

  private async deleteRows(tx: Tx, auth: AuthContext, set: ChildSet, ids: string[], now: Date) {
    const { table, child } = set;
    if (table.isDeleted) {
      const values: Row = { isDeleted: 1 };
      if (child.audit !== false) Object.assign(values, { updateUser: auth.userId, updateTime: now });
      await tx
        .update(table)
        .set(values)
        .where(and(rowScope(child, table, auth), inArray(table.id, ids)));
    } else {
      await tx.delete(table).where(and(rowScope(child, table, auth), inArray(table.id, ids)));
    }
  }

  /** Removes the child rows of parents being removed, in the parents' transaction. */
  async removeFor(tx: Tx, auth: AuthContext, parentIds: string[]): Promise<void> {
    if (!parentIds.length) return;
    const now = new Date();
    for (const set of this.sets) {
      const rows = await tx
        .select({ id: set.table.id })
        .from(set.table)
        .where(this.scope(set, auth.tenantId, inArray(set.parentColumn, parentIds)));
      if (rows.length)
        await this.deleteRows(
          tx,
          auth,
          set,
          rows.map((r) => String(r.id)),
          now,
        );
    }
  }
}
