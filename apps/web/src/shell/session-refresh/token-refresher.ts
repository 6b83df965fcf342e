import type { TokenResponse } from '@mes/contracts';

/** What the refresher reads of the session at each check. */
export interface SessionTokens {
  refreshToken: string;
  tenantId: string;
  /** When the access token was stored (ms since the epoch); 0 when unknown. */
  tokenTime: number;
}

/**
 * Whether a check at `now` should refresh: a refresh token exists, none is running, and the
 * stored token is at least `thresholdSeconds` old.
 */
export function shouldRefresh(
  session: SessionTokens,
  now: number,
  thresholdSeconds: number,
  running: boolean,
): boolean {
  if (running || !session.refreshToken) return false;
  return (now - session.tokenTime) / 1000 >= thresholdSeconds;
}

export interface TokenRefresherDeps {
  now(): number;
  read(): SessionTokens;
  refresh(refreshToken: string, tenantId: string): Promise<TokenResponse>;
  store(result: TokenResponse): void;
  thresholdSeconds: number;
}

/**
 * Refreshes the token when it is old enough, one refresh at a time: every check made while a
 * refresh runs shares that refresh's promise, so two layouts, StrictMode's double effects or a
 * slow server can never start a second one (the server revokes the old session on refresh, so
 * a second refresh with the same refresh token would fail and could sign the user out).
 */
export class TokenRefresher {
  private inFlight: Promise<void> | undefined;

  constructor(private readonly deps: TokenRefresherDeps) {}

  get running(): boolean {
    return this.inFlight !== undefined;
  }

  /** Resolves when the check (and any refresh it started or joined) is done; never rejects. */
  check(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const session = this.deps.read();
    if (!shouldRefresh(session, this.deps.now(), this.deps.thresholdSeconds, false)) return Promise.resolve();
    this.inFlight = this.run(session.refreshToken, session.tenantId).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async run(refreshToken: string, tenantId: string): Promise<void> {
    try {
      const result = await this.deps.refresh(refreshToken, tenantId);
      // A sign-out or a new sign-in while the call ran: its tokens must not come back.
      if (this.deps.read().refreshToken !== refreshToken) return;
      this.deps.store(result);
    } catch {
      // Left for the next check to retry; a 401 has already signed the user out (api/http.ts).
    }
  }
}
