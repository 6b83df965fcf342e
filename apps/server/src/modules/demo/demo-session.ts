import type { FastifyInstance } from 'fastify';
import type { PageResult, TokenResponse } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { oauthClient } from '../../platform/db/schema';
import { eq } from 'drizzle-orm';
import { SEED_CLIENTS } from '../../seed/seed-data';
import { issueFor } from '../auth/sign-in';
import { findUserById } from '../user/user-repository';
import type { Rng } from '../../simulator/rng';

/**
 * The console's own API, called in-process (`app.inject`) as a signed-in user: the demo tenant's
 * departments, lines, cars, articles, products and devices go through the same routes, checks,
 * derived fields, child rows and audit as an administrator's clicks. A session is issued for the
 * user directly (no password grant: the platform administrator's password is not ours to know).
 */
export class DemoApi {
  constructor(
    private readonly app: FastifyInstance,
    readonly token: string,
  ) {}

  static async as(app: FastifyInstance, ctx: AppContext, tenantId: string, userId: string): Promise<DemoApi> {
    const token = await issueToken(ctx, tenantId, userId);
    return new DemoApi(app, token.access_token);
  }

  /** The reply's `data`, or an error that carries the console's message. */
  async call<T>(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>): Promise<T> {
    const res = await this.app.inject({
      method,
      url: `/api${url}`,
      headers: { 'blade-auth': `bearer ${this.token}` },
      ...(body === undefined ? {} : { payload: body }),
    });
    const reply = res.json<{ success?: boolean; data?: T; msg?: string }>();
    if (res.statusCode !== 200 || reply.success === false)
      throw new DemoCallError(`${method} ${url}: ${res.statusCode} ${reply.msg ?? res.body.slice(0, 200)}`, reply.msg);
    return reply.data as T;
  }

  get<T>(url: string, query: Record<string, string | number> = {}): Promise<T> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return this.call<T>('GET', qs ? `${url}?${qs}` : url);
  }

  post<T>(url: string, body: Record<string, unknown>): Promise<T> {
    return this.call<T>('POST', url, body);
  }

  /** Every row of a paged list (the demo's lists are short: one page of 1,000). */
  async rows<T>(url: string, query: Record<string, string | number> = {}): Promise<T[]> {
    const page = await this.get<PageResult<T> | T[]>(url, { ...query, current: 1, size: 1000 });
    return Array.isArray(page) ? page : page.records;
  }
}

export class DemoCallError extends Error {
  constructor(
    text: string,
    readonly consoleMessage: string | undefined,
  ) {
    super(text);
  }
}

/** A token pair for a user, as a sign-in would issue it, through the first seeded client. */
export async function issueToken(ctx: AppContext, tenantId: string, userId: string): Promise<TokenResponse> {
  const clientId = SEED_CLIENTS[0]?.clientId ?? 'saber';
  const [client] = await ctx.db.select().from(oauthClient).where(eq(oauthClient.clientId, clientId)).limit(1);
  const user = await findUserById(ctx.db, tenantId, userId);
  if (!client || !user) throw new Error(`demo tenant: no client ${clientId} or no user ${tenantId}/${userId}`);
  return issueFor(ctx, client, user);
}

/** What one run of the demo steps (demo-steps.ts) shares: its options, callers and what it made. */
export interface DemoOptions {
  /** "Now" of the demo: every date is relative to it. */
  now: number;
  /**
   * The demo administrator's password hash (`hashPassword(md5Hex(plain))`) when the caller made the
   * password (the first-start card shows it once); otherwise the tenant step generates one.
   */
  passwordHash?: string;
}

export interface DemoSession {
  app: FastifyInstance;
  ctx: AppContext;
  options: DemoOptions;
  /** Seeded: the same demo on every run. */
  rng: Rng;
  tenantId: string;
  /** The platform administrator (creates the tenant). */
  platform: DemoApi;
  /** The demo tenant's administrator (everything inside the tenant). */
  admin: DemoApi;
  adminUserId: string;
  /** The tenant's root department (made with the tenant). */
  rootDeptId: string;
  /** Set by the tenant step when this run created the tenant and generated its password. */
  generatedPassword: string | undefined;
  createdTenant: boolean;
  depts: Map<string, string>;
  products: Map<string, string>;
  devices: Map<string, { id: string; clientId: string }>;
  lines: Map<string, string>;
  /** True when this run made the month's cycles (and so the records and warnings of them). */
  historyMade: boolean;
  /** The tenant's records before the history was made. */
  recordsBefore: number;
  /** What this run made, by kind. */
  made: Record<string, number>;
}
