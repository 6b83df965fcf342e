interface Linked {
  id: string;
  parentId: string;
}

/** `rootId` and every row below it, for refusing a parent that would close a cycle. */
export function subtreeIds(rows: readonly Linked[], rootId: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const r of rows) {
    const list = children.get(r.parentId);
    if (list) list.push(r.id);
    else children.set(r.parentId, [r.id]);
  }
  const found = new Set<string>([rootId]);
  const pending = [rootId];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    for (const child of children.get(id) ?? []) {
      if (!found.has(child)) {
        found.add(child);
        pending.push(child);
      }
    }
  }
  return found;
}
