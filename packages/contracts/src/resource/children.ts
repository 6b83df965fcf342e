import type { FieldDef, FieldMap, LocalText, ResourceDef } from './define';

/**
 * Child rows (issue 13): rows of another resource that belong to one parent row and are edited,
 * validated, saved and removed with it — a product's model fields, a line's ordered stops. The
 * child is a plain `defineResource` (its table, fields and rules), declared on the parent under
 * the name its rows travel by: the submit body and the detail reply carry them as an array
 * `parent[<name>]`.
 */
export interface ChildCollection {
  /**
   * The child rows' definition. A function, as for references, so that parent and child may
   * name each other. A child that has no screen of its own need not be in the registry; its
   * table then comes from the schema (a link table) or, in a test, from the definition.
   */
  resource: () => ResourceDef;
  /**
   * The child field holding the parent's id (an `id` field, `form: false`). Defaults to the
   * parent field of a child made by {@link defineChildResource}.
   */
  parentField?: string;
  /**
   * The child field holding the row's position (an `int` field, `form: false`): rows keep the
   * order they are sent in, numbered from 1; detail answers them in that order. Defaults to
   * `sort` for a child made by {@link defineChildResource}.
   */
  orderField?: string;
  /**
   * Rows are numbered from 1 within each value of this child field and read grouped by it (a
   * line's stops per direction, as `dept/listByLine` has always numbered them).
   */
  orderGroup?: string;
  /** The collection's name in messages, the form and the operation log (站点). */
  label: LocalText;
  /** Fewest rows a parent may have (default 0). */
  min?: number;
  /** Most rows a parent may have (default 200). */
  max?: number;
  /**
   * No two rows may share the values of these child fields (a stop appears once per direction):
   * refused with `message` naming the later row.
   */
  unique?: { fields: readonly string[]; message: LocalText };
}

export type ChildCollections = Readonly<Record<string, ChildCollection>>;

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
