import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { fetchButtons, fetchMenuRoutes, fetchUserInfo } from '../../api/auth';
import { useSession } from '../../session/session-store';

/**
 * One start-up read of a session: asked once per sign-in (the token is in its key, so another
 * user's answer is never reused), kept while the layout lives, and handed to the session store.
 * The HTTP client toasts a failure; the read is not tried again, as before queries.
 */
function useStartupRead<T>(name: string, token: string, read: () => Promise<T>, apply: (value: T) => void): void {
  const { data } = useQuery({
    queryKey: ['session', name, token],
    queryFn: read,
    enabled: !!token,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    meta: { silent: true },
  });
  useEffect(() => {
    if (data !== undefined) apply(data);
  }, [data, apply]);
}

type Info = Awaited<ReturnType<typeof fetchUserInfo>>;
type Menu = Awaited<ReturnType<typeof fetchMenuRoutes>>;
const setUserInfo = (info: Info) => useSession.getState().setUserInfo(info);
const setFullMenu = (menu: Menu) => useSession.getState().setMenu(menu, true);
const setButtons = (buttons: Menu) => useSession.getState().setButtons(buttons);

/** After sign-in (or a reload), reads the user's roles, menus and buttons from the server. */
export function useMenuLoader(): void {
  const token = useSession((s) => s.token);
  useStartupRead('user-info', token, fetchUserInfo, setUserInfo);
  useStartupRead('menu-routes', token, () => fetchMenuRoutes(), setFullMenu);
  useStartupRead('buttons', token, fetchButtons, setButtons);
}
