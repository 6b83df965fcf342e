import { Drawer, Layout } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import '../../i18n/shell-resources';
import { ServerStateProvider } from '../../api/server-state-provider';
import { ErrorBoundary } from '../error-log/error-boundary';
import { useSettings } from '../themes/settings-store';
import { Header } from '../header/header';
import { KeepAliveOutlet } from '../tabs/keep-alive';
import { TabBar } from '../tabs/tab-bar';
import { useMenuDrawer } from './menu-drawer-store';
import { SideMenu } from './side-menu';
import { useTokenRefresh } from '../session-refresh/use-token-refresh';
import { useMenuLoader } from './use-menu-loader';
import { useScreenSize } from '../../engine/use-screen-size';
import './layout.css';

/**
 * Header, side menu, tab bar and the content area with the open tabs' screens. The layout is
 * exactly the window's height: header and tab bar stay put while the side menu and the content
 * scroll on their own. On phones (screen class 0) the side menu is a drawer opened by ☰.
 */
export default function MainLayout() {
  return (
    <ServerStateProvider>
      <ShellLayout />
    </ServerStateProvider>
  );
}

function ShellLayout() {
  const { t } = useTranslation();
  useMenuLoader();
  const { pathname } = useLocation();
  useTokenRefresh();
  const screen = useScreenSize();
  const collapsed = useSettings((s) => s.collapsed);
  const theme = useSettings((s) => s.theme);
  const phone = screen === 0;
  return (
    <Layout className={`mes-layout ${theme}`} data-screen-size={screen} data-testid="main-layout">
      {phone ? (
        <PhoneMenu theme={theme} />
      ) : (
        <Layout.Sider className="mes-sider" collapsed={collapsed} collapsedWidth={64} width={230} trigger={null}>
          <Logo collapsed={collapsed} />
          <nav className="mes-sider-menu" aria-label={t('layout:menu')} data-testid="side-menu">
            <SideMenu collapsed={collapsed} />
          </nav>
        </Layout.Sider>
      )}
      <Layout className="mes-main">
        <Header />
        <TabBar />
        <Layout.Content className="mes-content" data-testid="content">
          {/* A screen that fails to render is reported and shown as an error, not a blank page. */}
          <ErrorBoundary resetKey={pathname}>
            <KeepAliveOutlet />
          </ErrorBoundary>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

function Logo({ collapsed }: { collapsed: boolean }) {
  return (
    <div className="mes-logo" data-testid="logo">
      <span>{collapsed ? 'MES' : 'MES Console'}</span>
    </div>
  );
}

/** The side menu as a drawer: ☰ opens it; choosing a screen, the mask or Esc closes it. */
function PhoneMenu({ theme }: { theme: string }) {
  const { t } = useTranslation();
  const open = useMenuDrawer((s) => s.open);
  const setOpen = useMenuDrawer((s) => s.setOpen);
  // Leaving the phone layout (a rotated tablet, a resized window) must not leave it open for later.
  useEffect(() => () => setOpen(false), [setOpen]);
  return (
    <Drawer
      open={open}
      placement="left"
      width={260}
      closable={false}
      onClose={() => setOpen(false)}
      rootClassName={`mes-menu-drawer ${theme}`}
      styles={{ body: { padding: 0 } }}
      aria-label={t('layout:menu')}
      data-testid="menu-drawer"
    >
      <div className="mes-sider mes-sider-drawer">
        <Logo collapsed={false} />
        <nav className="mes-sider-menu" aria-label={t('layout:menu')} data-testid="side-menu">
          <SideMenu collapsed={false} onNavigate={() => setOpen(false)} />
        </nav>
      </div>
    </Drawer>
  );
}
