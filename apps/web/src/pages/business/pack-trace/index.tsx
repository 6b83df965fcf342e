import { Alert, Flex, Grid, Input, Table, Tabs, Tag, TreeSelect, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type ReactNode } from 'react';
import {
  deptResource,
  PACK_CASE_PATH,
  PACK_LOAD_PATH,
  PACK_STOCK_PATH,
  PACK_TRACE_PATH,
  type PackBrief,
  type PackLoadPacks,
  type PackMoveRow,
  type PackTrace,
  type PackUseRow,
} from '@mes/contracts';
import { useFetchNow, useResourceRead } from '../../../api/use-api';
import { stateTag, useLang, type Lang } from '../pack/pack-tags';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('packTrace');
type Text = (typeof TEXT)['zh'];

const expiryOf = (p: PackBrief, text: Text) => (
  <>
    {p.expiryDate}{' '}
    {p.pastExpiry ? (
      <Tag color="red" data-testid="pack-past-expiry">
        {text.pastExpiry}
      </Tag>
    ) : null}
  </>
);

/** Lines of one cell on a phone: what the wide table spreads over columns, read top to bottom. */
const Lines = ({ lines }: { lines: ReactNode[] }) => (
  <Flex vertical gap={2}>
    {lines.map((line, i) => (line === null || line === '' ? null : <div key={i}>{line}</div>))}
  </Flex>
);
const secondary = (parts: (string | null | undefined)[]) => {
  const text = parts.filter(Boolean).join(' · ');
  return text ? <Typography.Text type="secondary">{text}</Typography.Text> : null;
};

/** A phone cell's first line: the pack's code, its state at the right. */
const codeLine = (p: PackBrief, lang: Lang) => (
  <Flex key="code" justify="space-between" gap={8} wrap>
    <Typography.Text strong>{p.code}</Typography.Text>
    {stateTag(p.state, lang)}
  </Flex>
);

/**
 * A pack's columns; on a phone one column of lines (code and state, article, where, load and
 * expiry), so that nothing a reader looks for sits off to the right of the screen.
 */
const packColumns = (text: Text, lang: Lang, narrow: boolean): ColumnsType<PackBrief> =>
  narrow
    ? [
        {
          key: 'pack',
          title: text.pack,
          render: (_, p) => (
            <Lines
              lines={[
                codeLine(p, lang),
                p.articleName,
                secondary([p.deptName, p.loadNo]),
                p.expiryDate ? (
                  <span>
                    {text.expiry} {expiryOf(p, text)}
                  </span>
                ) : null,
              ]}
            />
          ),
        },
      ]
    : [
        { key: 'code', dataIndex: 'code', title: text.pack },
        { key: 'article', dataIndex: 'articleName', title: text.article },
        { key: 'state', title: text.state, render: (_, p) => stateTag(p.state, lang) },
        { key: 'dept', dataIndex: 'deptName', title: text.at },
        { key: 'load', dataIndex: 'loadNo', title: text.loadCol },
        { key: 'expiry', title: text.expiry, render: (_, p) => expiryOf(p, text) },
      ];

const placeOf = (m: PackMoveRow) =>
  [m.deptName, m.lineName, m.carName, m.loadNo, m.patientCase, m.chairNo, m.clinician].filter(Boolean).join(' · ');

/** A pack's moves, oldest first; on a phone one column of lines (time and who, the move, where). */
const moveColumns = (text: Text, lang: Lang, narrow: boolean): ColumnsType<PackMoveRow> => {
  const fromTo = (m: PackMoveRow) => (
    <>
      {m.fromState ? stateTag(m.fromState, lang) : '-'} → {stateTag(m.toState, lang)}
    </>
  );
  return narrow
    ? [
        {
          key: 'move',
          title: text.moves,
          render: (_, m) => <Lines lines={[secondary([m.moveTime, m.userName]), fromTo(m), placeOf(m)]} />,
        },
      ]
    : [
        { key: 'moveTime', dataIndex: 'moveTime', title: text.time },
        {
          key: 'from',
          title: text.from,
          render: (_, m) => (m.fromState ? stateTag(m.fromState, lang) : '-'),
        },
        { key: 'to', title: text.to, render: (_, m) => stateTag(m.toState, lang) },
        { key: 'userName', dataIndex: 'userName', title: text.by },
        { key: 'where', title: text.where, render: (_, m) => placeOf(m) },
      ];
};

/** The uses on a patient case, newest first; on a phone one column of lines. */
const useColumns = (text: Text, lang: Lang, narrow: boolean): ColumnsType<PackUseRow> =>
  narrow
    ? [
        {
          key: 'use',
          title: text.useTime,
          render: (_, u) => (
            <Lines
              lines={[
                codeLine(u.pack, lang),
                u.pack.articleName,
                secondary([u.useTime, u.useDeptName, u.chairNo, u.clinician]),
                secondary([u.pack.loadNo]),
              ]}
            />
          ),
        },
      ]
    : [
        { key: 'useTime', dataIndex: 'useTime', title: text.useTime },
        { key: 'code', title: text.pack, render: (_, u) => u.pack.code },
        { key: 'article', title: text.article, render: (_, u) => u.pack.articleName },
        { key: 'dept', dataIndex: 'useDeptName', title: text.at },
        { key: 'chair', dataIndex: 'chairNo', title: text.chair },
        { key: 'clinician', dataIndex: 'clinician', title: text.clinician },
        { key: 'load', title: text.loadCol, render: (_, u) => u.pack.loadNo },
        { key: 'state', title: text.state, render: (_, u) => stateTag(u.pack.state, lang) },
      ];

