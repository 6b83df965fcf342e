import type { FastifyRequest } from 'fastify';
import { DEFAULT_TENANT_ID } from '@mes/contracts';
import { unauthorized } from '../http/errors';
import type { SessionRights, TokenClaims } from './claims';

/** The signed-in caller of a request, as the authentication hook found it. */
export interface AuthContext {
  tenantId: string;
  userId: string;
  deptId: string;
  roleIds: string[];
  roleAliases: string[];
  account: string;
  clientId: string;
  claims: TokenClaims;
}

declare module 'fastify' {
  interface FastifyRequest {
    authContext: AuthContext | undefined;
  }
  interface FastifyContextConfig {
    /** The route answers without a token (sign-in, captcha, health). */
    public?: boolean;
    /**
     * The API-scope code a caller's roles must grant (`post:read`, `user:grant`); the
     * administrator passes. Every signed-in route declares this or `anyUser`.
     */
    apiScope?: string;
    /** Any signed-in user may call it (their own profile, menus, dictionaries). */
    anyUser?: boolean;
  }
}

/**
 * Whom a data scope is decided for: a caller, or a user the server acts about without a request
 * (the users an escalation would notify, modules/warning/escalation-recipients.ts).
 */
export type ScopeSubject = Pick<AuthContext, 'tenantId' | 'userId' | 'deptId' | 'roleIds' | 'roleAliases'>;

export const splitIds = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The caller of a live session. Department and roles are the account's current ones, not the
 * token's: a change of roles takes effect on the next request instead of at the next sign-in.
 */
export function toAuthContext(claims: TokenClaims, rights: SessionRights): AuthContext {
  return {
    tenantId: claims.tenant_id,
    userId: claims.user_id,
    deptId: rights.deptId,
    roleIds: rights.roleIds,
    roleAliases: rights.roleAliases,
    account: claims.account,
    clientId: claims.client_id,
    claims,
  };
}

/** The caller of a route behind sign-in; the hook has already refused requests without one. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw unauthorized();
  return request.authContext;
}

/** Reads `Blade-Auth: bearer <token>`. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers['blade-auth'];
  if (typeof header !== 'string') return undefined;
  const m = /^bearer\s+(\S+)$/i.exec(header.trim());
  return m?.[1];
}

export const ADMINISTRATOR_ROLE = 'administrator';

/**
 * The platform's super administrator: the `administrator` role of the platform tenant. A
 * tenant cannot make one by naming a role `administrator` (role submit refuses that alias).
 */
export const isAdministrator = (auth: Pick<AuthContext, 'tenantId' | 'roleAliases'>) =>
  auth.tenantId === DEFAULT_TENANT_ID && auth.roleAliases.includes(ADMINISTRATOR_ROLE);

/** Callers of the platform tenant may manage what is shared by all tenants. */
export const isPlatformCaller = (auth: AuthContext) => auth.tenantId === DEFAULT_TENANT_ID;
