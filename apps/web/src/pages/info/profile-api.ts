import { md5 } from 'js-md5';
import type { ApiResult, OAuthUserInfo, TokenResponse } from '@mes/contracts';
import { ApiError, request, requestData } from '../../api/http';
import { website } from '../../config/website';
import { getStore } from '../../storage/local-store';

/** What the personal-info tab edits (spec section 3 "User profile"). */
export interface UserProfile {
  avatar: string;
  name: string;
  realName: string;
  phone: string;
  email: string;
}

/** The reply of the avatar upload: `link` goes into the avatar field. */
export interface UploadedFile {
  link: string;
  name: string;
  originalName: string;
}

export const fetchProfile = () => requestData<UserProfile>('/blade-user/info');

export const updateProfile = (profile: UserProfile) =>
  requestData<null>('/blade-user/update-info', { method: 'POST', data: profile });

/** Each of the three is sent as the md5 of what was typed, like the sign-in password. */
export const updatePassword = (oldPassword: string, newPassword: string, newPassword1: string) =>
  request<ApiResult<null>>('/blade-user/update-password', {
    method: 'POST',
    form: true,
    data: { oldPassword: md5(oldPassword), newPassword: md5(newPassword), newPassword1: md5(newPassword1) },
  });

/**
 * Multipart upload to the OSS endpoint. The shared client only sends JSON and forms, so this
 * builds the same headers itself; the browser sets the multipart boundary.
 */
export async function uploadFile(file: File): Promise<UploadedFile> {
  const body = new FormData();
  body.append('file', file);
  const headers: Record<string, string> = {
    Authorization: `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`,
  };
  const token = getStore<string>('token');
  if (token) headers[website.tokenHeader] = `bearer ${token}`;
  const res = await fetch('/api/blade-resource/oss/endpoint/put-file', {
    method: 'POST',
    headers,
    body,
    credentials: 'include',
  });
  const parsed = (await res.json().catch(() => undefined)) as Partial<ApiResult<UploadedFile>> | undefined;
  const status = typeof parsed?.code === 'number' ? parsed.code : res.status;
  if (status !== 200 || !parsed?.data) throw new ApiError(status, parsed?.msg ?? '', parsed);
  return parsed.data;
}

/**
 * The session keeps the sign-in reply's snake_case names next to the user-info ones, and screens
 * read `user_name` first; both must carry the new values after a profile change.
 */
export function withSignInNames(
  info: OAuthUserInfo,
): OAuthUserInfo & Pick<TokenResponse, 'user_name' | 'nick_name' | 'real_name'> {
  return { ...info, user_name: info.userName, nick_name: info.nickName, real_name: info.realName };
}
