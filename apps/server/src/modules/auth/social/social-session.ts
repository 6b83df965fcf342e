import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../../app-context';

/** How long the user may take at the provider before coming back. */
export const STATE_TTL_MS = 10 * 60_000;
/** How long a first-time social user may take to link an account or register. */
export const TICKET_TTL_MS = 30 * 60_000;
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

export const SocialMessages = {
  missing: (name: string) => ({
    zh: `缺少第三方登录参数: ${name}`,
    en: `The third-party sign-in parameter ${name} is missing`,
  }),
  badState: {
    zh: '登录状态无效或已过期,请重新发起第三方登录',
    en: 'The sign-in state is invalid or has expired: start the third-party sign-in again',
  },
  badTicket: {
    zh: '第三方账号信息已失效,请重新发起第三方登录',
    en: 'The third-party account details have expired: start the third-party sign-in again',
  },
  notLinked: {
    zh: '该第三方账号尚未绑定系统账号,请绑定已有账号或注册新账号',
    en: 'This third-party account is not linked to an account yet: link an existing account or register a new one',
  },
  linkedElsewhere: {
    zh: '该第三方账号已绑定其他账号',
    en: 'This third-party account is already linked to another account',
  },
} as const;

/** What a `state` stands for: one sign-in attempt of one tenant at one provider. */
export interface SocialState {
  tenantId: string;
  source: string;
  redirectUri: string;
  codeVerifier?: string;
}

/**
 * A first-time social user's pass to link or register: it names the `blade_user_oauth` row
 * without exposing its id, so nobody can link a provider account they did not sign in with.
 */
export interface SocialTicket {
  tenantId: string;
  oauthRowId: string;
}

const stateKey = (state: string) => `social-state:${state}`;
const ticketKey = (ticket: string) => `social-ticket:${ticket}`;
const token = () => randomBytes(32).toString('base64url');

function parse<T>(raw: string | undefined): T | undefined {
  return raw ? (JSON.parse(raw) as T) : undefined;
}

export async function createState(ctx: AppContext, value: SocialState): Promise<string> {
  const state = token();
  await ctx.store.set(stateKey(state), JSON.stringify(value), STATE_TTL_MS);
  return state;
}

/** Uses a state up: each one is good for a single sign-in attempt, whatever its outcome. */
export async function takeState(ctx: AppContext, state: unknown): Promise<SocialState | undefined> {
  if (typeof state !== 'string' || !TOKEN.test(state)) return undefined;
  return parse<SocialState>(await ctx.store.take(stateKey(state)));
}

export async function createTicket(ctx: AppContext, value: SocialTicket): Promise<string> {
  const ticket = token();
  await ctx.store.set(ticketKey(ticket), JSON.stringify(value), TICKET_TTL_MS);
  return ticket;
}

/** A ticket of this tenant, still valid; it stays valid until `dropTicket` (a wrong password may be retried). */
export async function readTicket(
  ctx: AppContext,
  ticket: unknown,
  tenantId: string,
): Promise<SocialTicket | undefined> {
  if (typeof ticket !== 'string' || !TOKEN.test(ticket)) return undefined;
  const value = parse<SocialTicket>(await ctx.store.get(ticketKey(ticket)));
  return value && value.tenantId === tenantId ? value : undefined;
}

export const dropTicket = (ctx: AppContext, ticket: string) => ctx.store.delete(ticketKey(ticket));
