import { Empty, Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { MenuNode } from '@mes/contracts';
import { website } from '../../config/website';
import { menuLabel } from '../../router/menu-paths';
import { useSession } from '../../session/session-store';
import { menuIcon } from './menu-icons';

type Item = Required<MenuProps>['items'][number];

/** Menu items may carry `meta.roles`: shown only to those roles (spec section 6). */
type MenuWithMeta = MenuNode & { meta?: { roles?: string[]; i18n?: string } };

function visible(node: MenuWithMeta, roles: string[]): boolean {
  const allowed = node.meta?.roles;
  return !allowed?.length || allowed.some((r) => roles.includes(r));
}

/**
 * The side menu: groups open by default per config; external links (`isOpen` 2) open a new window.
 * Top-level items show the icon their menu names (`source`), so collapsed groups can be told apart.
 * `onNavigate` runs after a screen is chosen (the phone drawer closes then).
 */
export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const menu = useSession((s) => s.menu) as MenuWithMeta[];
  const roles = useSession((s) => s.roles);

  const { items, targets } = useMemo(() => {
    const targets = new Map<string, MenuWithMeta>();
    const toItems = (nodes: MenuWithMeta[], depth: number): Item[] =>
      nodes
        .filter((n) => visible(n, roles))
        .map((n) => {
          const Icon = depth === 0 ? menuIcon(n.source, n.code || n.path) : undefined;
          const icon = Icon ? <Icon /> : undefined;
          const label = n.meta?.i18n ? t(n.meta.i18n) : menuLabel(n, i18n.language);
          const kids = n.children as MenuWithMeta[] | undefined;
          if (kids?.length)
            return {
              key: n.path || n.id,
              label,
              icon,
              children: toItems(kids, depth + 1),
            };
          const url = depth === 0 && !n.path.endsWith('/index') && n.isOpen !== 2 ? `${n.path}/index` : n.path;
          targets.set(url, n);
          return { key: url, label, icon };
        });
    return { items: toItems(menu, 0), targets };
  }, [menu, roles, t, i18n.language]);

  if (!items.length) {
    return collapsed ? null : (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('layout:emptyMenu')} data-testid="empty-menu" />
    );
  }
  return (
    <Menu
      mode="inline"
      theme="dark"
      items={items}
      selectedKeys={[pathname]}
      defaultOpenKeys={[...website.openMenus]}
      onClick={({ key }) => {
        const node = targets.get(key);
        if (node?.isOpen === 2) window.open(node.path, '_blank', 'noopener');
        else void navigate(key);
        onNavigate?.();
      }}
    />
  );
}
