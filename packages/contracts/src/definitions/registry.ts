import { isAggregate } from '../engine/aggregate';
import {
  apiScopeCodes,
  dictionaryFields,
  operationsOf,
  permissionCodes,
  type LocalText,
  type ResourceDef,
} from '../engine/define';
import type { ButtonPosition, ResourceMenu, SystemDictionaryDef } from '../engine/menu-placement';
import { MENU_GROUP_DEFS, type MenuGroupDef } from '../engine/menu-groups';
import { SYSTEM_DICTIONARIES } from '../system/dictionaries';
import { DEFINITIONS } from './definitions';
import { isScreenDef, type RegistryEntry } from './registry-entry';

export * from './registry-entry';

/**
 * The one list everything derives from (issue 13, "one registry"): tables, routes, menus,
 * buttons, API scopes, the system dictionaries a definition needs, and the web screen lookup.
 * `DEFINITIONS` is written by `npm run db:generate` from the files under this folder, so a new
 * definition file joins the registry without any list edited by hand. Ordered by file path,
 * then export name.
 */
export const REGISTRY: readonly RegistryEntry[] = Object.values(DEFINITIONS);

/** The resource definitions of `entries` (those with a table and generic routes). */
export const resourceDefsOf = (entries: readonly RegistryEntry[]): ResourceDef[] =>
  entries.filter((e): e is ResourceDef => !isScreenDef(e));

export const menuGroupOf = (menu: ResourceMenu): MenuGroupDef | undefined =>
  MENU_GROUP_DEFS.find((g) => g.code === menu.group);

/** The URL the entry's screen opens at: its declared path, or `<group path>/<code>`. */
export function menuPathOf(entry: RegistryEntry): string | undefined {
  const menu = entry.menu;
  if (!menu) return undefined;
  return menu.path ?? `${menuGroupOf(menu)?.path ?? `/${menu.group}`}/${entry.code}`;
}

/** The entry whose screen opens at `path` (`/system/post`; a trailing `/index` is ignored). */
export function registryEntryAt(entries: readonly RegistryEntry[], path: string): RegistryEntry | undefined {
  const wanted = path.replace(/\/index$/, '');
  return entries.find((e) => menuPathOf(e) === wanted);
}

/** A screen without `submit` (the logs) has only the view and export buttons. */
export const isReadOnlyScreen = (entry: RegistryEntry): boolean =>
  !isScreenDef(entry) && !operationsOf(entry).includes('submit');

/** A button of a screen as seeded (a menu row of category 2). */
export interface ScreenButton {
  /** `<screen>_<action>`. */
  code: string;
  /** `<action>`: the menu row's alias. */
  action: string;
  name: LocalText;
  position: ButtonPosition;
}

const GENERIC_BUTTONS = [
  ['add', { zh: '新增', en: 'Add' }, 1],
  ['edit', { zh: '修改', en: 'Edit' }, 2],
  ['remove', { zh: '删除', en: 'Delete' }, 3],
  ['view', { zh: '查看', en: 'View' }, 2],
  ['export', { zh: '导出', en: 'Export' }, 1],
] as const;

/**
 * The buttons of an entry's screen: a resource's generic ones (only view and export when it is
 * read-only), then the ones its menu declares. A screen that is not a resource has only its own.
 */
export function screenButtonsOf(entry: RegistryEntry): ScreenButton[] {
  if (!entry.menu) return [];
  const codes = permissionCodes(entry.code);
  const readOnly = isReadOnlyScreen(entry);
  const generic = isScreenDef(entry)
    ? []
    : GENERIC_BUTTONS.filter(([key]) => !readOnly || key === 'view' || key === 'export').map(
        ([key, name, position]): ScreenButton => ({
          code: codes[key],
          action: codes[key].slice(entry.code.length + 1),
          name,
          position,
        }),
      );
  const own = (entry.menu.buttons ?? []).map((b): ScreenButton => ({
    code: `${entry.code}_${b.action}`,
    action: b.action,
    name: b.name,
    position: b.position ?? 2,
  }));
  return [...generic, ...own];
}

/** An API scope of a screen as seeded (`blade_scope_api`). */
export interface ScreenScope {
  /** `<screen>:<action>`. */
  code: string;
  name: string;
  path: string;
}

/**
 * The API scopes of an entry's screen: a resource's `<code>:read` (list, page, detail, tree,
 * export) and `<code>:write` (submit, remove), then the ones its menu declares.
 */
export function screenScopesOf(entry: RegistryEntry): ScreenScope[] {
  if (!entry.menu) return [];
  const generic: ScreenScope[] = [];
  if (!isScreenDef(entry)) {
    const codes = apiScopeCodes(entry.code);
    const api = `/api${entry.api}`;
    // An aggregate is read-only: the engine registers no write route for it, so no write scope.
    const readPaths = isAggregate(entry) ? `${api}/{list,page,detail,export}` : `${api}/{list,page,detail,tree,export}`;
    generic.push({ code: codes.read, name: `${entry.title.zh}查询`, path: readPaths });
    if (!isAggregate(entry))
      generic.push({ code: codes.write, name: `${entry.title.zh}维护`, path: `${api}/{submit,remove}` });
  }
  const own = (entry.menu.scopes ?? []).map((s) => ({ code: `${entry.code}:${s.action}`, name: s.name, path: s.path }));
  return [...generic, ...own];
}

