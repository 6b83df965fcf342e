import type { ChildrenCheck } from '@mes/contracts';
import type { ResourceHooks } from '../resource-hooks';
import type { ChildRows } from './child-rows';

/** What the hooks use of a definition's child rows (child-rows.ts). */
export type ChildRowStore = Pick<ChildRows, 'check' | 'save' | 'attach' | 'removeFor'>;

/**
 * The lifecycle of a definition's child collections around the module's own hooks: checked with
 * the parent's fields (before the transaction), saved by diff right after the parent's write and
 * before the module's `afterChange` (which may read them), their changes in the parent's operation
 * record; read into the parent's `detail`; removed with the parent, in its transaction.
 */
export function childRowHooks(
  children: ChildRowStore,
  reader: Parameters<ChildRows['attach']>[0],
  own: ResourceHooks | undefined,
): ResourceHooks {
  // The check's result, by the body it checked: the save, in the transaction, writes what it kept.
  const checked = new WeakMap<Record<string, unknown>, ChildrenCheck>();
  return {
    ...own,
    validate(body, adding) {
      own?.validate?.(body, adding);
      checked.set(body, children.check(body, adding));
    },
    async afterChange(args) {
      const rows = checked.get(args.body) ?? children.check(args.body, args.adding);
      args.logChanges(await children.save(args.tx, args.auth, args.id, rows));
      await own?.afterChange?.(args);
    },
    async decorateDetail(row, auth) {
      const decorated = own?.decorateDetail ? await own.decorateDetail(row, auth) : row;
      const [withChildren] = await children.attach(reader, auth, [decorated]);
      return withChildren ?? decorated;
    },
    async afterRemove(args) {
      await children.removeFor(
        args.tx,
        args.auth,
        args.rows.map((row) => String(row.id)),
      );
      await own?.afterRemove?.(args);
    },
  };
}
