/** Menu categories: 1 is a screen or group, 2 is a button inside a screen. */
export const MenuCategory = { MENU: 1, BUTTON: 2 } as const;

/**
 * A node of `GET /api/blade-system/menu/routes` and `/menu/buttons`.
 * `children` is omitted when empty: clients read a present array as "has children".
 */
export interface MenuNode {
  id: string;
  parentId: string;
  code: string;
  name: string;
  /** The name shown in English; '' when none was given (clients fall back to `name`). */
  nameEn: string;
  alias: string;
  path: string;
  /** Icon name. */
  source: string;
  sort: number;
  category: number;
  action: number;
  /** 2 opens `path` as an external link in a new window. */
  isOpen: number;
  remark: string;
  hasChildren: boolean;
  children?: MenuNode[];
}

/** One dictionary entry as `dict/dictionary?code=` returns it. */
export interface DictEntry {
  id: string;
  parentId: string;
  code: string;
  dictKey: string;
  dictValue: string;
  sort: number;
  remark: string;
  isSealed: number;
}
