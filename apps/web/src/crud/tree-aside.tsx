import { Button, Card, Spin, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchTree, toDataNodes, type TreeNode } from '../pages/authority/role/tree-data';

interface TreeAsideProps {
  title: string;
  /** A tree route (`/blade-system/dept/tree`) answering `{id, title, children}` nodes. */
  url: string;
  selected: string | undefined;
  onSelect(id: string | undefined): void;
  /** Prefix of the test ids: `<testId>-tree`, `<testId>-all`. */
  testId: string;
  expandAll?: boolean;
}

/** A tree beside a table that narrows it: a click picks a node, 全部 shows every row. */
export function TreeAside({ title, url, selected, onSelect, testId, expandAll }: TreeAsideProps) {
  const { t } = useTranslation('system');
  const [tree, setTree] = useState<TreeNode[] | null>(null);
  useEffect(() => {
    fetchTree(url)
      .then(setTree)
      .catch(() => setTree([]));
  }, [url]);
  const data = useMemo(() => toDataNodes(tree ?? []), [tree]);
  return (
    <Card
      size="small"
      title={title}
      extra={
        <Button type="link" size="small" onClick={() => onSelect(undefined)} data-testid={`${testId}-all`}>
          {t('allDepts')}
        </Button>
      }
      style={{ height: '100%' }}
      data-testid={`${testId}-tree`}
    >
      {tree === null ? (
        <Spin />
      ) : (
        <Tree
          blockNode
          defaultExpandAll={expandAll}
          treeData={data}
          selectedKeys={selected ? [selected] : []}
          onSelect={(keys) => onSelect(keys.length ? String(keys[0]) : undefined)}
        />
      )}
    </Card>
  );
}
