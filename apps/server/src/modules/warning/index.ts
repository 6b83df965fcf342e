import { warningEscalationResource, warningResource } from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerEscalationRoutes } from './escalation-routes';
import { registerWarningRoutes } from './warning-routes';

/**
 * The warnings of the report area (`/report/warning`: list, detail, export, handle, around,
 * history) and their escalation steps (`/report/warning-escalation`).
 */
export const warningRouteBindings: readonly RouteBinding[] = [
  { defs: [warningResource], register: registerWarningRoutes },
  { defs: [warningEscalationResource], register: registerEscalationRoutes },
];
