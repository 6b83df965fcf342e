import { lineResource } from '@mes/contracts';
import type { RouteBinding } from '../../crud/registry';
import { registerLineRoutes } from './line-routes';

/** The business area (spec section 7 "Business and devices"). */
export const businessRouteBindings: readonly RouteBinding[] = [{ defs: [lineResource], register: registerLineRoutes }];
