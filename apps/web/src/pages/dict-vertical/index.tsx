import { DictPanels } from '../system/dict/dict-panels';

/** /dict-vertical/index: dictionaries above their entries. */
export default function DictVertical() {
  return <DictPanels layout="vertical" />;
}
