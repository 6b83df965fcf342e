import type { TreeDataNode } from 'antd';

/** A node of the picker and grant trees (CONTRACT.md "Trees"). */
export interface TreeNode {
  id: string;
  parentId?: string;
  title: string;
  key?: string;
  value?: string;
  children?: TreeNode[];
  hasChildren?: boolean;
}

export const keyOf = (node: TreeNode) => String(node.key ?? node.id);

/** antd's tree nodes; an empty `children` is dropped so the node reads as a leaf. */
export function toDataNodes(nodes: readonly TreeNode[]): TreeDataNode[] {
  return nodes.map((n) => ({
    key: keyOf(n),
    title: n.title,
    children: n.children?.length ? toDataNodes(n.children) : undefined,
  }));
}

function walk(nodes: readonly TreeNode[], visit: (node: TreeNode, ancestors: string[]) => void, above: string[] = []) {
  for (const n of nodes) {
    visit(n, above);
    if (n.children?.length) walk(n.children, visit, [...above, keyOf(n)]);
  }
}

export function leafKeys(nodes: readonly TreeNode[]): Set<string> {
  const out = new Set<string>();
  walk(nodes, (n) => {
    if (!n.children?.length) out.add(keyOf(n));
  });
  return out;
}

/**
 * The stored keys a cascading tree should show as checked: only its leaves. A parent key is
 * stored whenever any child is granted, and handing it to antd would tick all its children.
 */
export function checkedLeaves(keys: readonly string[], nodes: readonly TreeNode[]): string[] {
  const leaves = leafKeys(nodes);
  return keys.map(String).filter((k) => leaves.has(k));
}

/** The checked keys plus every ancestor of one (the half-checked parents), in tree order. */
export function withAncestors(keys: readonly string[], nodes: readonly TreeNode[]): string[] {
  const wanted = new Set(keys);
  const out = new Set<string>();
  walk(nodes, (n, ancestors) => {
    if (!wanted.has(keyOf(n))) return;
    for (const a of ancestors) out.add(a);
    out.add(keyOf(n));
  });
  return [...out];
}

/** `"1,2"`, `[1, 2]` or nothing as a list of id strings. */
export function idList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).filter(Boolean);
  if (typeof value === 'string' || typeof value === 'number')
    return String(value)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}
