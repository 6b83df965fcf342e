import {
  AuthPaths,
  MenuPaths,
  TokenErrorCode,
  type CaptchaResponse,
  type MenuNode,
  type OAuthUserInfo,
  type SignInOptions,
  type TokenResponse,
} from '@mes/contracts';
import { request, requestData } from './http';

export interface PasswordSignIn {
  tenantId: string;
  username: string;
  /** As typed: hashed here, never sent in clear. */
  password: string;
  /** A solved captcha: sent with grant_type=captcha. */
  captcha?: { key: string; code: string };
}

/** md5 is needed only when the form is sent, so it stays out of the sign-in page's first load. */
const md5Of = async (text: string) => (await import('js-md5')).md5(text);

export async function signInWithPassword(form: PasswordSignIn): Promise<TokenResponse> {
  const headers: Record<string, string> = { 'Tenant-Id': form.tenantId, 'User-Type': 'web' };
  if (form.captcha) {
    headers['Captcha-Key'] = form.captcha.key;
    headers['Captcha-Code'] = form.captcha.code;
  }
  return request<TokenResponse>(AuthPaths.token, {
    method: 'POST',
    noToken: true,
    headers,
    form: true,
    data: {
      tenantId: form.tenantId,
      username: form.username,
      password: await md5Of(form.password),
      grant_type: form.captcha ? 'captcha' : 'password',
      scope: 'all',
      type: 'account',
    },
  });
}

export function refreshSession(refreshToken: string, tenantId: string): Promise<TokenResponse> {
  return request<TokenResponse>(AuthPaths.token, {
    method: 'POST',
    noToken: true,
    silent: true,
    headers: { 'Tenant-Id': tenantId, 'User-Type': 'web' },
    form: true,
    data: { tenantId, refresh_token: refreshToken, grant_type: 'refresh_token', scope: 'all' },
  });
}

/** What the sign-in page must ask for before the first attempt (the server's captcha mode). */
export const fetchSignInOptions = () =>
  requestData<SignInOptions>(AuthPaths.signInOptions, { noToken: true, silent: true });

/** The token endpoint's refusal asks for a captcha (captcha mode, or failures past a limit). */
export const asksForCaptcha = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  (body as { error_code?: unknown }).error_code === TokenErrorCode.captchaRequired;

export const fetchCaptcha = () => request<CaptchaResponse>(AuthPaths.captcha, { noToken: true });
export const fetchUserInfo = () => requestData<OAuthUserInfo>(AuthPaths.userInfo);
export const signOutOnServer = () => requestData<null>(AuthPaths.logout, { silent: true });
export const clearServerCache = () => requestData<null>(AuthPaths.clearCache);
export const fetchMenuRoutes = (topMenuId?: string) =>
  requestData<MenuNode[]>(MenuPaths.routes, { params: { topMenuId } });
export const fetchButtons = () => requestData<MenuNode[]>(MenuPaths.buttons);

/** A top menu of the header (`MenuPaths.topMenu`). */
export interface TopMenuItem {
  id: string;
  code: string;
  name: string;
  source: string;
  sort: number;
}
export const fetchTopMenus = () => requestData<TopMenuItem[]>(MenuPaths.topMenu, { silent: true });
