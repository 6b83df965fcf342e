/**
 * Button codes beyond the generic add / edit / delete / view / export of `permissionCodes`: the
 * screens' own actions. A code is `<screen>_<action>`; the server seeds these menu buttons and
 * the web shows an action only to holders of its code, so both sides take the names from here.
 */

type ScreenButtons<Screen extends string, Action extends string> = { readonly [A in Action]: `${Screen}_${A}` };

/** The codes `<screen>_<action>` of one screen's own buttons. */
export function screenButtons<const Screen extends string, const Action extends string>(
  screen: Screen,
  actions: readonly Action[],
): ScreenButtons<Screen, Action> {
  return Object.fromEntries(actions.map((action) => [action, `${screen}_${action}`])) as ScreenButtons<Screen, Action>;
}

/** `<code>_enable`: the 启用 row button of a resource with the `enable` operation (SMS, storage). */
export const enableButtonCode = <const Code extends string>(code: Code): `${Code}_enable` => `${code}_enable`;

/** The screens' own buttons, by screen code (the seeded menu's `code` of the screen). */
export const buttonCodes = {
  user: screenButtons('user', ['role', 'reset', 'platform', 'unlock', 'audit']),
  topmenu: screenButtons('topmenu', ['setting']),
  tenant: screenButtons('tenant', ['setting', 'datasource']),
  region: screenButtons('region', ['debug']),
  reportFile: screenButtons('report_file', ['generate', 'download']),
  reportTemplate: screenButtons('report_template', ['design']),
  role: screenButtons('role', ['setting', 'cache']),
  dataScope: screenButtons('data_scope', ['setting']),
  apiScope: screenButtons('api_scope', ['setting']),
  datasource: screenButtons('datasource', ['test']),
  code: screenButtons('code', ['columns', 'gen', 'copy']),
  sms: screenButtons('sms', ['enable', 'send']),
  oss: screenButtons('oss', ['enable', 'debug']),
  attach: screenButtons('attach', ['upload', 'download']),
  device: screenButtons('device_info', ['secret']),
  warning: screenButtons('warning', ['handle']),
  ledger: screenButtons('disinfection_ledger', ['print']),
  verification: screenButtons('verification', ['recall']),
  disinfection: screenButtons('disinfection', ['recall']),
  pack: screenButtons('pack', ['move', 'label']),
  load: screenButtons('load', ['release']),
  flowModel: screenButtons('flow_model', ['deploy']),
  flowManager: screenButtons('flow_manager', ['state', 'remove', 'upload']),
  flowFollow: screenButtons('flow_follow', ['remove']),
} as const;
