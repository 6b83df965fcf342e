import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FAILED_JOBS_ROUTE, type FailedJobRow, type LocalText, type PageResult } from '@mes/contracts';
import { useApiRead } from '../../../api/use-api';

const TEXT = {
  name: { zh: '任务', en: 'Job' },
  error: { zh: '错误', en: 'Error' },
  retries: { zh: '重试', en: 'Retries' },
  createTime: { zh: '创建时间', en: 'Created' },
  failTime: { zh: '失败时间', en: 'Failed at' },
  payload: { zh: '参数', en: 'Payload' },
  search: { zh: '搜索', en: 'Search' },
  namePlaceholder: { zh: '请输入任务名称', en: 'Please enter the job name' },
  total: { zh: '共 {n} 条', en: '{n} in total' },
} satisfies Record<string, LocalText>;

/**
 * 失败任务: the durable jobs that ran out of retries (docs/jobs.md), newest first, read-only.
 * The platform's administrators look here when a retention run or an outbound call kept failing.
 */
export default function FailedJobsScreen() {
  const { i18n } = useTranslation();
  const lang: keyof LocalText = i18n.language === 'en' ? 'en' : 'zh';
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState({ current: 1, size: 10, name: '' });
  const params = { current: query.current, size: query.size, ...(query.name ? { name: query.name } : {}) };
  const read = useApiRead<PageResult<FailedJobRow>>(FAILED_JOBS_ROUTE, params);
  const page = read.data;

  const columns: TableColumnsType<FailedJobRow> = [
    { key: 'name', dataIndex: 'name', title: TEXT.name[lang], width: 180 },
    { key: 'error', dataIndex: 'error', title: TEXT.error[lang], ellipsis: true },
    {
      key: 'retries',
      title: TEXT.retries[lang],
      width: 90,
      render: (_, row) => `${row.retryCount} / ${row.retryLimit}`,
    },
    { key: 'createTime', dataIndex: 'createTime', title: TEXT.createTime[lang], width: 170 },
    { key: 'failTime', dataIndex: 'failTime', title: TEXT.failTime[lang], width: 170 },
  ];

  return (
    <div data-testid="failed-jobs">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input
          allowClear
          value={typed}
          maxLength={100}
          placeholder={TEXT.namePlaceholder[lang]}
          onChange={(event) => setTyped(event.target.value)}
          onPressEnter={() => setQuery((q) => ({ ...q, current: 1, name: typed.trim() }))}
          style={{ width: 240 }}
        />
        <Button
          type="primary"
          icon={<SearchOutlined />}
          onClick={() => setQuery((q) => ({ ...q, current: 1, name: typed.trim() }))}
        >
          {TEXT.search[lang]}
        </Button>
        <Button shape="circle" icon={<ReloadOutlined />} onClick={() => void read.refetch()} />
      </Space>
      <Table<FailedJobRow>
        rowKey="id"
        size="middle"
        loading={read.isFetching}
        columns={columns}
        dataSource={page?.records ?? []}
        scroll={{ x: 800 }}
        expandable={{
          expandedRowRender: (row) => (
            <div>
              <Typography.Text type="secondary">{TEXT.payload[lang]}</Typography.Text>
              <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(row.payload, null, 2)}</pre>
              <Typography.Text type="danger">{row.error}</Typography.Text>
            </div>
          ),
        }}
        pagination={{
          current: query.current,
          pageSize: query.size,
          total: Number(page?.total ?? 0),
          showSizeChanger: true,
          showTotal: (n) => TEXT.total[lang].replace('{n}', String(n)),
          onChange: (current, size) => setQuery((q) => ({ ...q, current: size !== q.size ? 1 : current, size })),
        }}
      />
    </div>
  );
}
