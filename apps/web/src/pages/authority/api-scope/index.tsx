import { apiScopeResource, buttonCodes } from '@mes/contracts';
import { ScopeScreen } from '../data-scope/scope-screen';

/** 接口权限: API scopes, by menu for holders of the family's `api_scope_setting`. */
export default function ApiScopePage() {
  return <ScopeScreen resource={apiScopeResource} settingCode={buttonCodes.apiScope.setting} />;
}
