import { eq } from 'drizzle-orm';
import { hashPassword } from '../../src/platform/auth/passwords';
import { nextId } from '../../src/platform/db/ids';
import { dataScope, dept, param, role, roleScope, tenant, user } from '../../src/platform/db/schema';
import { ScopeCategory } from '../../src/platform/permissions/grants';
import { SEED_API_SCOPES, DEPT_IDS } from '../../src/seed/seed-data';
import { md5, type TestApp } from './test-app';

/** Grants a role the seeded API scopes named by their codes (`post:read`, ...); unknown codes fail. */
export async function grantApiScopes(t: TestApp, roleId: string, codes: readonly string[]): Promise<void> {
  const scopes = SEED_API_SCOPES.filter((s) => codes.includes(s.resourceCode));
  const missing = codes.filter((c) => !scopes.some((s) => s.resourceCode === c));
  if (missing.length) throw new Error(`no seeded API scope ${missing.join(', ')}`);
  if (scopes.length)
    await t.ctx.db
      .insert(roleScope)
      .values(scopes.map((s) => ({ id: nextId(), scopeCategory: ScopeCategory.API, scopeId: s.id, roleId })))
      .onConflictDoNothing();
  await t.ctx.grants.changed();
}

/** Grants a role the data scope "own department" (type 3, on `dept_id`) of a resource. */
export async function grantOwnDeptScope(t: TestApp, roleId: string, resourceCode: string): Promise<void> {
  const scopeId = nextId();
  await t.ctx.db.insert(dataScope).values({
    id: scopeId,
    menuId: '0',
    resourceCode,
    scopeName: '本部门',
    scopeType: 3,
    scopeColumn: 'dept_id',
  });
  await t.ctx.db.insert(roleScope).values({ id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId, roleId });
  await t.ctx.grants.changed();
}

export interface ScopedUser {
  tenantId?: string;
  account: string;
  /** API-scope codes granted to the user's role. */
  codes: readonly string[];
  /** An existing role to grant and use; default a new role of its own. */
  roleId?: string;
  deptId?: string;
  /** Default `<account>-pass`. */
  password?: string;
}

/** Creates a user whose role holds the given API scopes, signs in and returns the access token. */
export async function signInWithScopes(t: TestApp, spec: ScopedUser): Promise<string> {
  const tenantId = spec.tenantId ?? '000000';
  let roleId = spec.roleId;
  if (!roleId) {
    roleId = nextId();
    await t.ctx.db
      .insert(role)
      .values({ id: roleId, tenantId, roleName: spec.account, roleAlias: `r_${spec.account}` });
  }
  await grantApiScopes(t, roleId, spec.codes);
  const password = spec.password ?? `${spec.account}-pass`;
  await t.ctx.db.insert(user).values({
    id: nextId(),
    tenantId,
    account: spec.account,
    password: await hashPassword(md5(password)),
    name: spec.account,
    realName: spec.account,
    roleId,
    deptId: spec.deptId ?? DEPT_IDS.east,
  });
  return (await t.signIn(spec.account, password, tenantId)).access_token;
}

/**
 * A tenant made by hand (no provisioning): its row, one department, a role holding `codes` and a
 * user `boss` of that role; answers the user's access token.
 */
export async function signInToNewTenant(t: TestApp, tenantId: string, codes: readonly string[]): Promise<string> {
  const roleId = nextId();
  const deptId = nextId();
  await t.ctx.db.insert(tenant).values({ id: nextId(), tenantId, tenantName: `租户${tenantId}`, linkman: '王五' });
  await t.ctx.db.insert(role).values({ id: roleId, tenantId, roleName: '管理员', roleAlias: 'admin' });
  await t.ctx.db
    .insert(dept)
    .values({ id: deptId, tenantId, parentId: '0', ancestors: '0', deptName: '公司', fullName: '公司' });
  return signInWithScopes(t, { tenantId, account: 'boss', codes, roleId, deptId, password: 'Boss#pass1' });
}

/**
 * A tenant provisioned as the platform administrator provisions one (`tenant/submit`: its
 * departments, roles and `admin` with param `tenant.default.password`); answers that admin's token.
 */
export async function signInAsProvisionedTenant(
  t: TestApp,
  platformAdmin: string,
  tenantId: string,
  tenantName: string,
): Promise<string> {
  const created = await t.as(platformAdmin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId, tenantName, linkman: 'ops' },
  });
  if (!created.json().success) throw new Error(`tenant ${tenantId} not provisioned: ${created.body}`);
  const [defaultPassword] = await t.ctx.db
    .select({ value: param.paramValue })
    .from(param)
    .where(eq(param.paramKey, 'tenant.default.password'));
  return (await t.signIn('admin', defaultPassword?.value ?? '', tenantId)).access_token;
}
