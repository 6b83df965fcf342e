import { GuestRegistrationPaths, TENANT_INFO_PATH, type ApiResult } from '@mes/contracts';
import { request, requestData } from './http';

/**
 * Guest registration from the sign-in page (docs/sign-in.md). These pages load without the query
 * client (the sign-in page's first-load budget), so they call here directly.
 */

/** Whether the platform offers 注册账号; a failure counts as off (the server refuses anyway). */
export const fetchRegistrationOpen = (): Promise<boolean> =>
  requestData<boolean>(GuestRegistrationPaths.enabled, { noToken: true, silent: true }).then(
    (on) => on === true,
    () => false,
  );

/**
 * The tenant that owns this host, if any. Failures are ignored: the lookup is a convenience and
 * the route may not exist on every server.
 */
export async function fetchHostTenant(): Promise<string | undefined> {
  try {
    const info = await request<ApiResult<{ tenantId?: string } | null>>(TENANT_INFO_PATH, {
      params: { domain: window.location.host },
      noToken: true,
      silent: true,
    });
    return info.data?.tenantId || undefined;
  } catch {
    return undefined;
  }
}

export interface GuestRegistration {
  tenantId: string;
  name: string;
  account: string;
  /** md5 of the password as typed: never sent in clear. */
  password: string;
  /** A first-time social user's ticket, linking the account to that provider; empty otherwise. */
  oauthId: string;
}

/** Rejects with an `ApiError` whose body holds the server's reason. */
export const registerGuest = (form: GuestRegistration) =>
  request<ApiResult<unknown>>(GuestRegistrationPaths.register, {
    method: 'POST',
    noToken: true,
    silent: true,
    form: true,
    data: { ...form },
  });
