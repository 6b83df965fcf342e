import type { MenuNode } from '@mes/contracts';

export interface MenuEntry {
  /** The URL the screen opens at. */
  url: string;
  node: MenuNode;
}

/**
 * Every screen a menu forest leads to. A top-level item without children opens at
 * `<path>/index` (spec section 2); deeper items open at their own path.
 */
export function menuEntries(forest: MenuNode[]): MenuEntry[] {
  const out: MenuEntry[] = [];
  const walk = (nodes: MenuNode[], depth: number) => {
    for (const node of nodes) {
      if (node.children?.length) walk(node.children, depth + 1);
      else if (node.path) {
        const url = depth === 0 && !node.path.endsWith('/index') ? `${node.path}/index` : node.path;
        out.push({ url, node });
      }
    }
  };
  walk(forest, 0);
  return out;
}

/** The page module of a screen: `/system/user` → `../pages/system/user/index.tsx`. */
export const pageModuleKey = (url: string) => `../pages${url.replace(/\/index$/, '')}/index.tsx`;
