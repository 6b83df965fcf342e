import { authText, UserStatus, type TokenResponse } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { verifyAgainstDummy, verifyPassword } from '../../platform/auth/passwords';
import { sessionStamp } from '../../platform/auth/session-state';
import type { TokenClaims } from '../../platform/auth/tokens';
import {
  findTenant,
  findUserByAccount,
  findUserById,
  isTenantExpired,
  rolesOf,
  type UserRow,
} from '../user/user-repository';
import type { ClientRow } from './client-auth';
import { OAuthError, WrongCredentialsError } from './oauth-error';

/** A guest registration not yet approved (status pending) is told so, not that it is disabled. */
export const PENDING_APPROVAL = {
  zh: '账号正在等待管理员审核',
  en: 'The account is waiting for approval by an administrator',
};

/** Clears an account's failure counters, from every address (the user screen's 账号解封). */
export { unlockAccount } from './sign-in-limits';

/**
 * Checks an account and its md5 password; an unknown account costs as much time as a known one
 * and gets the same refusal. Callers run it inside `limitPasswordAttempt` (sign-in-limits.ts),
 * which counts the `WrongCredentialsError`s and asks for the captcha past the limits.
 */
export async function signInWithPassword(
  ctx: AppContext,
  client: ClientRow,
  tenantId: string,
  account: string,
  md5: string,
): Promise<TokenResponse> {
  if (!account) throw new OAuthError(400, authText('missingUsername'));
  if (!md5) throw new OAuthError(400, authText('missingPassword'));
  const found = await findUserByAccount(ctx.db, tenantId, account);
  const passwordOk = found ? await verifyPassword(found.password, md5) : await verifyAgainstDummy(md5);
  if (!found || !passwordOk) throw new WrongCredentialsError();
  return issueFor(ctx, client, found);
}

/** Trades a valid refresh token for a new pair; the old session ends (refreshed-away tokens get 401). */
export async function signInWithRefreshToken(
  ctx: AppContext,
  client: ClientRow,
  refreshToken: string,
  tenantId: string | undefined,
): Promise<TokenResponse> {
  const claims = refreshToken ? await ctx.tokens.verify(refreshToken, 'refresh_token') : undefined;
  if (!claims || claims.client_id !== client.clientId || (tenantId && tenantId !== claims.tenant_id)) {
    throw new OAuthError(400, authText('invalidRefreshToken'));
  }
  const found = await findUserById(ctx.db, claims.tenant_id, claims.user_id);
  if (!found) throw new OAuthError(400, authText('invalidRefreshToken'));
  const response = await issueFor(ctx, client, found);
  await ctx.tokens.revoke(claims satisfies TokenClaims);
  return response;
}

/**
 * Issues a token pair for a user found by any grant: the tenant must be live and unexpired, the
 * account enabled and holding a role.
 */
export async function issueFor(ctx: AppContext, client: ClientRow, u: UserRow): Promise<TokenResponse> {
  const tenantRow = await findTenant(ctx.db, u.tenantId);
  if (!tenantRow || tenantRow.status !== 1) throw new OAuthError(400, authText('noTenant'));
  if (isTenantExpired(tenantRow, ctx.clock.now())) throw new OAuthError(400, authText('tenantExpired'));
  if (u.status === UserStatus.pending) throw new OAuthError(400, PENDING_APPROVAL);
  if (u.status !== UserStatus.active) throw new OAuthError(400, authText('accountDisabled'));
  const roles = await rolesOf(ctx.db, u);
  if (!roles.length) throw new OAuthError(400, authText('noRole'));

  const roleId = roles.map((r) => r.id).join(',');
  const roleName = roles.map((r) => r.roleAlias).join(',');
  const issued = await ctx.tokens.issue(
    {
      tenantId: u.tenantId,
      userId: u.id,
      deptId: u.deptId,
      postId: u.postId,
      roleId,
      roleName,
      account: u.account,
      userName: u.name,
      clientId: client.clientId,
      // The password the grant just checked: a reset landing meanwhile ends this session too.
      stamp: sessionStamp(u),
    },
    client.accessTokenValidity,
    client.refreshTokenValidity,
  );
  return {
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    tenant_id: u.tenantId,
    user_id: u.id,
    dept_id: u.deptId,
    post_id: u.postId,
    role_id: roleId,
    oauth_id: '',
    account: u.account,
    user_name: u.name,
    nick_name: u.name,
    real_name: u.realName,
    role_name: roleName,
    avatar: u.avatar,
    detail: { type: String(u.userType === 1 ? 'web' : u.userType) },
    license: 'MES Console',
  };
}
