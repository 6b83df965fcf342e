import { Button, Card, Spin, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchTree, toDataNodes, type TreeNode } from '../../authority/role/tree-data';

interface DeptAsideProps {
  selected: string | undefined;
  onSelect(deptId: string | undefined): void;
}

/** The department tree beside the user table: a click shows that department's users, 全部 all. */
export function DeptAside({ selected, onSelect }: DeptAsideProps) {
  const { t } = useTranslation('system');
  const [tree, setTree] = useState<TreeNode[] | null>(null);
  useEffect(() => {
    fetchTree('/blade-system/dept/tree')
      .then(setTree)
      .catch(() => setTree([]));
  }, []);
  const data = useMemo(() => toDataNodes(tree ?? []), [tree]);
  return (
    <Card
      size="small"
      title={t('deptTree')}
      extra={
        <Button type="link" size="small" onClick={() => onSelect(undefined)} data-testid="user-dept-all">
          {t('allDepts')}
        </Button>
      }
      style={{ height: '100%' }}
      data-testid="user-dept-tree"
    >
      {tree === null ? (
        <Spin />
      ) : (
        <Tree
          blockNode
          defaultExpandAll
          treeData={data}
          selectedKeys={selected ? [selected] : []}
          onSelect={(keys) => onSelect(keys.length ? String(keys[0]) : undefined)}
        />
      )}
    </Card>
  );
}
