import { md5 } from 'js-md5';
import { userResource } from '@mes/contracts';
import { apiPost, resourceRoute } from '../../api/server-state';

/** What the personal-info tab edits (spec section 3 "User profile"). */
export interface UserProfile {
  avatar: string;
  name: string;
  realName: string;
  phone: string;
  email: string;
}

/** The signed-in user's own profile. */
export const PROFILE_ROUTE = resourceRoute(userResource, 'info');

export const updateProfile = (profile: UserProfile) =>
  apiPost<null>(resourceRoute(userResource, 'update-info'), profile);

/** Each of the three is sent as the md5 of what was typed, like the sign-in password. */
export const updatePassword = (oldPassword: string, newPassword: string, newPassword1: string) =>
  apiPost<null>(
    resourceRoute(userResource, 'update-password'),
    { oldPassword: md5(oldPassword), newPassword: md5(newPassword), newPassword1: md5(newPassword1) },
    { form: true },
  );
