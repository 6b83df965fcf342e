import type { Row } from '../resource-hooks';

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
