import { AuthPaths, type ApiResult, type TokenResponse } from '@mes/contracts';
import { request } from './http';

export interface SmsSignIn {
  tenantId: string;
  phone: string;
  code: string;
}

/**
 * Asks for a sign-in code (`POST /api/alisms/send`). The server answers alike whether or not the
 * phone has an account; the panel shows errors itself, so no toast.
 */
export function sendSignInCode(tenantId: string, phone: string): Promise<ApiResult<boolean>> {
  return request<ApiResult<boolean>>(AuthPaths.smsCode, {
    method: 'POST',
    noToken: true,
    silent: true,
    headers: { 'Tenant-Id': tenantId },
    form: true,
    data: { tenantId, phone },
  });
}

/** `grant_type=sms` on the token endpoint; a refusal comes back as `error_description`. */
export function signInWithSms(form: SmsSignIn): Promise<TokenResponse> {
  return request<TokenResponse>(AuthPaths.token, {
    method: 'POST',
    noToken: true,
    silent: true,
    headers: { 'Tenant-Id': form.tenantId, 'User-Type': 'web' },
    form: true,
    data: {
      tenantId: form.tenantId,
      phone: form.phone,
      code: form.code,
      grant_type: 'sms',
      scope: 'all',
      type: 'phone',
    },
  });
}
