import type { FastifyInstance } from 'fastify';
import { socialSourceResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, type ChangeArgs } from '../../crud/resource-routes';
import { socialSource } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';

export const SocialSourceMessages = {
  secretRequired: '请输入 Client Secret',
  oidcUrls: 'OpenID Connect 需要填写授权地址、令牌地址和用户信息地址',
} as const;

const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';

/**
 * A provider must be usable once saved: a new one needs its secret, and an OpenID Connect
 * provider its three URLs (GitHub and Gitee have known defaults).
 */
function checkProvider({ adding, values, existing }: ChangeArgs): void {
  if (adding && blank(values.clientSecret)) throw badRequest(SocialSourceMessages.secretRequired);
  const value = (name: string) => (values[name] !== undefined ? values[name] : existing?.[name]);
  if (value('category') === 'oidc' && ['authorizeUrl', 'tokenUrl', 'userInfoUrl'].some((n) => blank(value(n))))
    throw badRequest(SocialSourceMessages.oidcUrls);
}

/** Third-party sign-in providers of a tenant (used by modules/auth/social). */
export function registerSocialSourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerResource(app, ctx, {
    def: socialSourceResource,
    table: socialSource,
    hooks: { beforeChange: checkProvider },
  });
}
