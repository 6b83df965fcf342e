import type { RouteBinding } from '../../crud/registry';

/** The desk (`/blade-desk/notice`, `/blade-desk/service`). */
export const deskRouteBindings: readonly RouteBinding[] = [];