/** One look-up: a search box, the request it makes, and how its answer shows. */
function useLookup<T>(path: string, param: string) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  const fetchNow = useFetchNow();
  const run = (value: string) => {
    if (!value.trim()) return;
    setLoading(true);
    setError('');
    fetchNow<T>(path, { [param]: value.trim() })
      .then(setData)
      .catch((e: unknown) => {
        setData(null);
        setError(e instanceof Error ? e.message : String(e));
      })
      .finally(() => setLoading(false));
  };
  return { data, error, loading, run };
}

const failure = (error: string) =>
  error ? <Alert type="error" showIcon message={error} data-testid="lookup-error" /> : null;

/**
 * 追溯查询 (docs/packs.md "Look-ups"): a pack's whole history by its code, the packs used on a
 * patient case, the packs of a load and a clinic's sterile stock, soonest expiry first.
 */
export default function PackTraceScreen() {
  const lang = useLang();
  const text: Text = TEXT[lang];
  const trace = useLookup<PackTrace>(PACK_TRACE_PATH, 'code');
  const uses = useLookup<PackUseRow[]>(PACK_CASE_PATH, 'patientCase');
  const loadPacks = useLookup<PackLoadPacks>(PACK_LOAD_PATH, 'loadNo');
  const stock = useLookup<PackBrief[]>(PACK_STOCK_PATH, 'deptId');
  const depts =
    useResourceRead<{ title: string; value: string }[]>(deptResource, 'tree', undefined, { silent: true }).data ?? [];
  // Below 768 px (a phone) each table is one column of lines and the tabs are tighter.
  const narrow = Grid.useBreakpoint().md === false;
  const packs = packColumns(text, lang, narrow);
  const search = (placeholder: string, testId: string, run: (v: string) => void, loading: boolean) => (
    <Input.Search
      data-testid={testId}
      placeholder={placeholder}
      enterButton={text.search}
      allowClear
      loading={loading}
      onSearch={run}
      style={{ maxWidth: 420 }}
    />
  );
  return (
    <div style={{ padding: 12 }} data-testid="pack-trace-screen">
      <Tabs
        size={narrow ? 'small' : 'middle'}
        tabBarGutter={narrow ? 12 : undefined}
        items={[
          {
            key: 'trace',
            label: text.trace,
            children: (
              <Flex vertical gap={12}>
                {search(text.code, 'lookup-code', trace.run, trace.loading)}
                {failure(trace.error)}
                {trace.data ? (
                  <>
                    <Table<PackBrief>
                      size="small"
                      rowKey="id"
                      pagination={false}
                      dataSource={[trace.data.pack]}
                      columns={packs}
                      scroll={{ x: 'max-content' }}
                    />
                    <Table<PackMoveRow>
                      data-testid="lookup-history"
                      size="small"
                      rowKey="id"
                      pagination={false}
                      dataSource={trace.data.moves}
                      scroll={{ x: 'max-content' }}
                      columns={moveColumns(text, lang, narrow)}
                    />
                  </>
                ) : null}
              </Flex>
            ),
          },
          {
            key: 'case',
            label: text.case,
            children: (
              <Flex vertical gap={12}>
                {search(text.patientCase, 'lookup-case', uses.run, uses.loading)}
                {failure(uses.error)}
                <Table<PackUseRow>
                  data-testid="lookup-case-table"
                  size="small"
                  rowKey="moveId"
                  pagination={false}
                  dataSource={uses.data ?? []}
                  scroll={{ x: 'max-content' }}
                  columns={useColumns(text, lang, narrow)}
                />
              </Flex>
            ),
          },
          {
            key: 'load',
            label: text.load,
            children: (
              <Flex vertical gap={12}>
                {search(text.loadNo, 'lookup-load', loadPacks.run, loadPacks.loading)}
                {failure(loadPacks.error)}
                {loadPacks.data ? (
                  <Typography.Text strong>
                    {text.loadHead
                      .replace('{no}', loadPacks.data.load.loadNo)
                      .replace('{state}', loadPacks.data.load.state === 2 ? text.released : text.open)
                      .replace(
                        '{who}',
                        [loadPacks.data.load.releaseUserName, loadPacks.data.load.releaseTime]
                          .filter(Boolean)
                          .join(' '),
                      )}
                  </Typography.Text>
                ) : null}
                <Table<PackBrief>
                  data-testid="lookup-load-table"
                  size="small"
                  rowKey="id"
                  pagination={false}
                  dataSource={loadPacks.data?.packs ?? []}
                  columns={packs}
                  scroll={{ x: 'max-content' }}
                />
              </Flex>
            ),
          },
          {
            key: 'stock',
            label: text.stock,
            children: (
              <Flex vertical gap={12}>
                <TreeSelect
                  data-testid="lookup-stock-dept"
                  placeholder={text.dept}
                  showSearch
                  treeDefaultExpandAll
                  treeNodeFilterProp="title"
                  treeData={depts}
                  style={{ maxWidth: 420, width: '100%' }}
                  onChange={(value: string) => stock.run(String(value ?? ''))}
                />
                {failure(stock.error)}
                <Table<PackBrief>
                  data-testid="lookup-stock-table"
                  size="small"
                  rowKey="id"
                  pagination={false}
                  dataSource={stock.data ?? []}
                  columns={packs}
                  scroll={{ x: 'max-content' }}
                />
              </Flex>
            ),
          },
        ]}
      />
    </div>
  );
}
