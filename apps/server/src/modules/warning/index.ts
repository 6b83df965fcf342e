import type { RouteBinding } from '../../crud/registry';

/** The warnings of the report area (`/report/warning`: list, detail, handle, around). */
export const warningRouteBindings: readonly RouteBinding[] = [];
