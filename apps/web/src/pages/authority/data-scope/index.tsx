import { buttonCodes, dataScopeResource } from '@mes/contracts';
import { ScopeScreen } from './scope-screen';

/** 数据权限: data scopes, by menu for holders of the family's `data_scope_setting`. */
export default function DataScopePage() {
  return <ScopeScreen resource={dataScopeResource} settingCode={buttonCodes.dataScope.setting} />;
}
