import { Button, Card, Input, Space, Table, Tabs, Tag, message } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { FlowInstanceStatus, type FlowTaskRecord } from '@mes/contracts';
import { apiPost } from '../../api/server-state';
import { invalidateRoutes } from '../../api/server-state';
import { useApiRead } from '../../api/use-api';
import { dictText } from '../../engine/dict-text';
import {
  detailPath,
  FlowPaths,
  handlePath,
  startFormPath,
  useWorkWrite,
  WORK_ROUTE,
  type Page,
  type SendRow,
  type StartRow,
} from './work-api';
import './work.css';

export type WorkTab = 'start' | 'claim' | 'todo' | 'send' | 'done';
const TABS: WorkTab[] = ['start', 'claim', 'todo', 'send', 'done'];
const LIST_OF: Record<WorkTab, string> = {
  start: FlowPaths.workStartList,
  claim: FlowPaths.workClaimList,
  todo: FlowPaths.workTodoList,
  send: FlowPaths.workSendList,
  done: FlowPaths.workDoneList,
};
/** The filter each list declares for the process's name. */
const NAME_FILTER: Record<WorkTab, string> = {
  start: 'name',
  claim: 'processDefinitionName',
  todo: 'processDefinitionName',
  send: 'processDefinitionName',
  done: 'processDefinitionName',
};

