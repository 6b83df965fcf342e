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

/** A menu's name in `language`: the English one in English when it has one, else the Chinese. */
export const menuLabel = (node: Pick<MenuNode, 'name' | 'nameEn'>, language: string): string =>
  // nameEn is missing from menus a session stored before it existed, hence `||` and not `??`.
  (language.startsWith('en') && node.nameEn) || node.name;

/** The label of the menu screen opening at `url`, or undefined when no screen does. */
export function menuTitleAt(forest: MenuNode[], url: string, language: string): string | undefined {
  const entry = menuEntries(forest).find((e) => e.url === url);
  return entry && menuLabel(entry.node, language);
}
