import { Activity, useState, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { useTabs } from './tabs-store';

type Screen = readonly [path: string, element: ReactNode];

/**
 * Renders the screen of every open tab, showing only the active one. Hidden tabs stay mounted
 * under `<Activity mode="hidden">`, so typed input, table page and scroll survive a switch;
 * closing a tab drops its screen.
 */
export function KeepAliveOutlet() {
  const { pathname } = useLocation();
  const outlet = useOutlet();
  const tabs = useTabs((s) => s.tabs);
  const [screens, setScreens] = useState<Screen[]>([]);

  // Derived state, adjusted during render: add the visited screen, drop screens of closed tabs.
  const missing = !screens.some(([path]) => path === pathname);
  const stale = screens.some(([path]) => path !== pathname && !tabs.some((t) => t.value === path));
  if (missing || stale) {
    setScreens((prev) => [
      ...prev.filter(([path]) => path === pathname || tabs.some((t) => t.value === path)),
      ...(prev.some(([path]) => path === pathname) ? [] : [[pathname, outlet] as const]),
    ]);
  }

  return (
    <>
      {screens.map(([path, element]) => (
        <Activity key={path} mode={path === pathname ? 'visible' : 'hidden'}>
          <div className="mes-screen" data-screen={path}>
            {element}
          </div>
        </Activity>
      ))}
    </>
  );
}
