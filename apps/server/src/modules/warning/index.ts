import { warningResource } from '@mes/contracts';
import type { RouteBinding } from '../../crud/registry';
import { registerWarningRoutes } from './warning-routes';

/** The warnings of the report area (`/report/warning`: list, detail, export, handle, around). */
export const warningRouteBindings: readonly RouteBinding[] = [
  { defs: [warningResource], register: registerWarningRoutes },
];
