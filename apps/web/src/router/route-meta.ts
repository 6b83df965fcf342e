import { useMatches } from 'react-router';

/** What a route declares about itself (react-router `handle`). */
export interface RouteMeta {
  /** False for routes that need no sign-in. */
  isAuth?: boolean;
  /** False for routes that never become a tab. */
  isTab?: boolean;
  /** i18n key of the tab and page title. */
  i18n?: string;
}

/** The merged `handle` of the matched routes: the deepest route's values win. */
export function useRouteMeta(): RouteMeta {
  return useMatches().reduce<RouteMeta>((acc, m) => ({ ...acc, ...(m.handle as RouteMeta | undefined) }), {});
}