/** One list of 我的事务: paged on the server, filtered by the process's name. */
function WorkList({ tab }: { tab: WorkTab }) {
  const { t, i18n } = useTranslation('work');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [draft, setDraft] = useState('');
  const [name, setName] = useState('');
  const query = useApiRead<Page<Record<string, unknown>>>(
    LIST_OF[tab],
    {
      current: page.current,
      size: page.size,
      [NAME_FILTER[tab]]: name || undefined,
    },
    { staleTime: 0 },
  );
  const claim = useWorkWrite((taskId: string) =>
    apiPost<boolean>(FlowPaths.workClaim, undefined, { params: { taskId } }),
  );
  const category = (row: { category: number | null; categoryName: string }) =>
    row.category === null ? '' : dictText('flow', row.category, row.categoryName, lang);
  const open = (path: string | undefined) => {
    if (path) void navigate(path);
    else void message.info(t('noForm'));
  };
  const taskColumns = (kind: 'claim' | 'todo' | 'done'): ColumnsType<FlowTaskRecord> => [
    { title: t('col.processName'), dataIndex: 'processDefinitionName', ellipsis: true },
    { title: t('col.taskName'), dataIndex: 'taskName', width: 140, ellipsis: true },
    { title: t('col.startUser'), dataIndex: 'startUserName', width: 110, responsive: ['sm'] },
    { title: t('col.category'), key: 'category', width: 110, responsive: ['lg'], render: (_, r) => category(r) },
    kind === 'done'
      ? {
          title: t('col.result'),
          dataIndex: 'isPass',
          width: 90,
          render: (pass: boolean | null) =>
            pass === null ? '' : <Tag color={pass ? 'success' : 'error'}>{pass ? t('pass') : t('reject')}</Tag>,
        }
      : { title: t('col.createTime'), dataIndex: 'createTime', width: 170, responsive: ['md'] },
    ...(kind === 'done'
      ? [{ title: t('col.endTime'), dataIndex: 'endTime', width: 170, responsive: ['md' as const] }]
      : []),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 90,
      fixed: 'right',
      render: (_, row) =>
        kind === 'claim' ? (
          <Button
            type="link"
            size="small"
            loading={claim.isPending && claim.variables === row.taskId}
            onClick={() => claim.mutate(row.taskId, { onSuccess: () => void message.success(t('claimed')) })}
            data-testid={`work-claim-${row.taskId}`}
          >
            {t('action.claim')}
          </Button>
        ) : kind === 'todo' ? (
          <Button
            type="link"
            size="small"
            onClick={() => open(handlePath(row))}
            data-testid={`work-handle-${row.taskId}`}
          >
            {t('action.handle')}
          </Button>
        ) : (
          <Button type="link" size="small" onClick={() => void navigate(detailPath(row))}>
            {t('action.detail')}
          </Button>
        ),
    },
  ];
  const startColumns: ColumnsType<StartRow> = [
    { title: t('col.processName'), dataIndex: 'name', ellipsis: true },
    { title: t('col.key'), dataIndex: 'key', width: 120, responsive: ['sm'] },
    { title: t('col.category'), key: 'category', width: 110, render: (_, r) => category(r) },
    { title: t('col.version'), dataIndex: 'version', width: 70, responsive: ['md'], render: (v: number) => `v${v}` },
    { title: t('col.deploymentTime'), dataIndex: 'deploymentTime', width: 170, responsive: ['lg'] },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 80,
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => open(startFormPath(row))} data-testid={`work-start-${row.key}`}>
          {t('action.start')}
        </Button>
      ),
    },
  ];
  const statusTag = (status: number) =>
    status === FlowInstanceStatus.running ? (
      <Tag color="processing">{t('status.running')}</Tag>
    ) : status === FlowInstanceStatus.finished ? (
      <Tag color="success">{t('status.finished')}</Tag>
    ) : (
      <Tag>{t('status.deleted')}</Tag>
    );
  const sendColumns: ColumnsType<SendRow> = [
    { title: t('col.processName'), dataIndex: 'processDefinitionName', ellipsis: true },
    { title: t('col.taskName'), dataIndex: 'taskName', width: 140, ellipsis: true, responsive: ['sm'] },
    { title: t('col.assignee'), dataIndex: 'assigneeName', width: 120, responsive: ['md'] },
    { title: t('col.startTime'), dataIndex: 'startTime', width: 170, responsive: ['md'] },
    { title: t('col.status'), dataIndex: 'flowStatus', width: 90, render: statusTag },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 80,
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => void navigate(detailPath(row))}>
          {t('action.detail')}
        </Button>
      ),
    },
  ];
  const common = {
    size: 'small' as const,
    // The first read only: a re-read on showing keeps the rows readable rather than dimmed.
    loading: query.isPending && query.fetchStatus !== 'idle',
    scroll: { x: 'max-content' as const },
    pagination: {
      current: page.current,
      pageSize: page.size,
      total: query.data?.total ?? 0,
      showSizeChanger: true,
      onChange: (current: number, size: number) => setPage({ current, size }),
    },
    'data-testid': `work-list-${tab}`,
  };
  const records = query.data?.records ?? [];
  const search = () => {
    setName(draft.trim());
    setPage((p) => ({ ...p, current: 1 }));
  };
  return (
    <>
      <Space wrap className="mes-work-search">
        <Input
          allowClear
          value={draft}
          placeholder={t('search.name')}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={search}
          data-testid={`work-search-${tab}`}
        />
        <Button type="primary" onClick={search}>
          {t('search.query')}
        </Button>
        <Button
          onClick={() => {
            setDraft('');
            setName('');
            setPage((p) => ({ ...p, current: 1 }));
          }}
        >
          {t('search.reset')}
        </Button>
      </Space>
      {tab === 'start' ? (
        <Table<StartRow> {...common} rowKey="id" columns={startColumns} dataSource={records as unknown as StartRow[]} />
      ) : tab === 'send' ? (
        <Table<SendRow>
          {...common}
          rowKey="processInstanceId"
          columns={sendColumns}
          dataSource={records as unknown as SendRow[]}
        />
      ) : (
        <Table<FlowTaskRecord>
          {...common}
          rowKey="taskId"
          columns={taskColumns(tab)}
          dataSource={records as unknown as FlowTaskRecord[]}
        />
      )}
    </>
  );
}

/** 我的事务: the five lists as tabs; each menu entry opens the screen on its own list. */
export function WorkScreen({ initial }: { initial: WorkTab }) {
  const { t } = useTranslation('work');
  const [active, setActive] = useState<WorkTab>(initial);
  // Other people move tasks to and from the caller, and no live event says so: the lists are read
  // again each time the (kept-alive) tab is shown.
  const client = useQueryClient();
  const { pathname } = useLocation();
  const [own] = useState(pathname);
  useEffect(() => {
    if (pathname === own) void invalidateRoutes(client, WORK_ROUTE);
  }, [pathname, own, client]);
  return (
    <Card size="small" className="mes-work" data-testid="work-screen">
      <Tabs
        activeKey={active}
        onChange={(key) => setActive(key as WorkTab)}
        destroyInactiveTabPane
        items={TABS.map((key) => ({
          key,
          label: <span data-testid={`work-tab-${key}`}>{t(`tabs.${key}`)}</span>,
          children: <WorkList tab={key} />,
        }))}
      />
    </Card>
  );
}
