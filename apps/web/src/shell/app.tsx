import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler, setUnknownErrorText } from '../api/http';
import { createQueryClient } from '../api/server-state';
import { createRouter } from '../router/routes';
import { useSession } from '../session/session-store';
import { useTabs } from './tabs/tabs-store';
import { useSettings } from './themes/settings-store';
import { antdThemeConfig, themeColors } from './themes/theme-colors';
import { useThemeCssVars } from './themes/use-theme-css-vars';

export function App() {
  const { i18n, t } = useTranslation();
  const router = useMemo(() => createRouter(), []);
  const [queryClient] = useState(createQueryClient);
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

  // Cached server state belongs to one signed-in user of one tenant: drop it when that changes
  // (sign-out, sign-in, another account); a refreshed token keeps it.
  useEffect(
    () =>
      useSession.subscribe((now, before) => {
        const owner = (s: typeof now) => (s.token ? `${s.tenantId}|${s.userInfo.user_id ?? ''}` : '');
        if (owner(now) !== owner(before)) queryClient.clear();
      }),
    [queryClient],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN} theme={antdTheme}>
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
