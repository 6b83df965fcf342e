import { and, eq, getTableColumns, inArray, notInArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { isAggregate, type ReferenceRemoval, type ResourceDef, type StoredValue } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { recordOperation } from '../../platform/audit/operation-audit';
import type { AuthContext } from '../../platform/auth/request-auth';
import { badRequest } from '../../platform/http/errors';
import type { ReferenceJoin } from '../display-names';
import { rowScope, type AnyResourceTable } from '../resource-access';
import type { Row, Tx } from '../resource-hooks';

// The kernel's reference checks: a write names live rows its tenant may reference, a row whose
// matched field changes is not left with referrers on the old value, and a remove refuses or
// clears what references the rows it removes.

/** Two stored values compared as text, NULL as empty: ids travel as text, columns may read as numbers. */
const sameValue = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');

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

/**
 * Notes a resource's reference fields as referrers of their targets (once per app, resource and
 * field: a module may build a second service of the same resource).
 */
export function noteReferrers(
  ctx: AppContext,
  def: ResourceDef,
  table: AnyResourceTable,
  references: readonly ReferenceJoin[],
): void {
  // An aggregate's rows are other tables' rows: they are those tables' referrers, not its own.
  if (isAggregate(def)) return;
  const tableColumns = getTableColumns(table) as Record<string, PgColumn>;
  const referrers = referrersOf(ctx);
  for (const ref of references) {
    const onRemove = def.fields[ref.field]?.reference?.onRemove ?? 'refuse';
    const column = tableColumns[ref.field] as PgColumn;
    const matchColumn = ref.matches ? tableColumns[ref.matches.field] : undefined;
    const matches =
      ref.matches && matchColumn ? { targetField: ref.matches.targetField, column: matchColumn } : undefined;
    const list = referrers.get(ref.target.code) ?? [];
    if (!list.some((r) => r.def.code === def.code && r.field === ref.field))
      list.push({ def, table, field: ref.field, column, onRemove, matches });
    referrers.set(ref.target.code, list);
  }
}

/**
 * Every referenced row a write names must be a live row the caller's tenant may reference.
 * `FOR SHARE` holds it until the write commits, so a concurrent remove of the target waits
 * and then sees the new reference (or this write sees the target gone).
 */
export async function checkReferenced(
  tx: Tx,
  def: ResourceDef,
  references: readonly ReferenceJoin[],
  values: Record<string, StoredValue>,
  existing: Row | undefined,
  auth: AuthContext,
): Promise<void> {
  const row: Row = { ...existing, ...values };
  for (const ref of references) {
    const matches = ref.matches;
    // A reference is checked when it is written, and when the field it must match changes.
    const sent = ref.field in values || (matches !== undefined && matches.field in values);
    const id = row[ref.field];
    if (!sent || typeof id !== 'string') continue;
    const t = ref.targetTable;
    const label = def.fields[ref.field]?.label ?? { zh: ref.field, en: ref.field };
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
      const other = def.fields[matches.field]?.label ?? { zh: matches.field, en: matches.field };
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
export async function checkReferrersMatch(
  tx: Tx,
  ctx: AppContext,
  def: ResourceDef,
  id: string,
  values: Record<string, StoredValue>,
  auth: AuthContext,
): Promise<void> {
  for (const referrer of referrersOf(ctx).get(def.code) ?? []) {
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
      const label = def.fields[matches.targetField]?.label ?? {
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
export async function releaseReferences(
  tx: Tx,
  ctx: AppContext,
  def: ResourceDef,
  table: AnyResourceTable,
  ids: string[],
  auth: AuthContext,
  afterCommit: (task: () => Promise<void>) => void,
): Promise<void> {
  const referrers = referrersOf(ctx).get(def.code) ?? [];
  for (const referrer of referrers) {
    const t = referrer.table;
    // Rows removed together with their targets (a reference to the same resource) do not count.
    const notRemovedToo = t === table ? notInArray(t.id, ids) : undefined;
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
      for (const tenant of tenants) await ctx.totals.changed(referrer.def.code, tenant);
    });
  }
}
