import type { SQL } from 'drizzle-orm';
import { deviceResource, userResource, warningResource } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { dataScopeCondition, mayReadResource } from '../../engine/resource-access';
import type { AuthContext } from '../../platform/auth/request-auth';
import type { DeviceScope } from '../device/scoped-devices';

/**
 * What the caller sees on the welcome page: the devices of their device data scope (the one the
 * device screen applies), and the users of their user data scope. Every figure about cycles and
 * warnings follows the devices: a caller scoped to a department sees that department's devices'
 * cycles and warnings, whatever other scopes they hold on those screens.
 */
export interface WelcomeScope extends DeviceScope {
  /** The user data scope on `blade_user` rows; undefined: every user. */
  users: SQL | undefined;
  /**
   * Whether the caller may read the warnings and the devices themselves (their screens' read
   * scopes). The figures are counts for everyone; rows naming warnings or devices are listed only
   * to those who could list them on their screens.
   */
  readsWarnings: boolean;
  readsDevices: boolean;
}

export async function welcomeScope(ctx: AppContext, auth: AuthContext): Promise<WelcomeScope> {
  const [devices, users, readsWarnings, readsDevices] = await Promise.all([
    dataScopeCondition(deviceResource, auth, ctx.grants),
    dataScopeCondition(userResource, auth, ctx.grants),
    mayReadResource(warningResource, auth, ctx.grants),
    mayReadResource(deviceResource, auth, ctx.grants),
  ]);
  return { tenantId: auth.tenantId, devices, users, readsWarnings, readsDevices };
}
