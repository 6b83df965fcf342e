import { requestData } from '../../../api/http';

const joined = (ids: readonly string[]) => ids.join(',');

export const grantRoles = (userIds: readonly string[], roleIds: readonly string[]) =>
  requestData<unknown>('/blade-user/grant', {
    method: 'POST',
    form: true,
    data: { userIds: joined(userIds), roleIds: joined(roleIds) },
  });

export const resetPasswords = (userIds: readonly string[]) =>
  requestData<unknown>('/blade-user/reset-password', { method: 'POST', params: { userIds: joined(userIds) } });

export const unlockUsers = (userIds: readonly string[]) =>
  requestData<unknown>('/blade-user/unlock', { method: 'POST', params: { userIds: joined(userIds) } });

export interface PlatformSettings {
  userType: number;
  userExt: string;
}

/** The user's platform settings (read silently: without an answer the row's values are used). */
export const PLATFORM_DETAIL_ROUTE = '/blade-user/platform-detail';
export type PlatformAnswer = Partial<PlatformSettings> | null;

export const updatePlatform = (userId: string, settings: PlatformSettings) =>
  requestData<unknown>('/blade-user/update-platform', {
    method: 'POST',
    form: true,
    data: { userId, userType: String(settings.userType), userExt: settings.userExt },
  });

/** 审核通过: pending guests become active with these roles (none: the tenant's `user` role). */
export const approveGuests = (ids: readonly string[], roleIds: readonly string[], deptId?: string) =>
  requestData<unknown>('/blade-user/audit-pass', {
    method: 'POST',
    form: true,
    data: { ids: joined(ids), roleIds: joined(roleIds), deptId: deptId ?? '' },
  });

/** 审核拒绝: pending guests are removed. */
export const refuseGuests = (ids: readonly string[]) =>
  requestData<unknown>('/blade-user/audit-refuse', { method: 'POST', form: true, data: { ids: joined(ids) } });
