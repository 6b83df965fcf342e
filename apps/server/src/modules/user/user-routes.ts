import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { dict } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { notFound } from '../../platform/http/errors';
import { findTenant, findUserById, orgNamesOf, rolesOf, type UserRow } from './user-repository';

/** The user as clients see it: never the password hash, with names next to the ids. */
export async function userView(ctx: AppContext, u: UserRow) {
  const { password: _password, ...rest } = u;
  const [roles, org, tenantRow, labels] = await Promise.all([
    rolesOf(ctx.db, u),
    orgNamesOf(ctx.db, u),
    findTenant(ctx.db, u.tenantId),
    ctx.db
      .select({ code: dict.code, dictKey: dict.dictKey, dictValue: dict.dictValue })
      .from(dict)
      .where(and(inArray(dict.code, ['sex', 'user_type']), eq(dict.isDeleted, 0))),
  ]);
  const label = (code: string, key: number | null) =>
    key === null ? '' : (labels.find((l) => l.code === code && l.dictKey === String(key))?.dictValue ?? '');
  return {
    ...rest,
    roleName: roles.map((r) => r.roleName).join(','),
    deptName: org.deptName,
    postName: org.postName,
    sexName: label('sex', u.sex),
    userTypeName: label('user_type', u.userType),
    tenantName: tenantRow?.tenantName ?? '',
  };
}

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-user/info', async (request) => {
    const auth = requireAuth(request);
    const u = await findUserById(ctx.db, auth.tenantId, auth.userId);
    if (!u) throw notFound();
    return ok(await userView(ctx, u));
  });
}
