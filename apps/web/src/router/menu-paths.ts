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

/**
 * Page folders whose name differs from their menu URL. The URLs are the family's (the Saber client,
 * seeded menus, bookmarks and menus administrators made all use them), so they stay; a folder says
 * what the screen is. The first match wins.
 */
export const PAGE_FOLDERS: readonly (readonly [url: string, folder: string])[] = [
  ['/work/work_claim', '/my-work/claim'],
  ['/work/work_done', '/my-work/done'],
  ['/work/work_send', '/my-work/sent'],
  ['/work/work_start', '/my-work/start'],
  ['/work/work_todo', '/my-work/todo'],
  ['/flow/flow_follow', '/workflow/instances'],
  ['/flow/flow_manager', '/workflow/deployments'],
  ['/flow/flow_model', '/workflow/models'],
  ['/business/pack_scan', '/business/pack-scan'],
  ['/business/pack_trace', '/business/pack-trace'],
  ['/report/report_file', '/report/files'],
  ['/report/report_template', '/report/templates'],
  ['/report/acqdata', '/report/acquisition-data'],
  ['/report/operlog', '/report/operation-log'],
  ['/tool/code', '/tool/code-generator'],
  ['/system/dictbiz', '/system/business-dict'],
  ['/system/topmenu', '/system/top-menu'],
  ['/authority/apiscope', '/authority/api-scope'],
  ['/authority/datascope', '/authority/data-scope'],
  ['/resource/attach', '/providers/attachments'],
  ['/resource/oss', '/providers/oss'],
  ['/resource/sms', '/providers/sms'],
];

/** The page module of a screen: `/system/user` → `../pages/system/user/index.tsx`, `/tool/code` → `../pages/tool/code-generator/index.tsx`. */
export function pageModuleKey(url: string): string {
  const path = url.replace(/\/index$/, '');
  const renamed = PAGE_FOLDERS.find(([from]) => path === from || path.startsWith(`${from}/`));
  const folder = renamed ? renamed[1] + path.slice(renamed[0].length) : path;
  return `../pages${folder}/index.tsx`;
}

/** A menu's name in `language`: the English one in English when it has one, else the Chinese. */
export const menuLabel = (node: Pick<MenuNode, 'name' | 'nameEn'>, language: string): string =>
  // nameEn is missing from menus a session stored before it existed, hence `||` and not `??`.
  (language.startsWith('en') && node.nameEn) || node.name;

/** The label of the menu screen opening at `url`, or undefined when no screen does. */
export function menuTitleAt(forest: MenuNode[], url: string, language: string): string | undefined {
  const entry = menuEntries(forest).find((e) => e.url === url);
  return entry && menuLabel(entry.node, language);
}
