import { useMatches } from 'react-router';

/** What a route declares about itself (react-router `handle`). */
export interface RouteMeta {
  /** False for routes that need no sign-in. */
  isAuth?: boolean;
  /** False for routes that never become a tab. */
  isTab?: boolean;
  /** i18n key of the tab and page title. */
  i18n?: string;
  /**
   * A route parameter the tab shows after the name, so two open records of one fixed route
   * (two devices' live pages) are told apart.
   */
  tabParam?: string;
}

/** The merged `handle` of the matched routes: the deepest route's values win. */
export function useRouteMeta(): RouteMeta {
  return useMatches().reduce<RouteMeta>((acc, m) => ({ ...acc, ...(m.handle as RouteMeta | undefined) }), {});
}

/** The value of the matched route's `tabParam`, if it names one. */
export function useTabDetail(meta: RouteMeta): string | undefined {
  const matches = useMatches();
  if (!meta.tabParam) return undefined;
  return matches[matches.length - 1]?.params[meta.tabParam];
}
