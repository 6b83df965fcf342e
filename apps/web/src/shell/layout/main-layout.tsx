import { Layout } from 'antd';
import { useLocation } from 'react-router';
import { ErrorBoundary } from '../error-log/error-boundary';
import { useSettings } from '../themes/settings-store';
import { Header } from '../header/header';
import { KeepAliveOutlet } from '../tabs/keep-alive';
import { TabBar } from '../tabs/tab-bar';
import { SideMenu } from './side-menu';
import { useTokenRefresh } from '../session-refresh/use-token-refresh';
import { useMenuLoader } from './use-menu-loader';
import { useScreenSize } from './use-screen-size';
import './layout.css';

/** Header, side menu, tab bar and the content area with the open tabs' screens. */
export default function MainLayout() {
  useMenuLoader();
  const { pathname } = useLocation();
  useTokenRefresh();
  const screen = useScreenSize();
  const collapsed = useSettings((s) => s.collapsed);
  const theme = useSettings((s) => s.theme);
  const collapsedNow = collapsed || screen === 0;
  return (
    <Layout className={`mes-layout ${theme}`} data-screen-size={screen} data-testid="main-layout">
      <Layout.Sider
        className="mes-sider"
        collapsed={collapsedNow}
        collapsedWidth={screen === 0 ? 0 : 64}
        width={230}
        trigger={null}
      >
        <div className="mes-logo" data-testid="logo">
          <LogoText collapsed={collapsedNow} />
        </div>
        <SideMenu collapsed={collapsedNow} />
      </Layout.Sider>
      <Layout className="mes-main">
        <Header />
        <TabBar />
        <Layout.Content className="mes-content">
          {/* A screen that fails to render is reported and shown as an error, not a blank page. */}
          <ErrorBoundary resetKey={pathname}>
            <KeepAliveOutlet />
          </ErrorBoundary>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

function LogoText({ collapsed }: { collapsed: boolean }) {
  return <span>{collapsed ? 'MES' : 'MES Console'}</span>;
}
