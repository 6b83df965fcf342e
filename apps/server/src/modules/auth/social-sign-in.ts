import { eq, isNull } from 'drizzle-orm';
import type { TokenError, TokenResponse } from '@mes/contracts';
import type { ReplyLanguage } from '../../platform/http/request-language';
import type { AppContext } from '../../app-context';
import { nextId } from '../../platform/db/ids';
import { userOauth } from '../../platform/db/schema';
import { outboundPolicy } from '../../platform/net/outbound-policy';
import { tenantScope, type Queryable } from '../../platform/tenancy/tenant-scope';
import { findUserById } from '../user/user-repository';
import type { ClientRow } from './client-auth';
import { OAuthError } from './oauth-error';
import { issueFor, signInWithPassword } from './sign-in';
import { exchangeCode, fetchProfile, ProviderError, type SocialProfile } from './social/providers';
import { findSource, SourceMessages } from './social/social-source-repository';
import {
  createTicket,
  dropTicket,
  readTicket,
  SocialMessages,
  takeState,
  type SocialTicket,
} from './social/social-session';

/** The reply to a first social sign-in: what the page needs to link an account or register. */
export interface SocialNotLinkedBody extends TokenError {
  /** The ticket to pass as `oauthId` to the link call or to register-guest. */
  oauth_id: string;
  source: string;
  username: string;
  nickname: string;
  avatar: string;
}

/** 400 for a provider account not yet linked to a user; carries the ticket to link or register with. */
export class SocialNotLinkedError extends OAuthError {
  constructor(
    readonly ticket: string,
    readonly source: string,
    readonly profile: SocialProfile,
  ) {
    super(400, SocialMessages.notLinked);
  }

  override toBody(lang: ReplyLanguage = 'zh'): SocialNotLinkedBody {
    return {
      ...super.toBody(lang),
      oauth_id: this.ticket,
      source: this.source,
      username: this.profile.username,
      nickname: this.profile.nickname,
      avatar: this.profile.avatar,
    };
  }
}

/** Records (or refreshes) the provider account and returns its row and linked user. */
async function upsertOauth(ctx: AppContext, tenantId: string, source: string, profile: SocialProfile) {
  const details = {
    username: profile.username,
    nickname: profile.nickname,
    avatar: profile.avatar,
    email: profile.email,
  };
  const [row] = await tenantScope(ctx.db, tenantId)
    .insert(userOauth)
    .values({ id: nextId(), source, uuid: profile.uuid, ...details })
    .onConflictDoUpdate({
      target: [userOauth.tenantId, userOauth.source, userOauth.uuid],
      set: { ...details, updateTime: new Date() },
    })
    .returning({ id: userOauth.id, userId: userOauth.userId });
  if (!row) throw new Error('blade_user_oauth upsert returned no row');
  return row;
}

/**
 * `grant_type=social`: `source`, `code` and `state` from the provider's redirect. The state must
 * be one this server issued for this tenant and source (it is used up here, whatever happens);
 * the code is traded with the provider for the user's profile. A linked account signs in; a new
 * one gets a 400 with a ticket (`oauth_id`) for the link call or guest registration.
 */
export async function signInWithSocial(
  ctx: AppContext,
  client: ClientRow,
  tenantId: string,
  params: Record<string, string>,
): Promise<TokenResponse> {
  for (const name of ['source', 'code', 'state'] as const) {
    if (!params[name]) throw new OAuthError(400, SocialMessages.missing(name));
  }
  const state = await takeState(ctx, params.state);
  if (!state || state.tenantId !== tenantId || state.source !== params.source)
    throw new OAuthError(400, SocialMessages.badState);
  let profile: SocialProfile;
  try {
    const found = await findSource(ctx, tenantId, state.source);
    if (!found) throw new OAuthError(400, SourceMessages.unknown);
    const policy = await outboundPolicy(ctx.db);
    const accessToken = await exchangeCode(
      found.config,
      { code: params.code ?? '', redirectUri: state.redirectUri, codeVerifier: state.codeVerifier },
      policy,
    );
    profile = await fetchProfile(found.config, accessToken, policy);
  } catch (e) {
    if (e instanceof ProviderError) throw new OAuthError(400, e.text);
    throw e;
  }

  const row = await upsertOauth(ctx, tenantId, state.source, profile);
  if (row.userId) {
    const linked = await findUserById(ctx.db, tenantId, row.userId);
    if (linked) {
      const response = await issueFor(ctx, client, linked);
      return { ...response, oauth_id: row.id, avatar: response.avatar || profile.avatar };
    }
    // The linked user was removed: the provider account is free to be linked again.
    await tenantScope(ctx.db, tenantId)
      .update(userOauth)
      .set({ userId: null, updateTime: new Date() })
      .where(eq(userOauth.id, row.id));
  }
  const ticket = await createTicket(ctx, { tenantId, oauthRowId: row.id });
  throw new SocialNotLinkedError(ticket, state.source, profile);
}

/**
 * Links the provider account of a ticket to a user, if it is still unlinked. Runs in the
 * caller's transaction (guest registration links the account it creates).
 */
export async function linkTicket(db: Queryable, ticket: SocialTicket, userId: string): Promise<boolean> {
  const linked = await tenantScope(db, ticket.tenantId)
    .update(userOauth)
    .set({ userId, updateTime: new Date() })
    .where(eq(userOauth.id, ticket.oauthRowId), isNull(userOauth.userId))
    .returning({ id: userOauth.id });
  return linked.length > 0;
}

/**
 * `POST /api/blade-auth/oauth/social/link`: a first-time social user proves an existing account
 * with its account and md5 password (failures count toward the lock as at sign-in), the
 * provider account is linked to it, and the user is signed in.
 */
export async function linkSocialAccount(
  ctx: AppContext,
  client: ClientRow,
  tenantId: string,
  params: Record<string, string>,
): Promise<TokenResponse> {
  const ticketText = params.oauthId ?? '';
  const ticket = await readTicket(ctx, ticketText, tenantId);
  if (!ticket) throw new OAuthError(400, SocialMessages.badTicket);
  const response = await signInWithPassword(
    ctx,
    client,
    tenantId,
    params.account ?? params.username ?? '',
    params.password ?? '',
  );
  if (!(await linkTicket(ctx.db, ticket, response.user_id))) {
    // Someone linked it meanwhile: the session just issued must not outlive the refusal.
    const claims = await ctx.tokens.verify(response.access_token, 'access_token');
    if (claims) await ctx.tokens.revoke(claims);
    throw new OAuthError(400, SocialMessages.linkedElsewhere);
  }
  await dropTicket(ctx, ticketText);
  return { ...response, oauth_id: ticket.oauthRowId };
}
