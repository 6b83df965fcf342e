import type { LocalText } from './local-text';
import type { MenuGroupCode } from './menu-groups';

/**
 * `action` of a seeded button (the `button_func` dictionary): where the screen shows it.
 * 1 the toolbar, 2 each row, 3 both.
 */
export type ButtonPosition = 1 | 2 | 3;

/** A button a screen has beyond the generic add / edit / delete / view / export. */
export interface MenuButtonDef {
  /** The action: the button's code is `<screen>_<action>` (`user_reset`). */
  action: string;
  name: LocalText;
  /** Default 2 (each row). */
  position?: ButtonPosition;
}

/** An API scope beyond the generic `<code>:read` and `<code>:write`. */
export interface MenuScopeDef {
  /** The scope's code is `<screen>:<action>` (`user:grant`). */
  action: string;
  /** Its name in the API-scope screen (`blade_scope_api.scope_name`, Chinese like the rest). */
  name: string;
  /** The routes it opens, as a `scopePath` pattern: `/api/blade-user/grant`, `/api/x/{a,b}`, `/api/y/**`. */
  path: string;
}

/** One system dictionary (`blade_dict`): a parent row and its entries, sealed. */
export interface SystemDictionaryDef {
  code: string;
  /** The parent row's `dictValue`. */
  name: string;
  /**
   * Entries in display order: [dictKey, dictValue, English]. The English label is what the web
   * shows in English; a sealed dictionary's labels never change, so it lives here, not in a
   * column. Required when the value has Chinese characters (`registryProblems` checks).
   */
  entries: readonly (readonly [key: string, value: string, english?: string])[];
}

/**
 * Where a screen sits in the side menu and what it adds to the generic buttons and API scopes.
 * The registry (`packages/contracts/src/definitions/registry.ts`) turns it into seeded menu, button
 * and API-scope rows, grants them to administrators, and the web app finds the screen by `path`.
 */
export interface ResourceMenu {
  /** The menu group (`MENU_GROUP_DEFS`) the screen belongs to. */
  group: MenuGroupCode;
  /** Position inside the group. */
  sort: number;
  /** Icon name (the `source` column of the menu). */
  icon: string;
  /** The screen's URL; default `<group path>/<code>` (`/system/post`). */
  path?: string;
  /** English name of the screen when it differs from the definition's `title.en`. */
  nameEn?: string;
  /** Buttons beyond the generic ones. */
  buttons?: readonly MenuButtonDef[];
  /** API scopes beyond `<code>:read` and `<code>:write`. */
  scopes?: readonly MenuScopeDef[];
  /**
   * Only the platform tenant uses the screen: tenants' administrator roles are never granted it,
   * its buttons or its scopes.
   */
  platformOnly?: boolean;
  /**
   * System dictionaries the definition's `{ dict }` fields read that no other definition
   * declares; seeded with the menus (shared ones live in `SYSTEM_DICTIONARIES`).
   */
  dictionaries?: readonly SystemDictionaryDef[];
}

/**
 * A menu screen that is not a generic resource (a report, a dashboard, a tool): no table and no
 * generic routes, only its menu entry, its own buttons and API scopes. Its module registers its
 * routes, and the web app has a page folder at its path.
 */
export interface ScreenDef {
  kind: 'screen';
  /** Menu code, button prefix and API-scope prefix. */
  code: string;
  title: LocalText;
  menu: ResourceMenu;
}

/** Declares a screen that is not a generic resource. */
export const defineScreen = (def: Omit<ScreenDef, 'kind'>): ScreenDef => ({ kind: 'screen', ...def });
