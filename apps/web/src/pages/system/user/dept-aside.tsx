import { useTranslation } from 'react-i18next';
import { deptResource } from '@mes/contracts';
import { resourceRoute } from '../../../api/server-state';
import { TreeAside } from '../../../engine/tree-aside';

interface DeptAsideProps {
  selected: string | undefined;
  onSelect(deptId: string | undefined): void;
}

/** The department tree beside the user table: a click shows that department's users, 全部 all. */
export function DeptAside({ selected, onSelect }: DeptAsideProps) {
  const { t } = useTranslation('system');
  return (
    <TreeAside
      title={t('deptTree')}
      url={resourceRoute(deptResource, 'tree')}
      selected={selected}
      onSelect={onSelect}
      testId="user-dept"
      expandAll
    />
  );
}
