import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { website } from '../config/website';
import { useSession } from '../session/session-store';
import { getStoreItem } from '../storage/local-store';
import { menuTitleAt } from './menu-paths';
import { useRouteMeta } from './route-meta';

/**
 * The navigation guard of spec section 2, as a wrapper around every route:
 * locked → /lock; signed in on /login → /; empty stored token → local sign-out; no token on a
 * route that needs one → /login; `?target` opens the page in a new window; sets the page title.
 */
/** The home page needs no way back; any other page (a QR confirm link, say) is reopened after sign-in. */
const loginFor = (pathname: string, search: string) =>
  ['/', '/wel', '/wel/index'].includes(pathname)
    ? '/login'
    : `/login?${new URLSearchParams({ redirect: `${pathname}${search}` }).toString()}`;

export function Guard() {
  const location = useLocation();
  const navigate = useNavigate();
  const { t, i18n } = useTranslation();
  const token = useSession((s) => s.token);
  const isLock = useSession((s) => s.isLock);
  const signOutLocally = useSession((s) => s.signOutLocally);
  const menuAll = useSession((s) => s.menuAll);
  const meta = useRouteMeta();
  const needsAuth = meta.isAuth !== false;
  const storedToken = getStoreItem<string>('token');
  const emptyToken = storedToken !== undefined && !storedToken.content;

  useEffect(() => {
    if (emptyToken) signOutLocally();
  }, [emptyToken, signOutLocally]);

  useEffect(() => {
    // A menu screen is titled as its tab is, in the language shown.
    const title =
      location.pathname === '/login'
        ? t('login:pageTitle')
        : meta.i18n
          ? t(meta.i18n)
          : (menuTitleAt(menuAll, location.pathname, i18n.language) ?? '');
    document.title = title ? `${title} - ${t('common:title')}` : t('common:title');
  }, [location.pathname, meta.i18n, menuAll, t, i18n.language]);

  const opensNewWindow = new URLSearchParams(location.search).has('target');
  useEffect(() => {
    if (!opensNewWindow) return;
    const params = new URLSearchParams(location.search);
    params.delete('target');
    const rest = params.toString();
    window.open(`${location.pathname}${rest ? `?${rest}` : ''}`, '_blank');
    // The page opens in the new window; this one stays where it was.
    if (window.history.length > 1) void navigate(-1);
    else void navigate('/', { replace: true });
  }, [opensNewWindow, location.pathname, location.search, navigate]);

  if (opensNewWindow) return null;
  if (isLock && location.pathname !== website.lockPage) return <Navigate to={website.lockPage} replace />;
  if (token && location.pathname === '/login') return <Navigate to="/" replace />;
  if ((!token || emptyToken) && needsAuth)
    return <Navigate to={loginFor(location.pathname, location.search)} replace />;
  return <Outlet />;
}
