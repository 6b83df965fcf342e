import { dictResource } from '@mes/contracts';
import { DictScreen } from './dict-screen';

/** 系统字典 (/system/dict). */
export default function SystemDictScreen() {
  return <DictScreen resource={dictResource} />;
}
