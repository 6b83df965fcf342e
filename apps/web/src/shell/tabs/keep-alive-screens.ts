/** A kept-alive screen: one per open tab, plus the one shown. */
export interface KeptScreen<E> {
  path: string;
  element: E;
  /** The location key of the visit that created it: a screen opened again is a new instance. */
  instance: string;
  /** Its tab has been open; once that tab is closed, the screen belongs to no tab. */
  tabbed: boolean;
}

export interface KeptScreens<E> {
  screens: readonly KeptScreen<E>[];
  /** The location key these screens were last reconciled with. */
  key: string;
}

export interface Visit<E> {
  pathname: string;
  /** react-router's location key: new on every navigation, even to the same path. */
  key: string;
  /** The route's element for `pathname`. */
  element: E;
  openPaths: ReadonlySet<string>;
}

/**
 * The screens to keep after a render, or `undefined` when they stay as they are.
 *
 * - A screen without a tab goes, unless it is still the one shown: closing the active tab
 *   navigates away, and until that navigation lands the screen stays rather than blank.
 * - A navigation that lands on such a screen's path (its tab closed, then the screen opened
 *   again before the navigation away landed: a slow chunk of the next tab, a quick menu click)
 *   gets a fresh screen, as any reopened tab does, not the closed tab's state.
 * - Screens that never had a tab (routes without one) are never renewed: their own URL
 *   changes (table state in the query) must not remount them.
 */
export function reconcileScreens<E>(prev: KeptScreens<E>, visit: Visit<E>): KeptScreens<E> | undefined {
  const { pathname, key, element, openPaths } = visit;
  const newVisit = key !== prev.key;
  let changed = newVisit;
  const screens: KeptScreen<E>[] = [];
  for (const screen of prev.screens) {
    const open = openPaths.has(screen.path);
    const shown = screen.path === pathname;
    if (!open && (!shown || (screen.tabbed && newVisit))) {
      changed = true;
      continue;
    }
    if (open && !screen.tabbed) {
      changed = true;
      screens.push({ ...screen, tabbed: true });
      continue;
    }
    screens.push(screen);
  }
  if (!screens.some((s) => s.path === pathname)) {
    changed = true;
    screens.push({ path: pathname, element, instance: key, tabbed: openPaths.has(pathname) });
  }
  return changed ? { screens, key } : undefined;
}
