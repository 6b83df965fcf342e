import { noticeResource } from '@mes/contracts';
import type { RouteBinding } from '../../engine/registry';
import { registerNoticeRoutes } from './notice-routes';

/**
 * The desk (`/blade-desk/notice`, `/blade-desk/service`). Desk services have no behaviour of
 * their own: the registry serves them with the generic routes (docs/desk.md).
 */
export const deskRouteBindings: readonly RouteBinding[] = [{ defs: [noticeResource], register: registerNoticeRoutes }];
