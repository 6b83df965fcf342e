import { describe, expect, it } from 'vitest';
import { errorLogResource } from '../log/error-log';
import { dictBizResource, dictResource } from './dict';
import { menuResource } from './menu';
import { DictPaths, ERROR_LOG_UPLOAD_PATH, GuestRegistrationPaths, MenuPaths, TENANT_INFO_PATH } from './system-paths';
import { tenantResource } from './tenant';
import { userResource } from './user';

/** The console invalidates a cached read by the definition's `api` it lies under. */
describe('the system paths', () => {
  it.each([
    [MenuPaths.routes, menuResource.api],
    [MenuPaths.buttons, menuResource.api],
    [MenuPaths.topMenu, menuResource.api],
    [DictPaths.entries, dictResource.api],
    [DictPaths.bizEntries, dictBizResource.api],
    [TENANT_INFO_PATH, tenantResource.api],
    [GuestRegistrationPaths.enabled, userResource.api],
    [GuestRegistrationPaths.register, userResource.api],
    [ERROR_LOG_UPLOAD_PATH, errorLogResource.api],
  ])('%s lies under %s', (path, api) => {
    expect(path.startsWith(`${api}/`)).toBe(true);
  });
});
