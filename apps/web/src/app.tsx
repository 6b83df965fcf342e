import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler, setUnknownErrorText } from './api/http';
import { createRouter } from './routes';
import { useSession } from './session/session-store';
import { useTabs } from './shell/tabs/tabs-store';
import { useSettings } from './shell/themes/settings-store';
import { antdThemeConfig, themeColors } from './shell/themes/theme-colors';
import { useThemeCssVars } from './shell/themes/use-theme-css-vars';

export function App() {
  const { i18n, t } = useTranslation();
  const router = useMemo(() => createRouter(), []);
  const color = useSettings((s) => s.color);
  const theme = useSettings((s) => s.theme);
  const colors = useMemo(() => themeColors(theme, color), [theme, color]);
  const antdTheme = useMemo(() => antdThemeConfig(colors), [colors]);
  useThemeCssVars(colors);

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
    // Server state (TanStack Query) is provided by the signed-in screens' layouts
    // (api/server-state-provider.tsx), so /login's first load does without it.
    <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN} theme={antdTheme}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </ConfigProvider>
  );
}
