import { Button, Card, Spin, Tree, type TreeDataNode } from 'antd';
import { useTranslation } from 'react-i18next';
import { OPTIONS_STALE_MS } from '../api/server-state';
import { useApiRead } from '../api/use-api';

/** A picker node as tree routes send it (CONTRACT.md "Trees"); only what the aside draws. */
interface AsideNode {
  id: string;
  key?: string;
  title: string;
  children?: AsideNode[];
}

/** antd's nodes; an empty `children` is dropped so the node reads as a leaf. */
function toDataNodes(nodes: readonly AsideNode[]): TreeDataNode[] {
  return nodes.map((n) => ({
    key: String(n.key ?? n.id),
    title: n.title,
    children: n.children?.length ? toDataNodes(n.children) : undefined,
  }));
}

// Module-level, so the query keeps the converted nodes while the answer is unchanged.
const asTree = (nodes: AsideNode[] | null) => toDataNodes(nodes ?? []);
const EMPTY: TreeDataNode[] = [];

interface TreeAsideProps {
  title: string;
  /** A tree route (`resourceRoute(deptResource, 'tree')`) answering `{id, title, children}` nodes. */
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
  // The same cache entry (route, no parameters, options' freshness) as the form's and search
  // bar's picker of that tree (`optionQuery`), so the screen asks once and a write to the
  // tree's resource reloads both. A failed read shows an empty tree; 全部 still works.
  const read = useApiRead<AsideNode[] | null, TreeDataNode[]>(url, undefined, {
    select: asTree,
    silent: true,
    staleTime: OPTIONS_STALE_MS,
  });
  const data = read.data ?? (read.isError ? EMPTY : null);
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
      {data === null ? (
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
