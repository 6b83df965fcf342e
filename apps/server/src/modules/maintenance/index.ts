import { maintenanceDueResource, maintenancePlanResource, maintenanceRecordResource } from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerMaintenanceRoutes } from './maintenance-routes';

/** The maintenance area under 设备管理: plans, records, the due list and its notices. */
export const maintenanceRouteBindings: readonly RouteBinding[] = [
  {
    defs: [maintenancePlanResource, maintenanceRecordResource, maintenanceDueResource],
    register: registerMaintenanceRoutes,
  },
];
