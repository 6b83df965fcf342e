import { Activity, useState, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { reconcileScreens, type KeptScreens } from './keep-alive-screens';
import { useTabs } from './tabs-store';

/**
 * Renders the screen of every open tab, showing only the active one. Hidden tabs stay mounted
 * under `<Activity mode="hidden">`, so typed input, table page and scroll survive a switch;
 * closing a tab drops its screen, and opening it again starts afresh (keep-alive-screens.ts).
 */
export function KeepAliveOutlet() {
  const { pathname, key } = useLocation();
  const outlet = useOutlet();
  const tabs = useTabs((s) => s.tabs);
  const [kept, setKept] = useState<KeptScreens<ReactNode>>({ screens: [], key: '' });

  // Derived state, adjusted during render: add the visited screen, drop screens of closed tabs.
  const next = reconcileScreens(kept, {
    pathname,
    key,
    element: outlet,
    openPaths: new Set(tabs.map((t) => t.value)),
  });
  if (next) setKept(next);
  const screens = (next ?? kept).screens;

  return (
    <>
      {screens.map(({ path, element, instance }) => (
        <Activity key={`${path}#${instance}`} mode={path === pathname ? 'visible' : 'hidden'}>
          <div className="mes-screen" data-screen={path}>
            {element}
          </div>
        </Activity>
      ))}
    </>
  );
}
