/**
 * Routes of the system and log areas beyond the generic lists, named once for the console and the server
 * (under `/api`). Plain strings, not built from the definitions, so a file that needs one route
 * (the sign-in page's) does not carry the definitions with it; each lies under its definition's
 * `api`, so a write there invalidates it (system-paths.test.ts).
 */

/** The signed-in user's menus (`menuResource`). */
export const MenuPaths = {
  /** The menu tree of the side bar (`topMenuId` narrows it to one top menu). */
  routes: '/blade-system/menu/routes',
  /** The buttons the caller may press, as menu nodes. */
  buttons: '/blade-system/menu/buttons',
  /** The top menus of the header. */
  topMenu: '/blade-system/menu/top-menu',
} as const;

/** One dictionary's entries for selects (`dictionary?code=`), of `dictResource` and `dictBizResource`. */
export const DictPaths = {
  entries: '/blade-system/dict/dictionary',
  bizEntries: '/blade-system/dict-biz/dictionary',
} as const;

/** The tenant a domain belongs to (`info?domain=`, public; `tenantResource`). */
export const TENANT_INFO_PATH = '/blade-system/tenant/info';

/** Guest registration from the sign-in page (`userResource`). */
export const GuestRegistrationPaths = {
  /** Whether the platform offers it (the parameter `account.registerUser`). */
  enabled: '/blade-user/register-guest/enabled',
  register: '/blade-user/register-guest',
} as const;

/** The console's local error log, uploaded in batches (`errorLogResource`). */
export const ERROR_LOG_UPLOAD_PATH = '/blade-log/error/upload';
