import { message } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchMenuRoutes, fetchTopMenus, type TopMenuItem } from '../../api/auth';
import { website } from '../../config/website';
import { useSession } from '../../session/session-store';

const HOME = 'home';
const NO_ITEMS: TopMenuItem[] = [];

/**
 * "Home" plus the caller's top menus. Choosing one narrows the side menu to that top menu's
 * screens; menuAll keeps every screen, so tabs and the menu search still find them all.
 */
export function TopMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useSession((s) => s.token);
  // Read once per sign-in; without an answer only "Home" shows.
  const items =
    useQuery({
      queryKey: ['session', 'top-menus', token],
      queryFn: fetchTopMenus,
      enabled: !!token,
      staleTime: Infinity,
      retry: false,
      meta: { silent: true },
    }).data ?? NO_ITEMS;
  const [active, setActive] = useState(HOME);

  const choose = async (key: string) => {
    const previous = active;
    setActive(key);
    try {
      const menu = await fetchMenuRoutes(key === HOME ? undefined : key);
      useSession.getState().setMenu(menu);
      if (key === HOME) void navigate(website.firstPage.value);
    } catch {
      setActive(previous);
      void message.error(t('header:topMenuFailed'));
    }
  };

  return (
    <nav className="mes-top-menu mes-hide-xs" data-testid="top-menu">
      {[{ id: HOME, name: t('header:topMenuHome') }, ...items].map((item) => (
        <span
          key={item.id}
          role="button"
          tabIndex={0}
          className={`mes-top-menu-item${item.id === active ? ' is-active' : ''}`}
          data-testid={`top-menu-${item.id}`}
          aria-current={item.id === active ? 'true' : undefined}
          onClick={() => void choose(item.id)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') void choose(item.id);
          }}
        >
          {item.name}
        </span>
      ))}
    </nav>
  );
}
