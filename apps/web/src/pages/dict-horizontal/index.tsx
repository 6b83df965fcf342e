import { DictPanels } from '../system/dict/dict-panels';

/** /dict-horizontal/index: dictionaries beside their entries. */
export default function DictHorizontal() {
  return <DictPanels layout="horizontal" />;
}
