import { dictBizResource } from '@mes/contracts';
import { DictScreen } from '../dict/dict-screen';

/** 业务字典 (/system/dictbiz). */
export default function BusinessDictScreen() {
  return <DictScreen resource={dictBizResource} />;
}
