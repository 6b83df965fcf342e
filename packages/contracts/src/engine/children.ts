import type { ChildCollection, FieldDef, FieldMap, LocalText, ResourceDef } from './define';

/*
 * Child rows (issue 13): the helpers over a definition's `children`. The collection types live in
 * define.ts beside `ResourceDef`, which holds them and which they name back.
 */

/** Most rows of one collection when the definition sets no `max`: a form is not a data import. */
export const DEFAULT_MAX_CHILD_ROWS = 200;

/** A collection with its parent and order fields settled (declared, or the child's own). */
export type ResolvedChildCollection = ChildCollection & { parentField: string };

/** The collections of a definition with their child definitions, in declaration order. */
export function childCollectionsOf(
  def: ResourceDef,
): { name: string; collection: ResolvedChildCollection; child: ResourceDef }[] {
  return Object.entries(def.children ?? {}).map(([name, declared]) => {
    const child = declared.resource();
    const parentField = declared.parentField ?? child.childOf?.field;
    if (!parentField) throw new Error(`${def.code}.${name}: ${child.code} names no parent field`);
    const orderField = declared.orderField ?? child.childOf?.orderField;
    return { name, collection: { ...declared, parentField, ...(orderField ? { orderField } : {}) }, child };
  });
}

/** `「站点」第 2 行: 请选择节点` — where a child row's message points. */
export function childRowMessage(collection: ChildCollection, row: number, message: string, lang: 'zh' | 'en'): string {
  return lang === 'zh'
    ? `「${collection.label.zh}」第 ${row} 行: ${message}`
    : `${collection.label.en}, row ${row}: ${message}`;
}

/** The field every child definition made by `defineChildResource` keeps its position in. */
export const CHILD_ORDER_FIELD = 'sort';

/**
 * A child definition with what every child of a tenant-owned parent has: the tenant owner, no
 * routes of its own (its rows travel inside the parent's), the parent id field first, an index
 * by tenant and parent (detail reads a parent's rows), and the order field `sort` last.
 */
export function defineChildResource<const P extends string, F extends FieldMap>(
  def: Omit<ResourceDef<F>, 'owner' | 'operations' | 'indexes' | 'childOf'> & {
    parent: { field: P; label: LocalText };
  },
): ResourceDef<Record<P, FieldDef> & F & Record<typeof CHILD_ORDER_FIELD, FieldDef>> & { owner: 'tenant' } {
  const { parent, fields, ...rest } = def;
  return {
    ...rest,
    owner: 'tenant',
    operations: [],
    childOf: { field: parent.field, orderField: CHILD_ORDER_FIELD },
    indexes: [{ fields: ['tenantId', parent.field] }],
    fields: {
      [parent.field]: { kind: 'id', label: parent.label, form: false, list: false },
      ...fields,
      [CHILD_ORDER_FIELD]: { kind: 'int', label: { zh: '顺序', en: 'Order' }, form: false, default: 0 },
    } as Record<P, FieldDef> & F & Record<typeof CHILD_ORDER_FIELD, FieldDef>,
  };
}
