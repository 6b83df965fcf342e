import type { TokenError } from '@mes/contracts';

/** A refusal of the token endpoint, answered as `{error_code, error_description}` (not the envelope). */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly description: string,
  ) {
    super(description);
  }

  toBody(): TokenError {
    return { error_code: this.status, error_description: this.description };
  }
}
