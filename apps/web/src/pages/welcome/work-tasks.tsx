import { Card, Table, Tabs, Tag, theme, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  FlowPaths,
  type FlowTaskRecord,
  type WelcomeDueRow,
  type WelcomeOverview,
  type WelcomeWarningRow,
} from '@mes/contracts';
import { useApiRead } from '../../api/use-api';
import { handlePath, type Page } from '../my-work/work-api';
import { WARNING_LEVEL_TAG } from '../../shell/warning-level';

/** A table's "nothing here" line in a shade that keeps 4.5:1 (antd's placeholder grey is 1.8:1 on white). */
function Nothing({ text }: { text: string }) {
  const { token } = theme.useToken();
  return <span style={{ color: token.colorTextLabel }}>{text}</span>;
}

/** Unhandled warnings (newest first) and due work (devices in fault, devices offline over a day). */
export function WorkTasks({ data, loading }: { data: WelcomeOverview | undefined; loading: boolean }) {
  const { t } = useTranslation('wel');
  const navigate = useNavigate();
  // The caller's own to-do tasks come from the work list itself (the overview is the tenant's
  // figures, the same for everyone; this list is per caller and changes with every completion).
  const todo = useApiRead<Page<FlowTaskRecord>>(FlowPaths.workTodoList, { current: 1, size: 10 }, { silent: true });
  const todoColumns: ColumnsType<FlowTaskRecord> = [
    { title: t('work.flowProcess'), dataIndex: 'processDefinitionName', ellipsis: true },
    { title: t('work.flowTask'), dataIndex: 'taskName', width: 130, ellipsis: true },
    { title: t('work.flowCreated'), dataIndex: 'createTime', width: 170, responsive: ['md'] },
  ];
  const warningColumns: ColumnsType<WelcomeWarningRow> = [
    {
      title: t('work.level'),
      dataIndex: 'level',
      width: 72,
      render: (level: number) => (
        <Tag color={WARNING_LEVEL_TAG[level]}>{t(`level.${level}`, { defaultValue: level })}</Tag>
      ),
    },
    {
      title: t('work.device'),
      dataIndex: 'deviceCode',
      width: 120,
      ellipsis: true,
      render: (code: string, row) => row.deviceName ?? code,
    },
    { title: t('work.message'), dataIndex: 'message', ellipsis: true },
    // A phone keeps what says what to do: level, device, message; the time when there is room.
    { title: t('work.startTime'), dataIndex: 'startTime', width: 170, responsive: ['md'] },
  ];
  const dueColumns: ColumnsType<WelcomeDueRow> = [
    {
      title: t('work.kind'),
      dataIndex: 'kind',
      width: 130,
      render: (kind: WelcomeDueRow['kind']) => (
        <Tag color={kind === 'fault' ? 'error' : 'default'}>{t(`work.${kind}`)}</Tag>
      ),
    },
    { title: t('work.device'), dataIndex: 'deviceName', ellipsis: true },
    {
      title: t('work.dept'),
      dataIndex: 'deptName',
      width: 140,
      responsive: ['sm'],
      render: (name: string | null) => name ?? '–',
    },
    {
      title: t('work.since'),
      dataIndex: 'since',
      width: 170,
      responsive: ['md'],
      render: (since: string | null) => since ?? '–',
    },
  ];
  const work = data?.work;
  const dueTotal = work ? work.dueCounts.fault + work.dueCounts.offline : 0;
  return (
    <Card size="small" title={t('work.title')} className="mes-wel-work" data-testid="wel-work">
      <Tabs
        size="small"
        items={[
          {
            key: 'warnings',
            label: `${t('work.warnings')} (${work?.unhandledWarnings ?? 0})`,
            children: (
              <>
                <Table<WelcomeWarningRow>
                  size="small"
                  rowKey="id"
                  loading={loading}
                  columns={warningColumns}
                  dataSource={work?.warnings ?? []}
                  pagination={false}
                  // Counted for everyone; listed only to those who may read warnings (server rule).
                  locale={{
                    emptyText: (
                      <Nothing text={work?.unhandledWarnings ? t('work.warningsHidden') : t('work.noWarnings')} />
                    ),
                  }}
                  data-testid="wel-work-warnings"
                />
                {work && work.warnings.length > 0 && work.unhandledWarnings > work.warnings.length ? (
                  <Typography.Text type="secondary" className="mes-wel-more">
                    {t('work.more', { count: work.unhandledWarnings, shown: work.warnings.length })}
                  </Typography.Text>
                ) : null}
              </>
            ),
          },
          {
            key: 'due',
            label: `${t('work.due')} (${dueTotal})`,
            children: (
              <Table<WelcomeDueRow>
                size="small"
                rowKey={(row) => `${row.kind}-${row.deviceId}`}
                loading={loading}
                columns={dueColumns}
                dataSource={work?.due ?? []}
                pagination={false}
                locale={{ emptyText: <Nothing text={dueTotal ? t('work.dueHidden') : t('work.noDue')} /> }}
                data-testid="wel-work-due"
              />
            ),
          },
          {
            key: 'flow',
            label: <span data-testid="wel-work-flow-tab">{`${t('work.flowTodo')} (${todo.data?.total ?? 0})`}</span>,
            children: (
              <Table<FlowTaskRecord>
                size="small"
                rowKey="taskId"
                loading={todo.isPending && todo.fetchStatus !== 'idle'}
                columns={todoColumns}
                dataSource={todo.data?.records ?? []}
                pagination={false}
                locale={{ emptyText: <Nothing text={t('work.noFlowTodo')} /> }}
                onRow={(row) => ({
                  onClick: () => {
                    const path = handlePath(row);
                    if (path) void navigate(path);
                  },
                  style: { cursor: 'pointer' },
                })}
                data-testid="wel-work-flow"
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
