import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Input, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { PageResult } from '@mes/contracts';
import { ApiError } from '../../../api/http';
import { apiQuery } from '../../../api/server-state';
import { CycleNow, OnlineBadge, RunStateTag } from './device-state';
import { DEVICE_LIST_URL, type DeviceRow } from './live-data';
import { livePath } from './live-page-path';

/** The list follows devices coming online and going off, at a calm pace. */
const LIST_POLL_MS = 10_000;

type SearchBy = 'deviceCode' | 'deviceName';
type OnlineFilter = 'all' | 'true' | 'false';

/**
 * The tenant's devices (the generic device list), searchable by code or name and by connection,
 * paged by the server; each row opens the device's live page.
 */
export function DeviceList({ phone }: { phone: boolean }) {
  const { t } = useTranslation('iot');
  const navigate = useNavigate();
  const [by, setBy] = useState<SearchBy>('deviceCode');
  const [text, setText] = useState('');
  const [online, setOnline] = useState<OnlineFilter>('all');
  const [page, setPage] = useState({ current: 1, size: 10 });
  const filtered = text !== '' || online !== 'all';
  const query = useQuery({
    ...apiQuery<PageResult<DeviceRow>>(
      DEVICE_LIST_URL,
      {
        current: page.current,
        size: page.size,
        [by]: text || undefined,
        online: online === 'all' ? undefined : online,
      },
      { silent: true },
    ),
    refetchInterval: LIST_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  const open = (row: DeviceRow) => void navigate(livePath(row.deviceCode));
  const openButton = (row: DeviceRow, label: string, testId?: string) => (
    <Button type="link" size="small" onClick={() => open(row)} style={{ padding: 0 }} data-testid={testId}>
      {label}
    </Button>
  );
  const state = (row: DeviceRow) => (
    <Space size={4} wrap>
      <OnlineBadge online={row.online} />
      <RunStateTag state={row.runState} name={row.runStateName} />
      <CycleNow state={row.runState} cycle={row.cycle} />
    </Space>
  );

  const columns: TableColumnsType<DeviceRow> = [
    {
      key: 'deviceCode',
      title: t('list.code'),
      width: 150,
      fixed: 'left',
      render: (_, row) => openButton(row, row.deviceCode),
    },
    { key: 'deviceName', title: t('list.name'), dataIndex: 'deviceName', width: 180, ellipsis: true },
    { key: 'online', title: t('list.online'), width: 90, render: (_, row) => <OnlineBadge online={row.online} /> },
    {
      key: 'runState',
      title: t('list.runState'),
      width: 220,
      render: (_, row) => (
        <Space size={4} wrap>
          <RunStateTag state={row.runState} name={row.runStateName} />
          <CycleNow state={row.runState} cycle={row.cycle} />
        </Space>
      ),
    },
    { key: 'product', title: t('list.product'), dataIndex: 'productIdName', width: 160, ellipsis: true },
    { key: 'dept', title: t('list.dept'), dataIndex: 'deptIdName', width: 160, ellipsis: true },
    { key: 'lastActivity', title: t('list.lastActivity'), dataIndex: 'lastActivityTime', width: 170 },
    {
      key: 'action',
      title: t('list.action'),
      width: 110,
      // At 1440 px beside the side menu the columns are wider than the card: the action stays in view.
      fixed: 'right',
      render: (_, row) => openButton(row, t('list.open'), `iot-open-${row.deviceCode}`),
    },
  ];
  // A phone sees each device's code, name and state without scrolling sideways.
  const phoneColumns: TableColumnsType<DeviceRow> = [
    {
      key: 'device',
      title: t('list.title'),
      render: (_, row) => (
        <>
          {openButton(row, row.deviceCode, `iot-open-${row.deviceCode}`)}
          <div className="mes-iot-list-sub">{row.deviceName}</div>
        </>
      ),
    },
    { key: 'state', title: t('list.state'), width: 140, render: (_, row) => state(row) },
  ];

  return (
    <Card
      size="small"
      title={t('list.title')}
      extra={
        query.data ? (
          <Typography.Text type="secondary">{t('list.total', { count: Number(query.data.total) })}</Typography.Text>
        ) : null
      }
      data-testid="iot-devices"
    >
      <div className="mes-iot-list-tools">
        <Space.Compact style={phone ? undefined : { width: 360 }}>
          <Select<SearchBy>
            value={by}
            onChange={setBy}
            options={[
              { value: 'deviceCode', label: t('list.byCode') },
              { value: 'deviceName', label: t('list.byName') },
            ]}
            style={{ width: 110 }}
            aria-label={t('list.search')}
          />
          <Input.Search
            allowClear
            placeholder={t('list.search')}
            onSearch={(value) => {
              setText(value.trim());
              setPage((p) => ({ ...p, current: 1 }));
            }}
            data-testid="iot-devices-search"
          />
        </Space.Compact>
        <Select<OnlineFilter>
          value={online}
          onChange={(value) => {
            setOnline(value);
            setPage((p) => ({ ...p, current: 1 }));
          }}
          options={[
            { value: 'all', label: t('list.allStates') },
            { value: 'true', label: t('list.onlineOnly') },
            { value: 'false', label: t('list.offlineOnly') },
          ]}
          style={phone ? undefined : { width: 120 }}
          aria-label={t('list.online')}
          data-testid="iot-devices-online"
        />
      </div>
      <Table<DeviceRow>
        size="small"
        rowKey="id"
        loading={query.isLoading}
        dataSource={query.data?.records ?? []}
        scroll={phone ? undefined : { x: 1120 }}
        onRow={(row) => ({ onDoubleClick: () => open(row) })}
        locale={{
          emptyText: query.isError ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                // The IoT figures need only iot:read; the device list needs 设备管理's read too.
                query.error instanceof ApiError && query.error.status === 403
                  ? t('list.forbidden')
                  : `${t('list.failed')}: ${query.error.message}`
              }
              data-testid="iot-devices-error"
            />
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? t('list.emptyFiltered') : t('list.empty')}
              data-testid="iot-devices-empty"
            />
          ),
        }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: Number(query.data?.total ?? 0),
          showSizeChanger: true,
          size: 'small',
          onChange: (current, size) => setPage((p) => ({ current: size !== p.size ? 1 : current, size })),
        }}
        columns={phone ? phoneColumns : columns}
      />
    </Card>
  );
}
