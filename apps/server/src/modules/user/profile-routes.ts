import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bilingual, type BilingualText } from '@mes/contracts';
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
  phoneFormat: { zh: '手机号格式不正确', en: 'The phone number is malformed' },
  emailFormat: { zh: '邮箱格式不正确', en: 'The email address is malformed' },
  avatarFormat: { zh: '头像地址不正确', en: 'The avatar URL is invalid' },
  tooLong: (label: BilingualText, max: number) => ({
    zh: `${label.zh}长度不能超过${max}个字符`,
    en: `${label.en} must be at most ${max} characters`,
  }),
  notText: (label: BilingualText) => ({ zh: `${label.zh}必须是文本`, en: `${label.en} must be text` }),
  passwordMismatch: { zh: '两次密码输入不一致', en: 'The two new passwords do not match' },
  wrongOldPassword: { zh: '原密码不正确', en: 'The current password is wrong' },
} as const;

const LABELS: Record<string, BilingualText> = {
  name: { zh: '昵称', en: 'Nickname' },
  realName: { zh: '真实姓名', en: 'Real name' },
  avatar: { zh: '头像地址', en: 'Avatar URL' },
  phone: { zh: '手机号', en: 'Phone' },
  email: { zh: '邮箱', en: 'Email' },
};
const FORMATS: Record<string, BilingualText> = {
  avatar: ProfileMessages.avatarFormat,
  phone: ProfileMessages.phoneFormat,
  email: ProfileMessages.emailFormat,
};

/** zod's issues carry one string; the field and the kind of fault give the message in both languages. */
function profileFault(issue: z.core.$ZodIssue | undefined): BilingualText {
  const field = String(issue?.path[0] ?? '');
  const label = LABELS[field];
  if (!issue || !label) return bilingual('badRequest');
  if (issue.code === 'too_big') return ProfileMessages.tooLong(label, Number(issue.maximum));
  if (issue.code === 'invalid_type') return ProfileMessages.notText(label);
  return FORMATS[field] ?? bilingual('badRequest');
}

const text = (max: number) => z.string().trim().max(max);

/**
 * The fields a user may change about themselves, limited to the column lengths. Any other key in
 * the body (password, tenantId, roleId, account, audit columns, ...) is dropped by the parse, so
 * it can never reach the update.
 */
const profileSchema = z.object({
  name: text(20).optional(),
  realName: text(10).optional(),
  avatar: text(500)
    // A link the browser will load as an image: our own path or http(s), nothing else.
    .refine((v) => v === '' || /^https?:\/\//i.test(v) || /^\/(?!\/)/.test(v))
    .optional(),
  phone: text(45)
    .refine((v) => v === '' || /^1\d{10}$/.test(v))
    .optional(),
  email: text(45)
    .refine((v) => v === '' || z.email().safeParse(v).success)
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
    if (!parsed.success) throw badRequest(profileFault(parsed.error.issues[0]));
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
      if (typeof value !== 'string' || value === '') throw badRequest(bilingual('missingParam', name));
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
