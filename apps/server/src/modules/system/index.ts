import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context';
import { registerDatasourceRoutes } from '../develop/datasource-routes';
import { registerGuestRegistrationRoutes } from '../user/guest-registration-routes';
import { registerUserAdminRoutes } from '../user/user-admin-routes';
import { registerClientRoutes } from './client-routes';
import { registerDeptRoutes } from './dept-routes';
import { registerMenuAdminRoutes } from './menu-admin-routes';
import { registerParamRoutes } from './param-routes';
import { registerPostRoutes } from './post-routes';
import { registerRegionRoutes } from './region-routes';
import { registerRoleRoutes } from './role-routes';
import { registerScopeRoutes } from './scope-routes';
import { registerTenantRoutes } from './tenant-routes';
import { registerTopMenuAdminRoutes } from './top-menu-admin-routes';

/** System administration (spec section 7 "System"): every resource of the area. */
export function registerSystemAdministration(app: FastifyInstance, ctx: AppContext): void {
  registerUserAdminRoutes(app, ctx);
  registerGuestRegistrationRoutes(app, ctx);
  registerRoleRoutes(app, ctx);
  registerDeptRoutes(app, ctx);
  registerPostRoutes(app, ctx);
  registerParamRoutes(app, ctx);
  registerTenantRoutes(app, ctx);
  registerClientRoutes(app, ctx);
  registerMenuAdminRoutes(app, ctx);
  registerTopMenuAdminRoutes(app, ctx);
  registerScopeRoutes(app, ctx);
  registerRegionRoutes(app, ctx);
  registerDatasourceRoutes(app, ctx);
}
