import { authText, type BilingualText, type TokenError } from '@mes/contracts';
import type { ReplyLanguage } from '../../platform/http/request-language';

/**
 * A refusal of the token endpoint, answered as `{error_code, error_description}` (not the
 * envelope), the description in the caller's language (`Accept-Language`; Chinese by default,
 * as BladeX clients expect).
 */
export class OAuthError extends Error {
  readonly text: BilingualText;
  constructor(
    readonly status: 400 | 401 | 429,
    text: BilingualText,
    /** The body's `error_code`: the status, unless the client must act on something more specific. */
    readonly code: number = status,
    /** Sent as `Retry-After` (a 429 says when to come back). */
    readonly retryAfterSeconds?: number,
  ) {
    super(text.zh);
    this.text = text;
  }

  /** The Chinese text: what the login log keeps, whatever the caller's language. */
  get description(): string {
    return this.text.zh;
  }

  toBody(lang: ReplyLanguage = 'zh'): TokenError {
    return { error_code: this.code, error_description: this.text[lang] };
  }
}

/**
 * A wrong password or an unknown account (one message for both). The only refusal that counts
 * as a failed sign-in for the limits of `sign-in-limits.ts`.
 */
export class WrongCredentialsError extends OAuthError {
  constructor() {
    super(400, authText('badCredentials'));
  }
}
