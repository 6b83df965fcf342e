/** Grant types of `POST /api/blade-auth/oauth/token`. */
export const GRANT_TYPES = ['password', 'captcha', 'refresh_token', 'sms', 'social', 'qr'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** The success body of the token endpoint (raw JSON, not the envelope). */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
  tenant_id: string;
  user_id: string;
  dept_id: string;
  post_id: string;
  role_id: string;
  oauth_id: string;
  account: string;
  user_name: string;
  nick_name: string;
  real_name: string;
  /** Comma-joined role aliases. */
  role_name: string;
  avatar: string;
  detail: { type: string };
  license: string;
}

/**
 * The token route of SpringBlade 3.7.1 (`POST /api/blade-auth/token`), which its console Saber
 * 3.7.1 signs in and refreshes with: its parameter names and the grants it takes here.
 */
export const FAMILY_TOKEN_PATH = '/api/blade-auth/token';
export const FAMILY_GRANT_TYPES = ['password', 'captcha', 'refresh_token'] as const;
export type FamilyGrantType = (typeof FAMILY_GRANT_TYPES)[number];

/**
 * The family's sign-out. Saber 3.7.1 posts `/blade-auth/logout` with no `/api` prefix (its
 * `src/api/user.js`); SpringBlade serves it from 4.1.0 on as `POST /logout` of blade-auth, which
 * the family's proxy reaches as `/api/blade-auth/logout`. Both paths are served; both revoke the
 * session as `/api/blade-auth/oauth/logout` does.
 */
export const FAMILY_LOGOUT_PATH = '/api/blade-auth/logout';
export const FAMILY_CLIENT_LOGOUT_PATH = '/blade-auth/logout';

/** The data of the family's sign-out reply (SpringBlade's `Kv` of `code` and `msg`, `code` as text). */
export interface FamilyLogoutInfo {
  code: '200';
  msg: string;
}

/** The data of a successful `POST /api/blade-auth/token`, in the envelope (SpringBlade's `AuthInfo`). */
export interface FamilyAuthInfo {
  accessToken: string;
  tokenType: 'bearer';
  refreshToken: string;
  userId: string;
  tenantId: string;
  oauthId: string;
  account: string;
  /** The person's real name, as the family shows it in the top bar. */
  userName: string;
  avatar: string;
  /** Comma-joined role aliases. */
  authority: string;
  /** Seconds the access token lives. */
  expiresIn: number;
  license: string;
}

/** The failure body of the token endpoint (raw JSON, with a 4xx status). */
export interface TokenError {
  error_code: number;
  error_description: string;
}

/** The header that carries the access token on every other call. */
export const TOKEN_HEADER = 'Blade-Auth';
export const DEFAULT_TENANT_ID = '000000';

/** The captcha reply of `GET /api/blade-auth/oauth/captcha`. */
export interface CaptchaResponse {
  key: string;
  /** A `data:image/svg+xml;base64,...` URL. */
  image: string;
}

/** Data of `GET /api/blade-auth/oauth/user-info`. */
export interface OAuthUserInfo {
  tenantId: string;
  userId: string;
  account: string;
  userName: string;
  realName: string;
  nickName: string;
  avatar: string;
  deptId: string;
  postId: string;
  roleId: string;
  roleName: string;
  /** Role aliases; the shell shows a menu item with `meta.roles` only when one matches. */
  roles: string[];
}

/**
 * `status` of a user: guest registrations wait as `pending` until an administrator approves them
 * (`/api/blade-user/audit-pass`); only `active` accounts may sign in.
 */
export const UserStatus = { active: 1, pending: 0 } as const;
