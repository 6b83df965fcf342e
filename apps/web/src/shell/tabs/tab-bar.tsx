import { useQueryClient } from '@tanstack/react-query';
import { Dropdown, Modal, Tabs, message } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { clearServerCache } from '../../api/auth';
import { website } from '../../config/website';
import { useRouteMeta, useTabDetail } from '../../router/route-meta';
import { menuEntries, menuTitleAt } from '../../router/menu-paths';
import { useSession } from '../../session/session-store';
import { useTabs } from './tabs-store';
import { buttonCodes } from '@mes/contracts';

/** Button code of the role screen's 清除缓存 grant (API scope role:cache). */
const CLEAR_CACHE_BUTTON = buttonCodes.role.cache;

/** The tab bar: every visited page becomes a tab unless its route says not (spec sections 2, 4). */
export function TabBar() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search, key } = useLocation();
  const tabs = useTabs();
  const menuAll = useSession((s) => s.menuAll);
  // The server refuses clear-cache without the 清除缓存 grant; offer it only to those who hold it.
  const canClearCache = useSession((s) => s.permission[CLEAR_CACHE_BUTTON] === true);
  const meta = useRouteMeta();
  const detail = useTabDetail(meta);
  const queryClient = useQueryClient();

  // Only a visit opens a tab: this must not re-run when the tab list changes, or closing the
  // current tab would re-open it before the navigation away lands. Every visit does (`key`),
  // even to the path shown: a tab closed and opened again before that navigation landed.
  useEffect(() => {
    if (meta.isTab === false || pathname === '/404') return;
    const fromMenu = menuEntries(menuAll).find((e) => e.url === pathname)?.node.name;
    // An address that is neither a fixed route nor a menu screen gets no tab: it is on its way to /404.
    const label = meta.i18n ?? fromMenu ?? (pathname.startsWith('/myiframe/') ? pathname : undefined);
    if (!label) return;
    const query = Object.fromEntries(new URLSearchParams(search));
    useTabs.getState().open({ label, value: pathname, query, meta: { i18n: meta.i18n, detail } });
  }, [pathname, search, key, meta.isTab, meta.i18n, detail, menuAll]);

  const go = (value: string) => {
    const tab = tabs.tabs.find((x) => x.value === value);
    const qs = new URLSearchParams(tab?.query ?? {}).toString();
    void navigate(`${value}${qs ? `?${qs}` : ''}`);
  };

  const menuItems = [
    ...(canClearCache ? [{ key: 'clearCache', label: t('tabs:clearCache') }] : []),
    { key: 'closeOthers', label: t('tabs:closeOthers') },
    { key: 'closeAll', label: t('tabs:closeAll') },
  ];
  const onMenu = (key: string) => {
    if (key === 'clearCache') {
      Modal.confirm({
        title: t('tip'),
        content: t('tabs:clearCacheConfirm'),
        onOk: async () => {
          await clearServerCache();
          // What this page read through the server's caches is stale too: read it again.
          void queryClient.invalidateQueries();
          void message.success(t('tabs:cacheCleared'));
        },
      });
    } else if (key === 'closeOthers') {
      tabs.closeOthers(pathname);
    } else if (key === 'closeAll') {
      tabs.closeAll();
      void navigate(website.firstPage.value);
    }
  };

  return (
    <Dropdown menu={{ items: menuItems, onClick: ({ key }) => onMenu(key) }} trigger={['contextMenu']}>
      <div className="mes-tabs" data-testid="tab-bar">
        <Tabs
          type="editable-card"
          hideAdd
          size="small"
          activeKey={pathname}
          onChange={go}
          onEdit={(key, action) => {
            if (action !== 'remove' || typeof key !== 'string') return;
            const next = tabs.close(key, pathname);
            if (next) go(next);
          }}
          items={tabs.tabs.map((tab) => ({
            key: tab.value,
            // Menu screens are labelled from the menu at render, so a language switch re-labels them at once.
            label: tab.meta?.i18n
              ? `${t(tab.meta.i18n)}${tab.meta.detail ? ` · ${tab.meta.detail}` : ''}`
              : (menuTitleAt(menuAll, tab.value, i18n.language) ?? t(tab.label, { defaultValue: tab.label })),
            closable: tab.close !== false && tab.value !== website.firstPage.value && tabs.tabs.length > 1,
          }))}
        />
      </div>
    </Dropdown>
  );
}
