import { and, count, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { BilingualText } from '@mes/contracts';
import { wirePasswordToMd5 } from '../../platform/auth/wire-password';
import { ADMINISTRATOR_ROLE, isAdministrator, splitIds, type AuthContext } from '../../platform/auth/request-auth';
import type { ChangeArgs } from '../../engine/resource-routes';
import { dept, dict, post, role, tenant, user } from '../../platform/db/schema';
import { tenantRows, tenantScope } from '../../platform/tenancy/tenant-scope';
import { badRequest, forbidden } from '../../platform/http/errors';

type Tx = ChangeArgs['tx'];

export const UserAdminMessages = {
  passwordRequired: { zh: '请输入密码', en: 'Please enter a password' },
  quotaReached: { zh: '当前租户已到最大账号额度', en: 'The tenant has reached its account limit' },
  removeSelf: { zh: '不能删除当前登录用户', en: 'You cannot delete the user you are signed in as' },
  foreignRole: { zh: '所属角色不存在或无权访问', en: 'The role does not exist or you may not see it' },
  foreignDept: { zh: '所属部门不存在或无权访问', en: 'The department does not exist or you may not see it' },
  deptOutOfScope: { zh: '所属部门不在您的数据权限范围内', en: 'The department is outside your data scope' },
  foreignPost: { zh: '所属岗位不存在或无权访问', en: 'The post does not exist or you may not see it' },
  badUserType: { zh: '用户平台不正确', en: 'The user platform is invalid' },
  userExtNotJson: { zh: '用户拓展应为 JSON 文本', en: 'The user extension must be JSON text' },
  userExtTooLong: { zh: `用户拓展最长 2000 个字符`, en: 'The user extension must be at most 2000 characters' },
} as const;

export const USER_EXT_MAX = 2000;

/**
 * The md5 hex of a password as a client sent it: our web app sends the md5 hex, clients of the
 * BladeX family the typed text, which is hashed here so that sign-in (md5 in both) accepts it.
 */
export function passwordMd5(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw badRequest(UserAdminMessages.passwordRequired);
  return wirePasswordToMd5(value);
}

/**
 * Users whose department list holds `deptId` or any department below it. The departments are
 * found once (uncorrelated subqueries); a user in one department (the usual case) is then a
 * plain equality test, and only lists with a comma are split into arrays, which keeps a page
 * over 100,000 users a cheap scan and gives the planner row estimates it can use.
 */
export function deptAndChildrenFilter(tenantId: string, deptId: string): SQL {
  const inSubtree = sql`(${dept.id} = ${deptId} or ${deptId}::text = any(string_to_array(${dept.ancestors}, ',')))`;
  const below = sql`array(select ${dept.id}::text from ${dept} where ${tenantRows(dept, tenantId, inSubtree)})`;
  return sql`(${user.deptId} = any(${below})
    or (strpos(${user.deptId}, ',') > 0 and string_to_array(${user.deptId}, ',') && ${below}))`;
}

type Picked = typeof role | typeof dept | typeof post;

async function countInTenant(tx: Tx, table: Picked, tenantId: string, ids: string[]): Promise<number> {
  const [row] = await tenantScope(tx, tenantId).select(table, { n: count() }).where(inArray(table.id, ids));
  return row?.n ?? 0;
}

/** Roles, departments and posts a user is given must be live rows of the caller's tenant. */
export async function assertPicksInTenant(
  tx: Tx,
  tenantId: string,
  picks: { roleId?: unknown; deptId?: unknown; postId?: unknown },
): Promise<void> {
  const checks: [unknown, Picked, BilingualText][] = [
    [picks.roleId, role, UserAdminMessages.foreignRole],
    [picks.deptId, dept, UserAdminMessages.foreignDept],
    [picks.postId, post, UserAdminMessages.foreignPost],
  ];
  for (const [value, table, message] of checks) {
    if (typeof value !== 'string') continue;
    const ids = [...new Set(splitIds(value))];
    if (ids.length && (await countInTenant(tx, table, tenantId, ids)) !== ids.length) throw badRequest(message);
  }
}

/**
 * The tenant's account quota (`accountNumber`, -1 unlimited) against its live users. The tenant
 * row is locked first so that two adds at once cannot both take the last place.
 */
export async function assertQuota(tx: Tx, tenantId: string): Promise<void> {
  const scope = tenantScope(tx, tenantId);
  const [t] = await scope.select(tenant, { accountNumber: tenant.accountNumber }).where().for('update');
  const limit = t?.accountNumber ?? -1;
  if (limit < 0) return;
  const [row] = await scope.select(user, { n: count() }).where();
  if ((row?.n ?? 0) >= limit) throw badRequest(UserAdminMessages.quotaReached);
}

/** `userType` must be a key of the `user_type` dictionary (1 WEB, 2 APP, 3 OTHER). */
export async function assertUserType(tx: Tx, userType: unknown): Promise<number> {
  const key = String(userType ?? '').trim();
  if (!/^\d{1,9}$/.test(key)) throw badRequest(UserAdminMessages.badUserType);
  const [row] = await tx
    .select({ n: count() })
    .from(dict)
    .where(and(eq(dict.code, 'user_type'), eq(dict.dictKey, key), ne(dict.parentId, '0'), eq(dict.isDeleted, 0)));
  if (!row?.n) throw badRequest(UserAdminMessages.badUserType);
  return Number(key);
}

/** Platform extension: empty, or JSON text of at most 2000 characters. */
export function checkUserExt(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw badRequest(UserAdminMessages.userExtNotJson);
  const textValue = value.trim();
  if (!textValue) return '';
  if (textValue.length > USER_EXT_MAX) throw badRequest(UserAdminMessages.userExtTooLong);
  try {
    JSON.parse(textValue);
  } catch {
    throw badRequest(UserAdminMessages.userExtNotJson);
  }
  return textValue;
}

/**
 * Only the administrator may act on an administrator account or hand out the administrator
 * role: otherwise anyone granted `user:reset` or `user:grant` could take over the platform.
 */
export async function assertMayManage(
  tx: Tx,
  auth: AuthContext,
  targets: { roleId?: unknown }[],
  newRoleIds: string[] = [],
): Promise<void> {
  if (isAdministrator(auth)) return;
  const adminRoles = await tenantScope(tx, auth.tenantId)
    .select(role, { id: role.id })
    .where(eq(role.roleAlias, ADMINISTRATOR_ROLE));
  if (!adminRoles.length) return;
  const ids = new Set(adminRoles.map((r) => r.id));
  const touches = (roleIds: string[]) => roleIds.some((id) => ids.has(id));
  if (touches(newRoleIds) || targets.some((t) => touches(splitIds(String(t.roleId ?? ''))))) throw forbidden();
}
