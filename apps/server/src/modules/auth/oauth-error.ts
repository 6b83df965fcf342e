import { AuthMessages, type TokenError } from '@mes/contracts';

/** A refusal of the token endpoint, answered as `{error_code, error_description}` (not the envelope). */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 429,
    readonly description: string,
    /** The body's `error_code`: the status, unless the client must act on something more specific. */
    readonly code: number = status,
    /** Sent as `Retry-After` (a 429 says when to come back). */
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
  }

  toBody(): TokenError {
    return { error_code: this.code, error_description: this.description };
  }
}

/**
 * A wrong password or an unknown account (one message for both). The only refusal that counts
 * as a failed sign-in for the limits of `sign-in-limits.ts`.
 */
export class WrongCredentialsError extends OAuthError {
  constructor() {
    super(400, AuthMessages.badCredentials);
  }
}
