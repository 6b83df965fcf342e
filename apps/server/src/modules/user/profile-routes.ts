import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Messages } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords';
import { sessionStamp } from '../../platform/auth/session-state';
import { wirePasswordToMd5 } from '../../platform/auth/wire-password';
import { user } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, notFound } from '../../platform/http/errors';
import { findUserById } from './user-repository';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

export const ProfileMessages = {
  phoneFormat: '手机号格式不正确',
  emailFormat: '邮箱格式不正确',
  avatarFormat: '头像地址不正确',
  tooLong: (label: string, max: number) => `${label}长度不能超过${max}个字符`,
  notText: (label: string) => `${label}必须是文本`,
  passwordMismatch: '两次密码输入不一致',
  wrongOldPassword: '原密码不正确',
} as const;

const text = (label: string, max: number) =>
  z
    .string({ error: ProfileMessages.notText(label) })
    .trim()
    .max(max, { error: ProfileMessages.tooLong(label, max) });

/**
 * The fields a user may change about themselves, limited to the column lengths. Any other key in
 * the body (password, tenantId, roleId, account, audit columns, ...) is dropped by the parse, so
 * it can never reach the update.
 */
const profileSchema = z.object({
  name: text('昵称', 20).optional(),
  realName: text('真实姓名', 10).optional(),
  avatar: text('头像地址', 500)
    // A link the browser will load as an image: our own path or http(s), nothing else.
    .refine((v) => v === '' || /^https?:\/\//i.test(v) || /^\/(?!\/)/.test(v), { error: ProfileMessages.avatarFormat })
    .optional(),
  phone: text('手机号', 45)
    .refine((v) => v === '' || /^1\d{10}$/.test(v), { error: ProfileMessages.phoneFormat })
    .optional(),
  email: text('邮箱', 45)
    .refine((v) => v === '' || z.email().safeParse(v).success, { error: ProfileMessages.emailFormat })
    .optional(),
});

const PASSWORD_FIELDS = ['oldPassword', 'newPassword', 'newPassword1'] as const;

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Routes of update-info, update-password and the avatar upload. */
export function registerProfileRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/blade-user/update-info', { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const parsed = profileSchema.safeParse(asRecord(request.body));
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? Messages.badRequest);
    const changes = parsed.data;
    const updated = await tenantScope(ctx.db, auth.tenantId)
      .update(user)
      .set({
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.realName !== undefined && { realName: changes.realName }),
        ...(changes.avatar !== undefined && { avatar: changes.avatar }),
        ...(changes.phone !== undefined && { phone: changes.phone }),
        ...(changes.email !== undefined && { email: changes.email }),
        updateUser: auth.userId,
        updateTime: new Date(ctx.clock.now()),
      })
      .where(eq(user.id, auth.userId))
      .returning({ id: user.id });
    if (!updated.length) throw notFound();
    return ok(null);
  });

  app.post('/api/blade-user/update-password', { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    // BladeX clients send these as query parameters; forms and JSON bodies are accepted too.
    const input = { ...asRecord(request.query), ...asRecord(request.body) };
    const values: Record<(typeof PASSWORD_FIELDS)[number], string> = {
      oldPassword: '',
      newPassword: '',
      newPassword1: '',
    };
    for (const name of PASSWORD_FIELDS) {
      const value = input[name];
      if (typeof value !== 'string' || value === '') throw badRequest(Messages.missingParam(name));
      // Our web app sends the md5 hex, BladeX clients the typed text: both become the md5 hex.
      values[name] = wirePasswordToMd5(value);
    }
    if (values.newPassword !== values.newPassword1) throw badRequest(ProfileMessages.passwordMismatch);
    const found = await findUserById(ctx.db, auth.tenantId, auth.userId);
    if (!found) throw notFound();
    if (!(await verifyPassword(found.password, values.oldPassword))) throw badRequest(ProfileMessages.wrongOldPassword);
    const password = await hashPassword(values.newPassword);
    // Every other session of the user ends; this one goes on, as the BladeX family's clients
    // (and ours) stay signed in after changing the password.
    await ctx.sessions.carryOver(auth.claims, sessionStamp({ password }));
    try {
      await tenantScope(ctx.db, auth.tenantId)
        .update(user)
        .set({ password, updateUser: auth.userId, updateTime: new Date(ctx.clock.now()) })
        .where(eq(user.id, auth.userId));
    } finally {
      await ctx.sessions.usersChanged(auth.tenantId);
    }
    return ok(null);
  });
}
