import { textPairs } from '../api/messages';

/**
 * `error_code` values of token-endpoint refusals that a client must act on. The HTTP status of a
 * captcha demand stays 400 (an OAuth token error); the code tells the page what to do next.
 */
export const TokenErrorCode = {
  /** Send the same request again with `grant_type=captcha` and a solved captcha. */
  captchaRequired: 428,
  /** Too many failed sign-ins from this address: wait (`Retry-After` seconds), then try again. */
  tooManyAttempts: 429,
} as const;

export const SignInLimitMessages = {
  /** Captcha mode is on: every password sign-in carries a captcha. */
  captchaRequired: '请输入验证码',
  /** Failures from this address (or for this account) reached a limit. */
  captchaAfterFailures: '登录失败次数过多,请输入验证码',
  /** The failure that reached a limit: the password was wrong, and the next try needs a captcha. */
  badCredentialsCaptchaNext: '用户名或密码不正确,请输入验证码',
  tooManyAttempts: '请求过于频繁,请稍后再试',
} as const;

/** {@link SignInLimitMessages} in English, key for key. */
export const SignInLimitMessagesEn = {
  captchaRequired: 'Please enter the captcha',
  captchaAfterFailures: 'Too many failed sign-ins, please enter the captcha',
  badCredentialsCaptchaNext: 'Wrong user name or password, please enter the captcha',
  tooManyAttempts: 'Too many requests, please try again later',
} as const satisfies { [K in keyof typeof SignInLimitMessages]: string };

/** A {@link SignInLimitMessages} entry in both languages. */
export const signInLimitText = textPairs(SignInLimitMessages, SignInLimitMessagesEn);

/** Data of `GET /api/blade-auth/oauth/sign-in-options` (public): what the sign-in page asks for. */
export interface SignInOptions {
  /** Param `account.captchaMode`: every password sign-in needs a captcha. */
  captchaMode: boolean;
}
