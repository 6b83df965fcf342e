import {
  apiScopeResource,
  clientResource,
  codeResource,
  dataScopeResource,
  datasourceResource,
  deptResource,
  menuResource,
  paramResource,
  regionResource,
  roleResource,
  tenantResource,
  topMenuResource,
  userResource,
} from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerCodeRoutes } from '../develop/code-routes';
import { registerDatasourceRoutes } from '../develop/datasource-routes';
import { registerGuestRegistrationRoutes } from '../user/guest-registration-routes';
import { registerUserAdminRoutes } from '../user/user-admin-routes';
import { registerClientRoutes } from './client-routes';
import { registerDeptRoutes } from './dept-routes';
import { registerMenuAdminRoutes } from './menu-admin-routes';
import { registerParamRoutes } from './param-routes';
import { registerRegionRoutes } from './region-routes';
import { registerRoleRoutes } from './role-routes';
import { registerScopeRoutes } from './scope-routes';
import { registerTenantRoutes } from './tenant-routes';
import { registerTopMenuAdminRoutes } from './top-menu-admin-routes';

/**
 * System administration (spec section 7 "System"): the resources whose routes carry behaviour
 * of their own. Posts are plain and need no binding (the registry gives them the generic routes);
 * parameters check the record retention minimums.
 */
export const systemRouteBindings: readonly RouteBinding[] = [
  {
    defs: [userResource],
    register(app, ctx) {
      registerUserAdminRoutes(app, ctx);
      registerGuestRegistrationRoutes(app, ctx);
    },
  },
  { defs: [roleResource], register: registerRoleRoutes },
  { defs: [deptResource], register: registerDeptRoutes },
  { defs: [tenantResource], register: registerTenantRoutes },
  { defs: [clientResource], register: registerClientRoutes },
  { defs: [menuResource], register: registerMenuAdminRoutes },
  { defs: [topMenuResource], register: registerTopMenuAdminRoutes },
  { defs: [dataScopeResource, apiScopeResource], register: registerScopeRoutes },
  { defs: [regionResource], register: registerRegionRoutes },
  { defs: [datasourceResource], register: registerDatasourceRoutes },
  { defs: [codeResource], register: registerCodeRoutes },
  { defs: [paramResource], register: registerParamRoutes },
];