/** The system dictionaries seeded: the shared ones, then those definitions declare for themselves. */
export function systemDictionariesOf(entries: readonly RegistryEntry[]): SystemDictionaryDef[] {
  const out = [...SYSTEM_DICTIONARIES];
  for (const entry of entries) out.push(...(entry.menu?.dictionaries ?? []));
  return out;
}

const HAN = /\p{Script=Han}/u;

/**
 * English labels of the system dictionaries, by dictionary code and key, for the web app's
 * English interface (business dictionaries are the tenant's own words and have none).
 */
export function dictionaryEnglishOf(
  entries: readonly RegistryEntry[],
): ReadonlyMap<string, ReadonlyMap<string, string>> {
  return new Map(
    systemDictionariesOf(entries).map((d) => [
      d.code,
      new Map(d.entries.flatMap(([key, , english]) => (english ? [[key, english] as const] : []))),
    ]),
  );
}

const duplicates = (values: readonly string[]) => [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];

/**
 * What is wrong with a list of definitions, as messages (empty when nothing): codes, menu paths
 * and menu codes must be unique, groups must exist, and every `{ dict }` a field reads must be
 * a seeded system dictionary. The server refuses to start on a non-empty answer.
 */
export function registryProblems(entries: readonly RegistryEntry[]): string[] {
  const problems: string[] = [];
  for (const code of duplicates(entries.map((e) => e.code))) problems.push(`definition code ${code} is used twice`);
  for (const table of duplicates(resourceDefsOf(entries).map((d) => d.table)))
    problems.push(`table ${table} belongs to two definitions`);
  const paths = entries.map(menuPathOf).filter((p): p is string => p !== undefined);
  for (const path of duplicates(paths)) problems.push(`menu path ${path} belongs to two screens`);
  for (const entry of entries) {
    if (entry.menu && !menuGroupOf(entry.menu)) problems.push(`${entry.code}: unknown menu group ${entry.menu.group}`);
    if (isScreenDef(entry) && !entry.menu) problems.push(`${entry.code}: a screen needs a menu`);
  }
  const menuCodes = [
    ...MENU_GROUP_DEFS.map((g) => g.code),
    ...entries.flatMap((e) => (e.menu ? [e.code, ...screenButtonsOf(e).map((b) => b.code)] : [])),
  ];
  for (const code of duplicates(menuCodes)) problems.push(`menu code ${code} is seeded twice`);
  const scopeCodes = entries.flatMap((e) => screenScopesOf(e).map((s) => s.code));
  for (const code of duplicates(scopeCodes)) problems.push(`API scope ${code} is declared twice`);
  const dictionaries = systemDictionariesOf(entries).map((d) => d.code);
  for (const code of duplicates(dictionaries)) problems.push(`system dictionary ${code} is declared twice`);
  for (const dict of systemDictionariesOf(entries))
    for (const [key, value, english] of dict.entries)
      if (HAN.test(value) && !english?.trim())
        problems.push(`system dictionary ${dict.code} entry ${key} (${value}) needs an English label`);
  const seeded = new Set(dictionaries);
  for (const def of resourceDefsOf(entries)) {
    for (const { name, source } of dictionaryFields(def)) {
      if ('dict' in source && !seeded.has(source.dict))
        problems.push(`${def.code}.${name} reads the system dictionary ${source.dict}, which nothing declares`);
    }
    problems.push(...derivedFieldProblems(def));
  }
  return problems;
}

/** Derived fields and matched references name fields that exist, on this row and on the target. */
function derivedFieldProblems(def: ResourceDef): string[] {
  const problems: string[] = [];
  for (const [name, field] of Object.entries(def.fields)) {
    for (const from of field.derive?.from ?? [])
      if (!def.fields[from]) problems.push(`${def.code}.${name} is derived from ${from}, which is not a field`);
    if (field.derive && field.form !== false && field.form !== 'readonly')
      problems.push(`${def.code}.${name} is derived, so its form must be 'readonly' or false`);
    if (field.savedBy !== undefined && field.form !== undefined)
      problems.push(`${def.code}.${name} is saved by its own route, so it has no form setting`);
    if (field.savedBy !== undefined && !field.savedBy.startsWith(`${def.api}/`))
      problems.push(`${def.code}.${name} is saved by ${field.savedBy}, which is not under ${def.api}`);
    const matches = field.reference?.matches;
    if (matches && (!def.fields[matches.field] || !field.reference?.to().fields[matches.targetField]))
      problems.push(`${def.code}.${name} matches ${matches.field} with a field its target does not have`);
  }
  return problems;
}
