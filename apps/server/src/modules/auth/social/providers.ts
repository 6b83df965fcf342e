import { createHash, randomBytes } from 'node:crypto';
import type { BilingualText, SocialCategory } from '@mes/contracts';
import { OutboundError } from '../../../platform/net/outbound-guard';
import { outboundRequest } from '../../../platform/net/outbound-http';
import type { OutboundPolicy } from '../../../platform/net/outbound-policy';
import { revealsSecret } from '../../../platform/net/secret-text';

/** The settings of one provider row, with the client secret already opened. */
export interface ProviderConfig {
  category: SocialCategory;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  scope: string;
}

/** Who signed in at the provider. `uuid` is the provider's stable user id. */
export interface SocialProfile {
  uuid: string;
  username: string;
  nickname: string;
  avatar: string;
  email: string;
}

export const ProviderMessages = {
  incomplete: {
    zh: '第三方登录配置不完整,请联系管理员',
    en: 'Third-party sign-in is not fully configured, please contact the administrator',
  },
  unreachable: {
    zh: '第三方登录服务无法访问,请稍后再试',
    en: 'The third-party sign-in service cannot be reached, please try again later',
  },
  tokenRefused: (reason: string) => ({
    zh: `第三方授权失败: ${reason}`,
    en: `The third-party authorisation failed: ${reason}`,
  }),
  reasonHidden: {
    zh: '第三方登录服务返回的错误信息含有密钥内容,已隐藏',
    en: 'The third-party sign-in service answered with an error that contains the secret: it is hidden',
  },
  userInfoFailed: { zh: '获取第三方用户信息失败', en: 'The third-party user details could not be read' },
} as const;

/** A provider refused or could not be reached; the message is for the user. */
export class ProviderError extends Error {
  constructor(readonly text: BilingualText) {
    super(text.zh);
  }
}

/** Public endpoints of the hosted providers; a row's own URLs win (self-hosted Gitee, tests). */
const HOSTED: Partial<Record<SocialCategory, Omit<ProviderConfig, 'category' | 'clientId' | 'clientSecret'>>> = {
  github: {
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userInfoUrl: 'https://api.github.com/user',
    scope: 'read:user user:email',
  },
  gitee: {
    authorizeUrl: 'https://gitee.com/oauth/authorize',
    tokenUrl: 'https://gitee.com/oauth/token',
    userInfoUrl: 'https://gitee.com/api/v5/user',
    scope: 'user_info',
  },
};

/** The definition's default scope is OpenID Connect's; GitHub and Gitee name theirs differently. */
const OIDC_DEFAULT_SCOPE = 'openid profile email';

export function providerConfig(row: {
  category: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userInfoUrl: string;
  scope: string;
}): ProviderConfig {
  const category = (['oidc', 'github', 'gitee'] as const).find((c) => c === row.category);
  if (!category) throw new ProviderError(ProviderMessages.incomplete);
  const hosted = HOSTED[category];
  const scope = row.scope.trim();
  const config: ProviderConfig = {
    category,
    clientId: row.clientId,
    clientSecret: row.clientSecret,
    authorizeUrl: row.authorizeUrl.trim() || hosted?.authorizeUrl || '',
    tokenUrl: row.tokenUrl.trim() || hosted?.tokenUrl || '',
    userInfoUrl: row.userInfoUrl.trim() || hosted?.userInfoUrl || '',
    scope: hosted && (!scope || scope === OIDC_DEFAULT_SCOPE) ? hosted.scope : scope || OIDC_DEFAULT_SCOPE,
  };
  if (!config.clientId || !config.clientSecret || !config.authorizeUrl || !config.tokenUrl || !config.userInfoUrl)
    throw new ProviderError(ProviderMessages.incomplete);
  return config;
}

/** PKCE (RFC 7636) for OpenID Connect providers; GitHub and Gitee get the plain code flow. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  config: ProviderConfig,
  args: { state: string; redirectUri: string; codeChallenge?: string },
): string {
  const url = new URL(config.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', args.redirectUri);
  url.searchParams.set('scope', config.scope);
  url.searchParams.set('state', args.state);
  if (args.codeChallenge) {
    url.searchParams.set('code_challenge', args.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

const TIMEOUT_MS = 10_000;
const MAX_BODY = 256 * 1024;

/**
 * One call to the provider through the outbound guard: bounded in time and size, the address
 * checked against the platform's policy, redirects not followed (a token endpoint that redirects
 * is misconfigured, and following would send the code elsewhere).
 */
