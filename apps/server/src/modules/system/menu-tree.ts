import type { MenuNode } from '@mes/contracts';

export interface MenuRowLike {
  id: string;
  parentId: string;
  code: string;
  name: string;
  nameEn: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: number;
  action: number;
  isOpen: number;
  remark: string;
}

/**
 * Builds a forest sorted by `sort` (then id) from flat rows. A row whose parent is not among the
 * rows becomes a root. `children` is omitted when empty, as clients read its presence.
 */
export function buildMenuForest(rows: MenuRowLike[]): MenuNode[] {
  const nodes = new Map<string, MenuNode>();
  for (const r of rows) {
    nodes.set(r.id, {
      id: r.id,
      parentId: r.parentId,
      code: r.code,
      name: r.name,
      nameEn: r.nameEn,
      alias: r.alias,
      path: r.path,
      source: r.source,
      sort: r.sort,
      category: r.category,
      action: r.action,
      isOpen: r.isOpen,
      remark: r.remark,
      hasChildren: false,
    });
  }
  const roots: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId !== '0' ? nodes.get(node.parentId) : undefined;
    if (parent) {
      (parent.children ??= []).push(node);
      parent.hasChildren = true;
    } else {
      roots.push(node);
    }
  }
  const order = (a: MenuNode, b: MenuNode) => a.sort - b.sort || (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
  const sortDeep = (list: MenuNode[]) => {
    list.sort(order);
    for (const n of list) if (n.children) sortDeep(n.children);
  };
  sortDeep(roots);
  return roots;
}

/**
 * Drops the groups the caller can open nothing in: a row that is a parent of some live screen
 * (`parents`, over every live menu) but has none of those screens among `rows` would open as a
 * page of its own, which a group is not (issue 30: 研发工具 opened 该页面尚未开放 for a tenant
 * administrator holding the group but none of its platform-only screens). Repeated up the tree,
 * so a group of such groups goes too. Rows that are not parents anywhere (screens) stay.
 */
export function withoutEmptyGroups<R extends { id: string; parentId: string }>(
  rows: readonly R[],
  parents: ReadonlySet<string>,
): R[] {
  let kept = [...rows];
  for (;;) {
    const withChildren = new Set(kept.map((r) => r.parentId));
    const next = kept.filter((r) => !parents.has(r.id) || withChildren.has(r.id));
    if (next.length === kept.length) return kept;
    kept = next;
  }
}
