import { asc, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { invalidParamText, roleResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { registerResource, toPickerForest } from '../../engine/resource-routes';
import { ADMINISTRATOR_ROLE, isAdministrator, requireAuth, type AuthContext } from '../../platform/auth/request-auth';
import { role } from '../../platform/db/schema';
import { ok } from '../../platform/http/envelope';
import { badRequest, forbidden } from '../../platform/http/errors';
import { subtreeIds } from './menu-admin-forest';
import { grantRoles } from './role-grant';
import { tenantRoles } from './role-grantable';
import { idParam, idsParam, paramsOf } from '../../platform/http/request-params';
import { roleHooks } from './role-rules';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

const TENANT_ID = /^[A-Za-z0-9_-]{1,12}$/;

/**
 * The roles of a tenant for pickers, in `sort` order. Only the administrator sees the
 * `administrator` role (BladeX leaves it out for everyone else), so nobody else can pick it.
 */
async function pickerRoles(ctx: AppContext, auth: AuthContext, tenantId: string) {
  return tenantScope(ctx.db, tenantId)
    .select(role, { id: role.id, parentId: role.parentId, roleName: role.roleName })
    .where(isAdministrator(auth) ? undefined : ne(role.roleAlias, ADMINISTRATOR_ROLE))
    .orderBy(asc(role.sort), asc(role.id));
}

/** `tenantId` may only name the caller's own tenant, unless the caller is the administrator. */
function treeTenant(auth: AuthContext, raw: unknown): string {
  if (raw === undefined || raw === '' || raw === auth.tenantId) return auth.tenantId;
  if (typeof raw !== 'string' || !TENANT_ID.test(raw))
    throw badRequest(invalidParamText('tenantId', { zh: '格式不正确', en: 'is malformed' }));
  if (!isAdministrator(auth)) throw forbidden();
  return raw;
}

/** Roles: tree, grant of menus, data scopes and API scopes. */
export function registerRoleRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-system/role/tree', { config: { apiScope: 'role:read' } }, async (request) => {
    const auth = requireAuth(request);
    const tenantId = treeTenant(auth, (request.query as Record<string, unknown>).tenantId);
    return ok(toPickerForest(await pickerRoles(ctx, auth, tenantId), 'parentId', 'roleName'));
  });
  registerResource(app, ctx, { def: roleResource, table: role, hooks: roleHooks(ctx), omit: ['tree'] });

  /** Candidates for a role's parent: the tenant's roles without the role and everything below it. */
  app.get('/api/blade-system/role/tree-by-id', { config: { apiScope: 'role:read' } }, async (request) => {
    const auth = requireAuth(request);
    const roleId = idParam(request.query as Record<string, unknown>, 'roleId');
    await tenantRoles(ctx.db, auth, [roleId]);
    const rows = await pickerRoles(ctx, auth, auth.tenantId);
    const excluded = subtreeIds(rows, roleId);
    return ok(
      toPickerForest(
        rows.filter((r) => !excluded.has(r.id)),
        'parentId',
        'roleName',
      ),
    );
  });

  app.post('/api/blade-system/role/grant', { config: { apiScope: 'role:grant' } }, async (request) => {
    const params = paramsOf(request);
    await grantRoles(ctx, requireAuth(request), {
      roleIds: idsParam(params, 'roleIds', true),
      menuIds: idsParam(params, 'menuIds', false),
      dataScopeIds: idsParam(params, 'dataScopeIds', false),
      apiScopeIds: idsParam(params, 'apiScopeIds', false),
    });
    return ok(true);
  });
}
