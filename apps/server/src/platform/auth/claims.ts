/**
 * The plain types of a session that the token service (tokens.ts), the session check
 * (session-state.ts) and the request's caller (request-auth.ts) all name: a leaf without imports,
 * so those three build on it instead of on each other (ARCHITECTURE.md "No cycles").
 */

export type TokenType = 'access_token' | 'refresh_token';

export interface TokenClaims {
  tenant_id: string;
  user_id: string;
  dept_id: string;
  post_id: string;
  role_id: string;
  role_name: string;
  account: string;
  user_name: string;
  client_id: string;
  token_type: TokenType;
  /** Session id shared by an access token and its refresh token: revoking it ends both. */
  sid: string;
  /** When the session's refresh token expires (seconds); revocations are kept until then. */
  session_exp: number;
  /** The password stamp the session was issued under (`sessionStamp`); a new password ends it. */
  stamp: string;
  jti: string;
  exp: number;
  iat: number;
}

/** What a live session may do now: the user's current department and live roles. */
export interface SessionRights {
  deptId: string;
  roleIds: string[];
  roleAliases: string[];
}

/** The claims a session check reads. */
export type SessionClaims = Pick<TokenClaims, 'tenant_id' | 'user_id' | 'sid' | 'stamp' | 'session_exp' | 'iat'>;
