/**
 * The sign-in routes (under `/api`) the console calls and the server registers, one definition
 * for both sides (docs/sign-in.md). The family's own token and sign-out routes are in oauth.ts.
 */
export const AuthPaths = {
  /** Every grant of `GRANT_TYPES` (password, captcha, refresh, sms, social, qr). */
  token: '/blade-auth/oauth/token',
  /** What the sign-in page asks for before the first attempt (`SignInOptions`). */
  signInOptions: '/blade-auth/oauth/sign-in-options',
  captcha: '/blade-auth/oauth/captcha',
  userInfo: '/blade-auth/oauth/user-info',
  logout: '/blade-auth/oauth/logout',
  clearCache: '/blade-auth/oauth/clear-cache',
  socialSources: '/blade-auth/oauth/social/sources',
  /** A first-time social user links an existing account. */
  socialLink: '/blade-auth/oauth/social/link',
  /** `grant_type=qr` as a route of its own. */
  qrLogin: '/blade-auth/oauth/qrlogin',
  /** A new QR session for the sign-in page; the routes below act on one by its code. */
  qrCode: '/blade-auth/oauth/qrcode',
  qrStatus: '/blade-auth/oauth/qrcode/status',
  qrScan: '/blade-auth/oauth/qrcode/scan',
  qrConfirm: '/blade-auth/oauth/qrcode/confirm',
  qrCancel: '/blade-auth/oauth/qrcode/cancel',
  /** A sign-in code by SMS for `grant_type=sms`. */
  smsCode: '/alisms/send',
} as const;

/** The base of `<base>/:source`, the authorize URL of one third-party provider. */
export const SOCIAL_RENDER_BASE = '/blade-auth/oauth/render';

export const socialRenderPath = (source: string) => `${SOCIAL_RENDER_BASE}/${encodeURIComponent(source)}`;
