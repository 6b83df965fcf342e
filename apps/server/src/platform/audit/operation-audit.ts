/**
 * The operation log as a platform audit service: the resource engine records every change it
 * writes (add, update, remove, enable) in the same transaction, through this module only. It
 * lives in the platform because the engine imports no module.
 */
import { formatDateTime, maskCredential, type FieldChange, type OperationKind, type ResourceDef } from '@mes/contracts';
import type { AuthContext } from '../auth/request-auth';
import type { Db } from '../db/database';
import { nextId } from '../db/ids';
import { operationLog } from '../db/schema';
import { MASK, SECRET_NAME, truncate } from './redaction';

/** The transaction of the change being recorded. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Longest before / after text kept per field. */
const MAX_VALUE = 500;
/** Bookkeeping columns, not the user's change (unless the resource declares them as fields). */
const IGNORED = new Set([
  'id',
  'tenantId',
  'createUser',
  'createDept',
  'createTime',
  'updateUser',
  'updateTime',
  'isDeleted',
]);

function shown(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return formatDateTime(value);
  if (typeof value === 'object') return truncate(JSON.stringify(value), MAX_VALUE);
  return truncate(String(value), MAX_VALUE);
}

/**
 * The fields a submit changes, before → after, as a reader of the log may see them: secrets
 * (by kind or by name) only as `******`, masked credentials only in part. Adding lists every
 * value given; updating lists only values that differ.
 */
export function describeChanges(
  def: ResourceDef,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [name, value] of Object.entries(after)) {
    if (IGNORED.has(name) && !def.fields[name]) continue;
    const field = def.fields[name];
    const label = field?.label.zh ?? name;
    if (field?.kind === 'secret') {
      // A stored secret is never read back, so a submitted one counts as a change.
      if (value === undefined || value === null || value === '') continue;
      changes.push({ field: name, label, before: before ? MASK : null, after: MASK });
      continue;
    }
    const old = before ? shown(before[name]) : null;
    const now = shown(value);
    if (before ? old === now : now === null || now === '') continue;
    // Masked credentials appear in part, as in every reply; other secret-named values not at all.
    const masked = field?.kind === 'string' && field.masked === true;
    const hidden = !masked && SECRET_NAME.test(name);
    const show = (text: string | null) => {
      if (text === null || text === '') return text;
      if (masked) return maskCredential(text);
      return hidden ? MASK : text;
    };
    changes.push({ field: name, label, before: before ? show(old) : null, after: show(now) });
  }
  return changes;
}

export interface OperationEntry {
  def: ResourceDef;
  auth: AuthContext;
  operation: OperationKind;
  ids: readonly string[];
  changes?: FieldChange[];
  at: Date;
}

/** Writes one operation-log row in the transaction of the change it records. */
export async function recordOperation(tx: Tx, entry: OperationEntry): Promise<void> {
  await tx.insert(operationLog).values({
    id: nextId(),
    tenantId: entry.auth.tenantId,
    title: entry.def.title.zh.slice(0, 64),
    resourceCode: entry.def.code.slice(0, 64),
    operation: entry.operation,
    ids: entry.ids.join(','),
    changes: JSON.stringify(entry.changes ?? []),
    createBy: entry.auth.account.slice(0, 64),
    createUser: entry.auth.userId,
    createTime: entry.at,
  });
}

/** One child row a submit added (`after`), removed (`before`) or changed (both); `row` counts from 1. */
export interface ChildRowChange {
  row: number;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/**
 * The child rows a submit changed (issue 13), as entries of the parent's own record: an added or
 * removed row as one entry summing up its values (`站点第 2 行`: `节点: 1001; 方向: 1`), a changed
 * row as one entry per changed field (`站点第 2 行 方向`: 1 → 2). The same redaction applies as
 * to the parent's fields; only the child's declared fields appear, less `omit` (the parent id).
 */
export function describeChildChanges(
  child: ResourceDef,
  collection: { name: string; label: string; omit: readonly string[] },
  rows: readonly ChildRowChange[],
): FieldChange[] {
  const kept = (values: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(values).filter(([name]) => child.fields[name] !== undefined && !collection.omit.includes(name)),
    );
  const summary = (values: Record<string, unknown>) =>
    truncate(
      describeChanges(child, undefined, kept(values))
        .map((c) => `${c.label}: ${c.after ?? ''}`)
        .join('; '),
      MAX_VALUE,
    );
  const out: FieldChange[] = [];
  for (const { row, before, after } of rows) {
    const where = `${collection.label}第 ${row} 行`;
    const field = `${collection.name}[${row}]`;
    if (before && after) {
      for (const change of describeChanges(child, kept(before), kept(after)))
        out.push({ ...change, field: `${field}.${change.field}`, label: `${where} ${change.label}` });
    } else if (after) {
      out.push({ field, label: where, before: null, after: summary(after) });
    } else if (before) {
      out.push({ field, label: where, before: summary(before), after: null });
    }
  }
  return out;
}
