import { AuthPaths, socialRenderPath, type TokenResponse } from '@mes/contracts';
import { request, requestData } from './http';

/** A provider offered on the sign-in page. */
export interface SocialSource {
  source: string;
  name: string;
  category: 'oidc' | 'github' | 'gitee';
}

/** Where to send the browser, and the state the provider will send back. */
export interface SocialRender {
  url: string;
  state: string;
  source: string;
  expiresIn: number;
}

/** The 400 of a first social sign-in: the ticket to link an account or register with. */
export interface SocialNotLinked {
  error_description: string;
  oauth_id: string;
  source: string;
  username: string;
  nickname: string;
  avatar: string;
}

export const fetchSocialSources = (tenantId: string) =>
  requestData<SocialSource[]>(AuthPaths.socialSources, {
    params: { tenantId },
    noToken: true,
    silent: true,
  });

export const renderSocial = (source: string, tenantId: string) =>
  requestData<SocialRender>(socialRenderPath(source), {
    params: { tenantId, origin: window.location.origin },
    noToken: true,
    silent: true,
  });

export const signInWithSocial = (args: { tenantId: string; source: string; code: string; state: string }) =>
  request<TokenResponse>(AuthPaths.token, {
    method: 'POST',
    noToken: true,
    silent: true,
    headers: { 'Tenant-Id': args.tenantId, 'User-Type': 'web' },
    form: true,
    data: { ...args, grant_type: 'social', scope: 'all' },
  });

/** md5 only when the form is sent (as for password sign-in). */
const md5Of = async (text: string) => (await import('js-md5')).md5(text);

export async function linkSocialAccount(args: {
  tenantId: string;
  oauthId: string;
  account: string;
  password: string;
  /** A solved captcha, once the server asks for one (captcha mode or failures past a limit). */
  captcha?: { key: string; code: string };
}): Promise<TokenResponse> {
  const captchaHeaders: Record<string, string> = args.captcha
    ? { 'Captcha-Key': args.captcha.key, 'Captcha-Code': args.captcha.code }
    : {};
  return request<TokenResponse>(AuthPaths.socialLink, {
    method: 'POST',
    noToken: true,
    silent: true,
    headers: { 'Tenant-Id': args.tenantId, 'User-Type': 'web', ...captchaHeaders },
    form: true,
    data: {
      tenantId: args.tenantId,
      oauthId: args.oauthId,
      account: args.account,
      password: await md5Of(args.password),
    },
  });
}

/**
 * The attempt this tab started: checked when the provider sends the browser back, so a callback
 * this tab did not ask for (login CSRF) is refused. Session storage: one tab, one attempt.
 */
const PENDING_KEY = 'mes-social-pending';

export interface PendingSocial {
  state: string;
  source: string;
  tenantId: string;
}

export function rememberSocial(pending: PendingSocial): void {
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
}

/** The attempt this tab started, if any (kept until `forgetSocial`: React may render twice). */
export function pendingSocial(): PendingSocial | undefined {
  const raw = sessionStorage.getItem(PENDING_KEY);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as PendingSocial;
  } catch {
    return undefined;
  }
}

export function forgetSocial(): void {
  sessionStorage.removeItem(PENDING_KEY);
}
