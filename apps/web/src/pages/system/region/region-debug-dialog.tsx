import { Cascader, Modal, Typography } from 'antd';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { regionResource } from '@mes/contracts';
import { apiQuery, OPTIONS_STALE_MS, resourceRoute } from '../../../api/server-state';
import { useApiRead } from '../../../api/use-api';

/** A region as `region/select` sends it (the family's Region with `level`). */
interface RegionRow {
  code: string;
  name: string;
  level?: number;
}

interface Option {
  value: string;
  label: string;
  isLeaf: boolean;
  children?: Option[];
}

/** The deepest level (village): its regions have no children to load. */
const LAST_LEVEL = 5;

const SELECT_ROUTE = resourceRoute(regionResource, 'select');
/** The regions of the whole country are under this code. */
const TOP_CODE = '00';

const optionsOf = (rows: RegionRow[] | null): Option[] =>
  (rows ?? []).map((r) => ({ value: r.code, label: r.name, isLeaf: Number(r.level) >= LAST_LEVEL }));

/** The regions under `code`, through the shared cache (the region screen's writes invalidate it). */
const children = async (client: QueryClient, code: string): Promise<Option[]> =>
  optionsOf(
    await client.fetchQuery(apiQuery<RegionRow[] | null>(SELECT_ROUTE, { code }, { staleTime: OPTIONS_STALE_MS })),
  );

interface RegionDebugDialogProps {
  open: boolean;
  title: string;
  onClose(): void;
}

/** 区划调试: the cascading picker the family's region screen tries the regions with, level by level. */
export function RegionDebugDialog({ open, title, onClose }: RegionDebugDialogProps) {
  const client = useQueryClient();
  const top = useApiRead(
    SELECT_ROUTE,
    { code: TOP_CODE },
    { enabled: open, select: optionsOf, staleTime: OPTIONS_STALE_MS },
  );
  // The cascader fills in the levels it opens (each level read once through the cache).
  const [tree, setTree] = useState<{ of: Option[]; options: Option[] } | null>(null);
  if (top.data && tree?.of !== top.data) setTree({ of: top.data, options: top.data.map((o) => ({ ...o })) });
  const options = tree?.options ?? [];
  const [picked, setPicked] = useState<string[]>([]);

  const loadData = async (path: Option[]) => {
    const target = path[path.length - 1];
    if (!target) return;
    const loaded = await children(client, target.value).catch(() => []);
    target.children = loaded;
    target.isLeaf = loaded.length === 0;
    setTree((t) => t && { ...t, options: [...t.options] });
  };

  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} destroyOnHidden data-testid="region-debug-dialog">
      <Cascader<Option>
        style={{ width: '100%' }}
        options={options}
        loadData={loadData}
        changeOnSelect
        value={picked}
        onChange={(value) => setPicked((value ?? []).map(String))}
        data-testid="region-debug-cascader"
      />
      <Typography.Paragraph style={{ marginTop: 12 }} data-testid="region-debug-value">
        {picked.join(' / ')}
      </Typography.Paragraph>
    </Modal>
  );
}
