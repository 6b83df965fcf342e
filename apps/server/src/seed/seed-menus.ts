import {
  MENU_GROUP_DEFS,
  menuPathOf,
  REGISTRY,
  registryProblems,
  screenButtonsOf,
  screenScopesOf,
  systemDictionariesOf,
  type RegistryEntry,
} from '@mes/contracts';
import { apiScopeSeedId, dictEntrySeedId, dictSeedId, menuSeedId } from './seed-ids';

/**
 * The menus, buttons, API scopes and system dictionaries the seed writes, all derived from the
 * registry's definitions (each declares its place in the menu, its own buttons and scopes, and
 * the dictionaries it needs); ids come from codes (`seed-ids.ts`).
 */

export interface SeedMenu {
  id: string;
  parentId: string;
  code: string;
  name: string;
  nameEn: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: 1 | 2;
  action: number;
}

export interface SeedApiScope {
  id: string;
  menuId: string;
  resourceCode: string;
  scopeName: string;
  scopePath: string;
  scopeType: number;
}

export interface SeedDictRow {
  id: string;
  parentId: string;
  code: string;
  dictKey: string;
  dictValue: string;
  sort: number;
  isSealed: number;
}

/** A screen of the side menu as seeded, with the definition it comes from. */
export interface SeedScreen {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  source: string;
  /** Only the platform tenant uses it; tenants' administrator roles are not granted it. */
  platformOnly: boolean;
  entry: RegistryEntry;
}

export interface SeedGroup {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  source: string;
  sort: number;
  screens: readonly SeedScreen[];
}

export interface SeedSet {
  groups: readonly SeedGroup[];
  /** Groups first, then screens, then buttons: every row after its parent. */
  menus: readonly SeedMenu[];
  apiScopes: readonly SeedApiScope[];
  dicts: readonly SeedDictRow[];
  /** Menu ids a tenant's administrator role is never granted (platform-only screens and their buttons). */
  platformOnly: ReadonlySet<string>;
}

const MENU = 1;
const BUTTON = 2;

function groupsOf(entries: readonly RegistryEntry[]): SeedGroup[] {
  return MENU_GROUP_DEFS.map((group) => ({
    code: group.code,
    name: group.title.zh,
    nameEn: group.title.en,
    path: group.path,
    source: group.icon,
    sort: group.sort,
    screens: entries
      .filter((e) => e.menu?.group === group.code)
      .sort((a, b) => (a.menu?.sort ?? 0) - (b.menu?.sort ?? 0) || a.code.localeCompare(b.code))
      .map((entry) => ({
        code: entry.code,
        name: entry.title.zh,
        nameEn: entry.menu?.nameEn ?? entry.title.en,
        path: menuPathOf(entry) ?? '',
        source: entry.menu?.icon ?? '',
        platformOnly: entry.menu?.platformOnly ?? false,
        entry,
      })),
  })).filter((group) => group.screens.length > 0);
}

function dictRowsOf(entries: readonly RegistryEntry[]): SeedDictRow[] {
  return systemDictionariesOf(entries).flatMap(({ code, name, entries: items }, d) => {
    const parentId = dictSeedId(code);
    return [
      { id: parentId, parentId: '0', code, dictKey: '-1', dictValue: name, sort: d + 1, isSealed: 1 },
      ...items.map(([dictKey, dictValue], i) => ({
        id: dictEntrySeedId(code, dictKey),
        parentId,
        code,
        dictKey,
        dictValue,
        sort: i + 1,
        isSealed: 1,
      })),
    ];
  });
}

function assertDistinct(what: string, rows: readonly { id: string; code: string }[]): void {
  const byId = new Map<string, string>();
  for (const { id, code } of rows) {
    const other = byId.get(id);
    if (other !== undefined) throw new Error(`seed: ${what} ${code} and ${other} got the same id ${id}; rename one`);
    byId.set(id, code);
  }
}

/** The seed rows of a list of definitions; refuses a list `registryProblems` finds fault with. */
export function buildSeed(entries: readonly RegistryEntry[]): SeedSet {
  const problems = registryProblems(entries);
  if (problems.length) throw new Error(`registry: ${problems.join('; ')}`);
  const groups = groupsOf(entries);
  const groupRows: SeedMenu[] = [];
  const screenRows: SeedMenu[] = [];
  const buttonRows: SeedMenu[] = [];
  const apiScopes: SeedApiScope[] = [];
  const platformOnly = new Set<string>();
  for (const group of groups) {
    const groupId = menuSeedId(group.code);
    groupRows.push({
      id: groupId,
      parentId: '0',
      code: group.code,
      name: group.name,
      nameEn: group.nameEn,
      alias: 'menu',
      path: group.path,
      source: group.source,
      sort: group.sort,
      category: MENU,
      action: 0,
    });
    for (const screen of group.screens) {
      const screenId = menuSeedId(screen.code);
      screenRows.push({
        id: screenId,
        parentId: groupId,
        code: screen.code,
        name: screen.name,
        nameEn: screen.nameEn,
        alias: 'menu',
        path: screen.path,
        source: screen.source,
        sort: screen.entry.menu?.sort ?? 0,
        category: MENU,
        action: 0,
      });
      if (screen.platformOnly) platformOnly.add(screenId);
      screenButtonsOf(screen.entry).forEach((button, b) => {
        const id = menuSeedId(button.code);
        buttonRows.push({
          id,
          parentId: screenId,
          code: button.code,
          name: button.name.zh,
          nameEn: button.name.en,
          alias: button.action,
          path: screen.path,
          source: '',
          sort: b + 1,
          category: BUTTON,
          action: button.position,
        });
        if (screen.platformOnly) platformOnly.add(id);
      });
      for (const scope of screenScopesOf(screen.entry)) {
        apiScopes.push({
          id: apiScopeSeedId(scope.code),
          menuId: screenId,
          resourceCode: scope.code,
          scopeName: scope.name,
          scopePath: scope.path,
          scopeType: 1,
        });
      }
    }
  }
  const menus = [...groupRows, ...screenRows, ...buttonRows];
  const dicts = dictRowsOf(entries);
  assertDistinct('menu', menus);
  assertDistinct(
    'API scope',
    apiScopes.map((s) => ({ id: s.id, code: s.resourceCode })),
  );
  assertDistinct(
    'dictionary row',
    dicts.map((d) => ({ id: d.id, code: `${d.code}:${d.dictKey}` })),
  );
  return { groups, menus, apiScopes, dicts, platformOnly };
}

/** The seed of the application's registry. */
export const SEED: SeedSet = buildSeed(REGISTRY);
/** The menu groups with their screens, as the side menu shows them. */
export const MENU_GROUPS: readonly SeedGroup[] = SEED.groups;
export const SEED_MENUS: readonly SeedMenu[] = SEED.menus;
export const SEED_API_SCOPES: readonly SeedApiScope[] = SEED.apiScopes;
export const SEED_DICTS: readonly SeedDictRow[] = SEED.dicts;
/** Menu ids a new tenant's admin role is not granted. */
export const PLATFORM_ONLY_MENU_IDS: ReadonlySet<string> = SEED.platformOnly;
