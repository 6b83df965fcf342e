import type { FastifyInstance } from 'fastify';
import { GuestRegistrationPaths } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { paramOf } from '../../platform/http/request-params';
import { limitAttempts } from '../auth/qr/attempt-limit';
import { GuestRegistration } from './guest-registration';

/** Registrations one client address may submit per ten minutes (each costs an argon2 hash). */
const REGISTER_PER_WINDOW = 30;
const WINDOW_MS = 10 * 60_000;
/** The API scope seeded for the user screen's 注册审核 button. */
const AUDIT_SCOPE = 'user:audit';

export const GuestReplies = {
  submitted: {
    zh: '注册申请已提交,请耐心等待管理员通过!',
    en: 'Registration submitted: please wait for an administrator to approve it',
  },
} as const;

/** `register-guest` (public) and the approval calls of the user screen. */
export function registerGuestRegistrationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const guests = new GuestRegistration(ctx);
  const base = '/api/blade-user';

  // Whether the sign-in page offers 注册账号 (the platform-wide parameter; nothing per tenant).
  app.get(`/api${GuestRegistrationPaths.enabled}`, { config: { public: true } }, async () => ok(await guests.isOpen()));

  app.post(`/api${GuestRegistrationPaths.register}`, { config: { public: true } }, async (request) => {
    await limitAttempts(ctx, 'register-guest', request.ip, REGISTER_PER_WINDOW, WINDOW_MS);
    await guests.register({
      tenantId: paramOf(request, 'tenantId'),
      name: paramOf(request, 'name'),
      account: paramOf(request, 'account'),
      password: paramOf(request, 'password'),
      oauthId: paramOf(request, 'oauthId'),
    });
    return ok(true, GuestReplies.submitted[requestLanguage(request)]);
  });

  app.post(`${base}/audit-pass`, { config: { apiScope: AUDIT_SCOPE } }, async (request) => {
    await guests.approve(
      { ids: paramOf(request, 'ids'), roleIds: paramOf(request, 'roleIds'), deptId: paramOf(request, 'deptId') },
      requireAuth(request),
    );
    return ok(true);
  });

  app.post(`${base}/audit-refuse`, { config: { apiScope: AUDIT_SCOPE } }, async (request) => {
    await guests.refuse(paramOf(request, 'ids'), requireAuth(request));
    return ok(true);
  });
}
