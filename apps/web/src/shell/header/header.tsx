import { MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOutOnServer } from '../../api/auth';
import { changeLanguage, LANGUAGES, type Language } from '../../i18n';
import { displayName, useSession } from '../../session/session-store';
import { useTabs } from '../tabs/tabs-store';
import { useSettings } from '../themes/settings-store';
import { HeaderTools } from './header-tools';

/** The top bar: collapse toggle, the tools, language and user menus. */
export function Header() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const toggle = useSettings((s) => s.toggleCollapsed);
  const collapsed = useSettings((s) => s.collapsed);
  const user = useSession((s) => s.userInfo);

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

  return (
    <div className="mes-header" data-testid="header">
      <span className="mes-header-tool" onClick={toggle} data-testid="collapse-toggle">
        {collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
      </span>
      <span className="mes-header-spacer" />
      <HeaderTools />
      <Dropdown
        menu={{
          items: LANGUAGES.map((lang) => ({
            key: lang,
            label: t(`layout:lang_${lang}`),
            disabled: lang === i18n.language,
          })),
          onClick: ({ key }) => changeLanguage(key as Language),
        }}
      >
        <span className="mes-header-tool" data-testid="language">
          {t(`layout:lang_${i18n.language}`)}
        </span>
      </Dropdown>
      <Dropdown
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
      >
        <span className="mes-header-tool" data-testid="user-menu">
          <Avatar size="small" src={user.avatar || undefined} icon={<UserOutlined />} />{' '}
          <span className="mes-hide-xs">{displayName(user)}</span>
        </span>
      </Dropdown>
    </div>
  );
}
