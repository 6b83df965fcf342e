import type { FastifyInstance } from 'fastify';
import { socialSourceResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs } from '../../engine/resource-routes';
import { socialSource } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import { destinationOf, OutboundError, refuseForbiddenUrl } from '../../platform/net/outbound-guard';
import { outboundPolicy } from '../../platform/net/outbound-policy';

export const SocialSourceMessages = {
  secretRequired: { zh: '请输入 Client Secret', en: 'Please enter the Client Secret' },
  oidcUrls: {
    zh: 'OpenID Connect 需要填写授权地址、令牌地址和用户信息地址',
    en: 'OpenID Connect needs the authorization URL, token URL and user info URL',
  },
  secretForNewTokenUrl: {
    zh: '令牌地址或协议类型已修改,请重新输入 Client Secret',
    en: 'The token URL or protocol has changed: enter the Client Secret again',
  },
} as const;

const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';

/**
 * A provider must be usable once saved: a new one needs its secret, and an OpenID Connect
 * provider its three URLs (GitHub and Gitee have known defaults). The server calls the token
 * and user-info URLs, so the platform's outbound policy applies to them here already; the
 * stored secret never follows an edited token URL (or kind) to a new address without being
 * typed again. The authorize URL is only opened by the browser and is not checked.
 */
async function checkProvider(ctx: AppContext, { adding, values, existing }: ChangeArgs): Promise<void> {
  if (adding && blank(values.clientSecret)) throw badRequest(SocialSourceMessages.secretRequired);
  const value = (name: string) => (values[name] !== undefined ? values[name] : existing?.[name]);
  if (value('category') === 'oidc' && ['authorizeUrl', 'tokenUrl', 'userInfoUrl'].some((n) => blank(value(n))))
    throw badRequest(SocialSourceMessages.oidcUrls);
  const target = (row: (name: string) => unknown) => `${String(row('category'))} ${destinationOf(row('tokenUrl'))}`;
  if (existing && blank(values.clientSecret) && target(value) !== target((n) => existing[n]))
    throw badRequest(SocialSourceMessages.secretForNewTokenUrl);
  const policy = await outboundPolicy(ctx.db);
  for (const name of ['tokenUrl', 'userInfoUrl']) {
    const url = value(name);
    if (blank(url)) continue;
    try {
      await refuseForbiddenUrl(policy, String(url));
    } catch (e) {
      if (e instanceof OutboundError) throw badRequest(e.text);
      throw e;
    }
  }
}

/** Third-party sign-in providers of a tenant (used by modules/auth/social). */
export function registerSocialSourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: socialSourceResource,
    table: socialSource,
    hooks: { beforeChange: (args) => checkProvider(ctx, args) },
  });
}
