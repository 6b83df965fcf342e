import { md5 } from 'js-md5';
import type { ApiResult } from '@mes/contracts';
import { request, requestData } from '../../api/http';

/** What the personal-info tab edits (spec section 3 "User profile"). */
export interface UserProfile {
  avatar: string;
  name: string;
  realName: string;
  phone: string;
  email: string;
}

/** The signed-in user's own profile. */
export const PROFILE_ROUTE = '/blade-user/info';

export const updateProfile = (profile: UserProfile) =>
  requestData<null>('/blade-user/update-info', { method: 'POST', data: profile });

/** Each of the three is sent as the md5 of what was typed, like the sign-in password. */
export const updatePassword = (oldPassword: string, newPassword: string, newPassword1: string) =>
  request<ApiResult<null>>('/blade-user/update-password', {
    method: 'POST',
    form: true,
    data: { oldPassword: md5(oldPassword), newPassword: md5(newPassword), newPassword1: md5(newPassword1) },
  });
