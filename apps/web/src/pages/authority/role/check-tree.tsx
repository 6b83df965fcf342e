import { Empty, Spin, Tree } from 'antd';
import { useMemo } from 'react';
import { toDataNodes, type TreeNode } from './tree-data';

interface CheckTreeProps {
  tree: readonly TreeNode[];
  checked: readonly string[];
  onChange(checked: string[]): void;
  /** Parents and children are checked independently (roles); default: checking cascades (menus). */
  strict?: boolean;
  loading?: boolean;
  height?: number;
  testId?: string;
}

/** A checkbox tree of a picker or grant forest, fully expanded, virtual when tall. */
export function CheckTree({ tree, checked, onChange, strict, loading, height = 420, testId }: CheckTreeProps) {
  const data = useMemo(() => toDataNodes(tree), [tree]);
  if (loading) return <Spin style={{ display: 'block', padding: 24 }} />;
  if (!data.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <div data-testid={testId}>
      <Tree
        checkable
        checkStrictly={strict}
        defaultExpandAll
        height={height}
        selectable={false}
        treeData={data}
        checkedKeys={strict ? { checked: [...checked], halfChecked: [] } : [...checked]}
        onCheck={(keys) => onChange((Array.isArray(keys) ? keys : keys.checked).map(String))}
      />
    </div>
  );
}
