import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../store/ephemeral-store';
import type { RevocationList } from './revocation-list';
import type { SessionClaims, SessionRights, TokenClaims, TokenType } from './claims';

// Modules name the claims by the service that signs them.
export type { TokenClaims } from './claims';

const ISSUER = 'mes-console';

/** Who a token speaks for; copied into both tokens of a session. */
export interface TokenSubject {
  tenantId: string;
  userId: string;
  deptId: string;
  postId: string;
  roleId: string;
  roleName: string;
  account: string;
  userName: string;
  clientId: string;
  /**
   * The password stamp (`sessionStamp`) of the user row the grant checked; when absent, the
   * stamp of the row as stored at issue time.
   */
  stamp?: string;
}

/** Whether a session still stands for its account (see session-state.ts). */
export interface SessionCheck {
  currentStamp(tenantId: string, userId: string): Promise<string | undefined>;
  rightsOf(claims: SessionClaims, options: { fresh: boolean }): Promise<SessionRights | undefined>;
}

/** A valid access token and what its caller may do now. */
export interface LiveSession {
  claims: TokenClaims;
  rights: SessionRights;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  sid: string;
}

const MAX_VERIFIED = 10_000;

/**
 * Signs and checks tokens with the installation's secret (HS256). Logout and refresh revoke the
 * session id in the revocation list, so a revoked token stops working at once on every process;
 * a session whose account changed (removed, new password, tenant gone or expired) is refused
 * by the session check just as fast.
 */
export class TokenService {
  /** Imported once: jose would otherwise import raw key bytes on every sign and verify. */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly clock: Clock,
    private readonly revocations: RevocationList,
    private readonly sessions: SessionCheck,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  async issue(subject: TokenSubject, accessValidity: number, refreshValidity: number): Promise<IssuedTokens> {
    const sid = randomUUID();
    const issuedAt = Math.floor(this.clock.now() / 1000);
    // No stamp (the user is gone) gives a token no check will ever accept.
    const stamp = subject.stamp ?? (await this.sessions.currentStamp(subject.tenantId, subject.userId)) ?? '';
    const base = {
      tenant_id: subject.tenantId,
      user_id: subject.userId,
      dept_id: subject.deptId,
      post_id: subject.postId,
      role_id: subject.roleId,
      role_name: subject.roleName,
      account: subject.account,
      user_name: subject.userName,
      client_id: subject.clientId,
      sid,
      session_exp: issuedAt + refreshValidity,
      stamp,
    };
    const sign = (type: TokenType, validity: number) =>
      new SignJWT({ ...base, token_type: type })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setJti(randomUUID())
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + validity)
        .sign(this.key);
    const [accessToken, refreshToken] = await Promise.all([
      sign('access_token', accessValidity),
      sign('refresh_token', refreshValidity),
    ]);
    return { accessToken, refreshToken, expiresIn: accessValidity, sid };
  }

  /** The claims of a valid, unexpired, unrevoked token of the expected type, else undefined. */
  async verify(token: string, expected: TokenType): Promise<TokenClaims | undefined> {
    return (await this.check(token, expected))?.claims;
  }

  /** The session of a valid access token whose account still stands, with its current rights. */
  authenticate(token: string): Promise<LiveSession | undefined> {
    return this.check(token, 'access_token');
  }

  private async check(token: string, expected: TokenType): Promise<LiveSession | undefined> {
    const claims = await this.signedClaims(token);
    if (!claims || claims.token_type !== expected) return undefined;
    if (await this.revocations.isRevoked(claims.sid)) return undefined;
    const rights = await this.sessions.rightsOf(claims, { fresh: expected === 'refresh_token' });
    return rights ? { claims, rights } : undefined;
  }

  /**
   * Tokens whose signature was already checked, by their exact text. Every request carries its
   * token; checking the signature once instead of on each call saves the WebCrypto round trip.
   * Expiry, revocation and the account are still checked on every call.
   */
  private readonly verified = new Map<string, TokenClaims>();

  /** The claims of an unexpired token signed here, else undefined. */
  private async signedClaims(token: string): Promise<TokenClaims | undefined> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > this.clock.now()) return known;
      this.verified.delete(token);
      return undefined;
    }
    let claims: TokenClaims;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
        clockTolerance: 0,
      });
      claims = payload as unknown as TokenClaims;
    } catch (e) {
      if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return undefined;
      throw e;
    }
    // Tokens issued before sessions carried a stamp are refused: their account cannot be checked.
    if (typeof claims.sid !== 'string' || typeof claims.exp !== 'number' || typeof claims.stamp !== 'string')
      return undefined;
    this.remember(token, claims);
    return claims;
  }

  private remember(token: string, claims: TokenClaims): void {
    // Bounded: the oldest entry goes first; a forgotten token is simply verified again.
    if (this.verified.size >= MAX_VERIFIED) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, claims);
  }

  /** Ends a session: its access and refresh tokens are refused from now on. */
  async revoke(claims: Pick<TokenClaims, 'sid' | 'session_exp'>): Promise<void> {
    await this.revocations.revoke(claims.sid, claims.session_exp * 1000 + 1000);
  }
}
