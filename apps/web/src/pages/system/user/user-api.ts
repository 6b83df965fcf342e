import { userResource } from '@mes/contracts';
import { apiPost, resourceRoute } from '../../../api/server-state';

const joined = (ids: readonly string[]) => ids.join(',');

export const grantRoles = (userIds: readonly string[], roleIds: readonly string[]) =>
  apiPost(resourceRoute(userResource, 'grant'), { userIds: joined(userIds), roleIds: joined(roleIds) }, { form: true });

export const resetPasswords = (userIds: readonly string[]) =>
  apiPost(resourceRoute(userResource, 'reset-password'), undefined, { params: { userIds: joined(userIds) } });

export const unlockUsers = (userIds: readonly string[]) =>
  apiPost(resourceRoute(userResource, 'unlock'), undefined, { params: { userIds: joined(userIds) } });

export interface PlatformSettings {
  userType: number;
  userExt: string;
}

/** The user's platform settings (read silently: without an answer the row's values are used). */
export const PLATFORM_DETAIL_ROUTE = resourceRoute(userResource, 'platform-detail');
export type PlatformAnswer = Partial<PlatformSettings> | null;

export const updatePlatform = (userId: string, settings: PlatformSettings) =>
  apiPost(
    resourceRoute(userResource, 'update-platform'),
    { userId, userType: String(settings.userType), userExt: settings.userExt },
    { form: true },
  );

/** 审核通过: pending guests become active with these roles (none: the tenant's `user` role). */
export const approveGuests = (ids: readonly string[], roleIds: readonly string[], deptId?: string) =>
  apiPost(
    resourceRoute(userResource, 'audit-pass'),
    { ids: joined(ids), roleIds: joined(roleIds), deptId: deptId ?? '' },
    { form: true },
  );

/** 审核拒绝: pending guests are removed. */
export const refuseGuests = (ids: readonly string[]) =>
  apiPost(resourceRoute(userResource, 'audit-refuse'), { ids: joined(ids) }, { form: true });
