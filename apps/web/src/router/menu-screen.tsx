import { Result } from 'antd';
import { lazy, Suspense, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { REGISTRY } from '@mes/contracts';
import { useSession } from '../session/session-store';
import { menuEntries, menuLabel } from './menu-paths';
import { screenSourceAt } from './screen-lookup';

/** Screens are code-split: each page folder is its own chunk, loaded on first visit. */
const screens: Record<string, ComponentType> = Object.fromEntries(
  Object.entries(import.meta.glob<{ default: ComponentType }>('../pages/**/index.tsx')).map(([key, load]) => [
    key,
    lazy(load),
  ]),
);
const pageKeys: ReadonlySet<string> = new Set(Object.keys(screens));

/** The generic screen of a resource without a page folder, in a chunk of its own as well. */
const GenericResourceScreen = lazy(async () => ({ default: (await import('../engine/resource-page')).ResourcePage }));

/** Shows the screen of the menu entry at the current URL; unknown URLs go to /404. */
export function MenuScreen() {
  const { t, i18n } = useTranslation();
  // Each open tab keeps its screen mounted while hidden (keep-alive); the live location then names
  // the active tab's path, so a screen holds on to the path it was opened at.
  const { pathname: live } = useLocation();
  const [pathname] = useState(live);
  const menuAll = useSession((s) => s.menuAll);
  const menuLoaded = useSession((s) => s.menuLoaded);
  const entry = useMemo(() => menuEntries(menuAll).find((e) => e.url === pathname), [menuAll, pathname]);
  // A screen opened by URL before the menu has arrived waits for it rather than going to /404.
  if (!entry) return menuLoaded ? <Navigate to="/404" replace /> : null;
  const source = screenSourceAt(entry.url, entry.node.code, pageKeys, REGISTRY);
  const Screen = source.kind === 'page' ? screens[source.moduleKey] : undefined;
  if (source.kind === 'missing' || (source.kind === 'page' && !Screen))
    return <Result status="info" title={menuLabel(entry.node, i18n.language)} subTitle={t('notBuilt')} />;
  return (
    <Suspense fallback={null}>
      {Screen ? <Screen /> : source.kind === 'resource' && <GenericResourceScreen resource={source.resource} />}
    </Suspense>
  );
}