async function callProvider(
  policy: OutboundPolicy,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
): Promise<{ status: number; json: Record<string, unknown> }> {
  let reply: { status: number; body: string | undefined };
  try {
    reply = await outboundRequest(policy, url, { ...init, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BODY });
  } catch (e) {
    if (e instanceof OutboundError && e.kind === 'refused') throw new ProviderError(e.text);
    throw new ProviderError(ProviderMessages.unreachable);
  }
  if (reply.body === undefined) return { status: reply.status, json: {} };
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    // GitHub answers form-encoded unless asked for JSON; read that too rather than fail.
    json = Object.fromEntries(new URLSearchParams(reply.body));
  }
  const record = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  return { status: reply.status, json: record };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const clip = (v: string, max: number) => (v.length > max ? v.slice(0, max) : v);

/** client_secret_basic: RFC 6749 §2.3.1 form-encodes id and secret before base64. */
const basicOf = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** Trades the authorisation code for the provider's access token. */
export async function exchangeCode(
  config: ProviderConfig,
  args: { code: string; redirectUri: string; codeVerifier?: string },
  policy: OutboundPolicy,
): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: args.code,
    redirect_uri: args.redirectUri,
  });
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (config.category === 'oidc') {
    headers.authorization = basicOf(config.clientId, config.clientSecret);
    if (args.codeVerifier) form.set('code_verifier', args.codeVerifier);
  } else {
    // GitHub and Gitee take the client credentials in the body.
    form.set('client_id', config.clientId);
    form.set('client_secret', config.clientSecret);
  }
  const { status, json } = await callProvider(policy, config.tokenUrl, {
    method: 'POST',
    headers,
    body: form.toString(),
  });
  const token = text(json.access_token);
  if (status >= 200 && status < 300 && token) return token;
  // GitHub reports a bad code with status 200 and an `error` field.
  const reason = clip(text(json.error_description) || text(json.error) || `HTTP ${status}`, 200);
  // The provider's text is shown to whoever signs in: never if it gives the client secret away.
  if (revealsSecret(reason, [config.clientSecret])) throw new ProviderError(ProviderMessages.reasonHidden);
  throw new ProviderError(ProviderMessages.tokenRefused(reason));
}

/** The signed-in provider user, read from its user-info endpoint. */
export async function fetchProfile(
  config: ProviderConfig,
  accessToken: string,
  policy: OutboundPolicy,
): Promise<SocialProfile> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'mes-console' };
  let url = config.userInfoUrl;
  if (config.category === 'gitee') {
    // Gitee's v5 API documents the token as a query parameter.
    const u = new URL(url);
    u.searchParams.set('access_token', accessToken);
    url = u.toString();
  } else {
    headers.authorization = `Bearer ${accessToken}`;
    if (config.category === 'github') headers.accept = 'application/vnd.github+json';
  }
  const { status, json } = await callProvider(policy, url, { method: 'GET', headers });
  if (status < 200 || status >= 300) throw new ProviderError(ProviderMessages.userInfoFailed);
  const profile: SocialProfile =
    config.category === 'oidc'
      ? {
          uuid: text(json.sub),
          username: text(json.preferred_username) || text(json.email) || text(json.sub),
          nickname: text(json.name) || text(json.nickname) || text(json.preferred_username),
          avatar: text(json.picture),
          email: text(json.email),
        }
      : {
          uuid: text(json.id),
          username: text(json.login),
          nickname: text(json.name) || text(json.login),
          avatar: text(json.avatar_url),
          email: text(json.email),
        };
  if (!profile.uuid) throw new ProviderError(ProviderMessages.userInfoFailed);
  return {
    uuid: clip(profile.uuid, 255),
    username: clip(profile.username, 255),
    nickname: clip(profile.nickname, 255),
    avatar: clip(profile.avatar, 1000),
    email: clip(profile.email, 255),
  };
}
