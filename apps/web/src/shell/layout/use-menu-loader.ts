import { useEffect } from 'react';
import { fetchButtons, fetchMenuRoutes, fetchUserInfo } from '../../api/auth';
import { useSession } from '../../session/session-store';

/** After sign-in (or a reload), reads the user's roles, menus and buttons from the server. */
export function useMenuLoader(): void {
  const token = useSession((s) => s.token);
  useEffect(() => {
    if (!token) return;
    const session = useSession.getState();
    void fetchUserInfo()
      .then(session.setUserInfo)
      .catch(() => undefined);
    void fetchMenuRoutes()
      .then((menu) => session.setMenu(menu, true))
      .catch(() => undefined);
    void fetchButtons()
      .then(session.setButtons)
      .catch(() => undefined);
  }, [token]);
}
