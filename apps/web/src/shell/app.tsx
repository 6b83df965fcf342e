import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler, setUnknownErrorText } from '../api/http';
import { createRouter } from '../router/routes';
import { useSession } from '../session/session-store';
import { useTabs } from './tabs/tabs-store';
import { useSettings } from './themes/settings-store';

export function App() {
  const { i18n, t } = useTranslation();
  const router = useMemo(() => createRouter(), []);
  const color = useSettings((s) => s.color);

  useEffect(() => {
    setUnknownErrorText(() => t('unknownError'));
    // Any 401: sign out here and go to the sign-in page.
    setUnauthorizedHandler(() => {
      useSession.getState().signOutLocally();
      useTabs.getState().reset();
      void router.navigate('/login', { replace: true });
    });
  }, [router, t]);

  return (
    <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN} theme={{ token: { colorPrimary: color } }}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </ConfigProvider>
  );
}
