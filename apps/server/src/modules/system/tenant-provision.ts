import { randomInt } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { ChangeArgs } from '../../engine/resource-routes';
import { hashPassword, md5Hex } from '../../platform/auth/passwords';
import type { Db } from '../../platform/db/database';
import { nextId } from '../../platform/db/ids';
import { bilingual, type BilingualText, DEFAULT_TENANT_ID, tenantResource } from '@mes/contracts';
import { apiScope, dept, menu, post, role, roleMenu, roleScope, tenant, user } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import { ScopeCategory } from '../../platform/permissions/grants';
import { PLATFORM_ONLY_MENU_IDS, SEED_MENUS } from '../../seed/seed-menus';
import { TENANT_ADMIN_ROLE_ALIAS } from '../../seed/seed-data';
import { readParam } from '../../platform/db/params';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { ensureBuiltInReports } from '../report/builtin-reports';
import { ensureProcessGroupRoles } from '../flow/process-groups';

type Tx = ChangeArgs['tx'];

export const TenantMessages = {
  noPassword: {
    zh: '请先在参数管理中配置租户默认管理密码 (tenant.default.password)',
    en: 'Set the default tenant administrator password (tenant.default.password) under Parameters first',
  },
  duplicate: tenantResource.indexes?.find((i) => i.unique)?.message ?? bilingual('duplicate'),
  tenantIdInUse: {
    zh: '该租户ID下已有数据,请更换租户ID',
    en: 'Data already exists under this tenant ID: choose another tenant ID',
  },
  platformTenant: { zh: '不能删除平台租户', en: 'The platform tenant cannot be deleted' },
  platformExpiry: { zh: '不能为平台租户设置过期时间', en: 'The platform tenant cannot have an expiry time' },
  datasourceMissing: { zh: '数据源不存在', en: 'The data source does not exist' },
  noFreeId: {
    zh: '未能生成可用的租户ID,请手动填写租户ID',
    en: 'No free tenant ID could be generated: enter a tenant ID',
  },
} as const;

/** The account of a new tenant's administrator (CONTRACT.md "Seed data"). */
export const TENANT_ADMIN = {
  account: 'admin',
  name: '管理员',
  roleAlias: TENANT_ADMIN_ROLE_ALIAS,
  roleName: '管理员',
  postCode: 'admin',
};

/** `tenant.default.accountNumber`, or unlimited (-1) when the parameter is absent or not a number. */
export async function defaultAccountNumber(db: Db): Promise<number> {
  const value = Number((await readParam(db, 'tenant.default.accountNumber')) ?? '');
  return Number.isInteger(value) && value >= -1 ? value : -1;
}

/** Why a tenant id cannot be taken: a live tenant has it, or rows of a removed one remain. */
async function tenantIdConflict(tx: Tx, tenantId: string): Promise<BilingualText | undefined> {
  const scope = tenantScope(tx, tenantId);
  const [live] = await scope.select(tenant, { id: tenant.id }).where().limit(1);
  if (live) return TenantMessages.duplicate;
  const [used] = await scope.select(user, { id: user.id }).where().limit(1);
  return used ? TenantMessages.tenantIdInUse : undefined;
}

/**
 * Refuses a tenant id in use: by a live tenant (the unique index's message), or by rows left
 * behind, e.g. users of a removed tenant with the same id.
 */
export async function assertTenantIdFree(tx: Tx, tenantId: string): Promise<void> {
  const conflict = await tenantIdConflict(tx, tenantId);
  if (conflict) throw badRequest(conflict);
}

/** Draws before giving up; with a million ids, only an almost full platform gets that far. */
const GENERATE_ATTEMPTS = 20;

/**
 * A free tenant id for a tenant added without one, as the BladeX family generates it: six
 * random digits, never the platform's 000000. Two concurrent adds drawing the same id still
 * meet the unique index, which refuses the second with its message.
 */
export async function generateTenantId(tx: Tx, draw: () => number = () => randomInt(0, 1_000_000)): Promise<string> {
  for (let attempt = 0; attempt < GENERATE_ATTEMPTS; attempt++) {
    const candidate = String(draw()).padStart(6, '0');
    if (candidate === DEFAULT_TENANT_ID) continue;
    if (!(await tenantIdConflict(tx, candidate))) return candidate;
  }
  throw badRequest(TenantMessages.noFreeId);
}

/**
 * What a new tenant starts with, written in the transaction that adds the tenant: the `admin`
 * role granted every seeded menu but the platform's own (and those menus' API scopes), a root
 * dept named after the tenant, an `admin` post, and the `admin` account whose password is the
 * parameter `tenant.default.password`; and the roles of the groups the shipped processes hand
 * tasks to (人事 `hr`), so a leave of more than 3 days has somewhere to go.
 */
export async function provisionTenant(db: Db, tx: Tx, tenantId: string, tenantName: string): Promise<void> {
  const plain = await readParam(db, 'tenant.default.password');
  if (!plain) throw badRequest(TenantMessages.noPassword);
  const password = await hashPassword(md5Hex(plain));
  const ids = { role: nextId(), dept: nextId(), post: nextId(), user: nextId() };
  const audit = { createUser: ids.user, createDept: ids.dept, updateUser: ids.user };
  const scope = tenantScope(tx, tenantId);

  await scope.insert(role).values({
    id: ids.role,
    parentId: '0',
    roleName: TENANT_ADMIN.roleName,
    roleAlias: TENANT_ADMIN.roleAlias,
    sort: 1,
    ...audit,
  });
  await scope.insert(dept).values({
    id: ids.dept,
    parentId: '0',
    ancestors: '0',
    deptCategory: 1,
    deptName: tenantName.slice(0, 45),
    fullName: tenantName.slice(0, 45),
    sort: 1,
    ...audit,
  });
  await scope.insert(post).values({
    id: ids.post,
    category: 1,
    postCode: TENANT_ADMIN.postCode,
    postName: TENANT_ADMIN.name,
    sort: 1,
    ...audit,
  });
  await scope.insert(user).values({
    id: ids.user,
    account: TENANT_ADMIN.account,
    password,
    name: TENANT_ADMIN.name,
    realName: TENANT_ADMIN.name,
    roleId: ids.role,
    deptId: ids.dept,
    postId: ids.post,
    ...audit,
  });

  await ensureBuiltInReports(tx, tenantId);
  await ensureProcessGroupRoles(tx, tenantId);
  const wanted = SEED_MENUS.map((m) => m.id).filter((id) => !PLATFORM_ONLY_MENU_IDS.has(id));
  const menus = wanted.length
    ? await tx
        .select({ id: menu.id })
        .from(menu)
        .where(and(inArray(menu.id, wanted), eq(menu.isDeleted, 0)))
    : [];
  if (!menus.length) return;
  const menuIds = menus.map((m) => m.id);
  await tx.insert(roleMenu).values(menuIds.map((menuId) => ({ id: nextId(), roleId: ids.role, menuId })));
  const scopes = await tx
    .select({ id: apiScope.id })
    .from(apiScope)
    .where(and(inArray(apiScope.menuId, menuIds), eq(apiScope.isDeleted, 0)));
  if (scopes.length)
    await tx
      .insert(roleScope)
      .values(scopes.map((s) => ({ id: nextId(), roleId: ids.role, scopeCategory: ScopeCategory.API, scopeId: s.id })));
}
