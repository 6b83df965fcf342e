import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { invalidParamText, type ResourceDef, type StoredValue } from '@mes/contracts';
import type { AnyResourceTable } from '../../engine/resource-access';
import { rowScope } from '../../engine/resource-access';
import type { ChangeArgs, RemoveArgs, ResourceHooks, Row } from '../../engine/resource-routes';
import { isAdministrator, type AuthContext } from '../../platform/auth/request-auth';
import { badRequest } from '../../platform/http/errors';
import { isId } from '../../platform/db/ids';

/** The columns the dictionary rules use; `dict` and `dictBiz` both have them. */
export interface DictColumns {
  id: PgColumn;
  parentId: PgColumn;
  code: PgColumn;
  dictKey: PgColumn;
  dictValue: PgColumn;
  sort: PgColumn;
  remark: PgColumn;
  isSealed: PgColumn;
  isDeleted: PgColumn;
  tenantId?: PgColumn;
}

export type DictTable = AnyResourceTable & DictColumns;

export const DictMessages = {
  keyExists: { zh: '当前字典键值已存在', en: 'This dictionary key already exists' },
  codeExists: { zh: '当前字典编号已存在', en: 'This dictionary code already exists' },
  sealedEdit: { zh: '封存的字典不能修改', en: 'A sealed dictionary cannot be changed' },
  sealedRemove: { zh: '封存的字典不能删除', en: 'A sealed dictionary cannot be deleted' },
  parentMissing: { zh: '上级字典不存在', en: 'The parent dictionary does not exist' },
  parentNotTop: { zh: '上级字典必须是顶级字典', en: 'The parent must be a top-level dictionary' },
  levelChange: {
    zh: '顶级字典与字典项不能互相转换',
    en: 'A top-level dictionary and a dictionary entry cannot be turned into each other',
  },
} as const;

/** `parentId` of a dictionary (a parent); its entries point at it. */
export const ROOT_ID = '0';
/** BladeX marks a parent with this `dictKey`. */
export const ROOT_KEY = '-1';

type Tx = ChangeArgs['tx'];

const isSealed = (row: Row | undefined) => Number(row?.isSealed) === 1;

/**
 * Serialises the uniqueness checks of one scope (a dictionary's entries, or the parents of a
 * tenant) until the transaction ends: the tables have no unique index on these keys, so two
 * concurrent submits could otherwise both pass the check.
 */
async function lockScope(tx: Tx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/**
 * The dictionary rules of one table (system or business), hooked into the generic submit and
 * remove. Entries inherit their parent's `code`; a parent's `dictKey` is `-1`; keys are unique
 * within a dictionary and codes among parents; sealed rows only change by the platform
 * administrator.
 */
export function dictHooks(def: ResourceDef, table: DictTable): ResourceHooks {
  const keyRequired = def.fields.dictKey?.requiredMessage?.zh ?? '请输入字典键值';
  const scopeKey = (auth: AuthContext, part: string) => `${def.table}:${table.tenantId ? auth.tenantId : '*'}:${part}`;

  const firstRow = async (tx: Tx, where: SQL | undefined) =>
    (await tx.select({ id: table.id }).from(table).where(where).limit(1))[0];

  /** A parent: unique code among the parents, key `-1`; a changed code must not touch sealed entries. */
  async function checkParent({ tx, auth, values, existing }: ChangeArgs): Promise<void> {
    values.dictKey = ROOT_KEY;
    const code = String(values.code ?? existing?.code ?? '');
    await lockScope(tx, scopeKey(auth, 'parents'));
    const duplicate = await firstRow(
      tx,
      and(
        rowScope(def, table, auth),
        eq(table.parentId, ROOT_ID),
        eq(table.code, code),
        existing ? ne(table.id, String(existing.id)) : undefined,
      ),
    );
    if (duplicate) throw badRequest(DictMessages.codeExists);
    if (existing && code !== existing.code && !isAdministrator(auth)) {
      const sealedEntry = await firstRow(
        tx,
        and(rowScope(def, table, auth), eq(table.parentId, String(existing.id)), eq(table.isSealed, 1)),
      );
      if (sealedEntry) throw badRequest(DictMessages.sealedEdit);
    }
  }

  /** An entry: its parent is a live parent of the same dictionary table and tenant. */
  async function checkEntry({ tx, auth, adding, values, existing }: ChangeArgs, parentId: string): Promise<void> {
    if (adding && values.dictKey === undefined) throw badRequest(keyRequired);
    const moving = adding || parentId !== String(existing?.parentId);
    const query = tx
      .select({ parentId: table.parentId, code: table.code })
      .from(table)
      .where(and(rowScope(def, table, auth), eq(table.id, parentId)))
      .limit(1);
    // Holding the new parent keeps its code from changing before this entry is written; an
    // entry that stays put needs no lock: a concurrent code change updates it after this commits.
    const [parent] = moving ? await query.for('share') : await query;
    if (!parent) throw badRequest(DictMessages.parentMissing);
    if (String(parent.parentId) !== ROOT_ID) throw badRequest(DictMessages.parentNotTop);
    values.code = String(parent.code);
    const dictKey = String(values.dictKey ?? existing?.dictKey ?? '');
    await lockScope(tx, scopeKey(auth, `entries:${parentId}`));
    const duplicate = await firstRow(
      tx,
      and(
        rowScope(def, table, auth),
        eq(table.parentId, parentId),
        eq(table.dictKey, dictKey),
        existing ? ne(table.id, String(existing.id)) : undefined,
      ),
    );
    if (duplicate) throw badRequest(DictMessages.keyExists);
  }

  return {
    listParams: {
      names: ['parentId'],
      where(query) {
        const raw = query.parentId;
        if (raw === undefined || raw === '') return undefined;
        if (typeof raw !== 'string' || !isId(raw))
          throw badRequest(invalidParamText('parentId', { zh: '应为编号', en: 'must be an id' }));
        return eq(table.parentId, raw);
      },
    },

    async beforeChange(args) {
      const { auth, values, existing } = args;
      // Unsealing is editing: only the platform administrator may change a sealed row at all.
      if (isSealed(existing) && !isAdministrator(auth)) throw badRequest(DictMessages.sealedEdit);
      const parentId = String(values.parentId ?? existing?.parentId ?? ROOT_ID);
      if (existing && (String(existing.parentId) === ROOT_ID) !== (parentId === ROOT_ID))
        throw badRequest(DictMessages.levelChange);
      if (parentId === ROOT_ID) await checkParent(args);
      else await checkEntry(args, parentId);
    },

    /** A parent's new code reaches its entries in the same transaction. */
    async afterChange({ tx, auth, values, existing, id }) {
      if (!existing || String(existing.parentId) !== ROOT_ID) return;
      const code: StoredValue = values.code;
      if (code === undefined || code === existing.code) return;
      const set: Row = { code, updateUser: auth.userId, updateTime: new Date() };
      await tx
        .update(table)
        .set(set)
        .where(and(rowScope(def, table, auth), eq(table.parentId, id)));
    },

    async beforeRemove({ auth, rows }: RemoveArgs) {
      if (!isAdministrator(auth) && rows.some(isSealed)) throw badRequest(DictMessages.sealedRemove);
    },
  };
}
