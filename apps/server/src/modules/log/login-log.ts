import { and, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DEFAULT_TENANT_ID,
  LOGIN_LOG_COUNT_PATH,
  SignInResult,
  type LoginDayCount,
  type LoginLogCount,
} from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { isAdministrator, requireAuth } from '../../platform/auth/request-auth';
import { loginLog } from '../../platform/db/schema';
import { isDatabaseUnavailable } from '../../platform/db/unavailable';
import { DATABASE_UNAVAILABLE_TEXT } from '../../platform/http/database-unavailable';
import { ok } from '../../platform/http/envelope';
import { OAuthError } from '../auth/oauth-error';
import { headerText } from './log-service';
import { tenantRows } from '../../platform/tenancy/tenant-scope';

/** What the login log says of a failure that is not a refusal (the client saw a 500). */
export const SIGN_IN_SERVER_ERROR = '服务器异常';

/** The parameters of a sign-in call that say who tried how (names as the token endpoint takes them). */
export type SignInParams = Partial<
  Record<'grant_type' | 'tenantId' | 'username' | 'account' | 'phone' | 'source' | 'oauthId', string>
>;

/** The token a successful sign-in sends back (the parts the log keeps). */
interface SignedIn {
  account?: unknown;
  user_id?: unknown;
  tenant_id?: unknown;
}

export interface SignInOutcome {
  grantType: string;
  tenantId: string;
  /** The account as typed: user name, phone number, social source. */
  account: string;
  clientId?: string;
  /** The token reply, when the attempt succeeded. */
  token?: SignedIn;
  /** The refusal or failure, when it did not. */
  error?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Who tried, from the call's parameters: the typed account, else the phone, else the social source. */
export function typedAccount(params: SignInParams): string {
  return params.username || params.account || params.phone || (params.source ? `social:${params.source}` : '');
}

/** Records one sign-in attempt in the login log (never throws, never waits). */
export function recordSignIn(ctx: AppContext, request: FastifyRequest, outcome: SignInOutcome): void {
  const succeeded = outcome.token !== undefined && outcome.error === undefined;
  const message = succeeded
    ? ''
    : outcome.error instanceof OAuthError
      ? outcome.error.description
      : isDatabaseUnavailable(outcome.error)
        ? DATABASE_UNAVAILABLE_TEXT.zh
        : SIGN_IN_SERVER_ERROR;
  ctx.logs.signIn({
    tenantId: (succeeded && text(outcome.token?.tenant_id)) || outcome.tenantId,
    account: (succeeded && text(outcome.token?.account)) || outcome.account,
    userId: succeeded ? text(outcome.token?.user_id) : undefined,
    grantType: outcome.grantType,
    success: succeeded,
    message,
    clientId: outcome.clientId,
    remoteIp: request.ip,
    userAgent: headerText(request, 'user-agent', 1000),
  });
}

/** Basic `clientId:secret` → clientId, for the log only (the secret is never read here). */
function clientIdOf(request: FastifyRequest): string {
  const m = /^basic\s+(\S+)$/i.exec(headerText(request, 'authorization', 1000).trim());
  if (!m?.[1]) return '';
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return (colon < 0 ? decoded : decoded.slice(0, colon)).slice(0, 64);
}

/**
 * Runs one sign-in (`work` answers the token endpoint) and records the attempt, whether it
 * succeeds, is refused or fails. Token refreshes are not sign-ins: they run unrecorded.
 */
export async function withSignInLog<T>(
  ctx: AppContext,
  request: FastifyRequest,
  params: SignInParams,
  work: () => Promise<T>,
): Promise<T> {
  const grantType = params.grant_type ?? '';
  if (grantType === 'refresh_token') return work();
  const outcome = {
    grantType,
    tenantId: params.tenantId || headerText(request, 'tenant-id', 12).trim() || DEFAULT_TENANT_ID,
    account: typedAccount(params),
    clientId: clientIdOf(request),
  };
  try {
    const token = await work();
    recordSignIn(ctx, request, { ...outcome, token: (token ?? {}) as SignedIn });
    return token;
  } catch (error) {
    recordSignIn(ctx, request, { ...outcome, error });
    throw error;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * Sign-ins of today and of each of the last 7 days (server's local days), one query. The
 * platform administrator counts every tenant's, anyone else their own tenant's.
 */
export async function loginCounts(ctx: AppContext, tenantId: string | undefined): Promise<LoginLogCount> {
  const now = new Date(ctx.clock.now());
  const starts = Array.from(
    { length: 8 },
    (_, i) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - 6 + i),
  );
  const first = starts[0] as Date;
  const end = starts[7] as Date;
  const columns: Record<string, SQL<number>> = {};
  for (let i = 0; i < 7; i++) {
    const inDay = sql`${loginLog.createTime} >= ${starts[i]} and ${loginLog.createTime} < ${starts[i + 1]}`;
    columns[`t${i}`] = sql<number>`count(*) filter (where ${inDay})`.mapWith(Number);
    columns[`s${i}`] =
      sql<number>`count(*) filter (where ${inDay} and ${loginLog.success} = ${SignInResult.succeeded})`.mapWith(Number);
  }
  const [row] = await ctx.db
    .select(columns)
    .from(loginLog)
    .where(
      and(
        tenantId === undefined ? undefined : tenantRows(loginLog, tenantId),
        gte(loginLog.createTime, first),
        lt(loginLog.createTime, end),
      ),
    );
  const days: LoginDayCount[] = starts.slice(0, 7).map((start, i) => {
    const total = Number(row?.[`t${i}`] ?? 0);
    const success = Number(row?.[`s${i}`] ?? 0);
    return { date: dayText(start), total, success, fail: total - success };
  });
  return { today: days[6] as LoginDayCount, days };
}

/** `GET /api/blade-desk/loginLog/count`: the welcome page's sign-in figures. */
export function registerLoginCountRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(`/api${LOGIN_LOG_COUNT_PATH}`, { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    return ok(await loginCounts(ctx, isAdministrator(auth) ? undefined : auth.tenantId));
  });
}
