import { MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOutOnServer } from '../../api/auth';
import { changeLanguage, LANGUAGES, type Language } from '../../i18n';
import { displayName, useSession } from '../../session/session-store';
import { useMenuDrawer } from '../layout/menu-drawer-store';
import { useScreenSize } from '../../engine/use-screen-size';
import { useTabs } from '../tabs/tabs-store';
import { useSettings } from '../themes/settings-store';
import { HeaderDropdown } from './header-dropdown';
import { HeaderToolButton } from './header-tool-button';
import { HeaderTools } from './header-tools';

/** The top bar: collapse toggle (the menu drawer's ☰ on phones), the tools, language and user menus. */
export function Header() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const toggle = useSettings((s) => s.toggleCollapsed);
  const collapsed = useSettings((s) => s.collapsed);
  const drawerOpen = useMenuDrawer((s) => s.open);
  const setDrawerOpen = useMenuDrawer((s) => s.setOpen);
  const phone = useScreenSize() === 0;
  const user = useSession((s) => s.userInfo);
  const name = displayName(user);

  const signOut = () =>
    Modal.confirm({
      title: t('tip'),
      content: t('layout:logoutConfirm'),
      onOk: async () => {
        await signOutOnServer().catch(() => undefined);
        useSession.getState().signOutLocally();
        useTabs.getState().reset();
        void navigate('/login', { replace: true });
      },
    });

  const menuShown = phone ? drawerOpen : !collapsed;
  return (
    <div className="mes-header" data-testid="header">
      <HeaderToolButton
        label={phone ? t('layout:menu') : collapsed ? t('layout:expandMenu') : t('layout:collapseMenu')}
        aria-expanded={menuShown}
        onClick={phone ? () => setDrawerOpen(true) : toggle}
        data-testid="collapse-toggle"
      >
        {menuShown ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
      </HeaderToolButton>
      <span className="mes-header-spacer" />
      <HeaderTools />
      <HeaderDropdown
        label={`${t('layout:language')}: ${t(`layout:lang_${i18n.language}`)}`}
        menu={{
          items: LANGUAGES.map((lang) => ({
            key: lang,
            label: t(`layout:lang_${lang}`),
            disabled: lang === i18n.language,
          })),
          onClick: ({ key }) => changeLanguage(key as Language),
        }}
        data-testid="language"
      >
        {t(`layout:lang_${i18n.language}`)}
      </HeaderDropdown>
      <HeaderDropdown
        label={`${t('layout:userMenu')}: ${name}`}
        menu={{
          items: [
            { key: 'dashboard', label: t('dashboard') },
            { key: 'info', label: t('info') },
            { type: 'divider' },
            { key: 'logout', label: t('layout:logout') },
          ],
          onClick: ({ key }) => {
            if (key === 'dashboard') void navigate('/');
            if (key === 'info') void navigate('/info/index');
            if (key === 'logout') signOut();
          },
        }}
        data-testid="user-menu"
      >
        <Avatar size="small" src={user.avatar || undefined} alt={name} icon={<UserOutlined />} />
        <span className="mes-hide-xs mes-header-user-name">{name}</span>
      </HeaderDropdown>
    </div>
  );
}
