import { isScreenDef, registryEntryAt, type RegistryEntry, type ResourceDef } from '@mes/contracts';
import { pageModuleKey } from './menu-paths';

/** What a menu screen shows. */
export type ScreenSource =
  /** The page folder at the screen's path (`pages/system/user/index.tsx`). */
  | { kind: 'page'; moduleKey: string }
  /** The generic screen of a resource definition that has no page folder of its own. */
  | { kind: 'resource'; resource: ResourceDef }
  | { kind: 'missing' };

/**
 * The screen of the menu entry `code` opening at `url`: a page folder at that path wins (screens
 * with behaviour of their own); otherwise the registry's resource with that menu code, or whose
 * menu opens at that path, gets the generic screen. A plain resource thus needs no page folder.
 */
export function screenSourceAt(
  url: string,
  code: string,
  pageKeys: ReadonlySet<string>,
  entries: readonly RegistryEntry[],
): ScreenSource {
  const moduleKey = pageModuleKey(url);
  if (pageKeys.has(moduleKey)) return { kind: 'page', moduleKey };
  const entry = entries.find((e) => e.menu && e.code === code) ?? registryEntryAt(entries, url);
  return entry && !isScreenDef(entry) ? { kind: 'resource', resource: entry } : { kind: 'missing' };
}
