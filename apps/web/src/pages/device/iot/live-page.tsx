import { ArrowLeftOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Result, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatDateTime } from '@mes/contracts';
import { useScreenSize } from '../../../engine/use-screen-size';
import { CycleNow, OnlineBadge, RunStateTag } from './device-state';
import { FieldChart } from './field-chart';
import { useDeviceLive, type ChartRange } from './live-data';
import { IOT_SCREEN_PATH } from './live-page-path';
import { TelemetryTable } from './telemetry-table';
import { ValueCards } from './value-cards';
import './iot.css';

/**
 * One device, live: its header (product, department, online state with last connect and
 * activity), a card per model field with the newest value and its age, the chart of a chosen
 * field over a chosen range, and the raw rows. Values follow the device without a reload.
 */
export default function DeviceLivePage() {
  const { t } = useTranslation('iot');
  const navigate = useNavigate();
  const params = useParams();
  // A kept-alive tab holds on to the device it was opened for (as menu screens hold their path).
  const [deviceCode] = useState(() => params.deviceCode ?? '');
  const phone = useScreenSize() === 0;
  const [chosenField, setField] = useState<string | undefined>();
  const [range, setRange] = useState<ChartRange>({ preset: '1h' });

  const live = useDeviceLive(deviceCode, { field: chosenField, range });
  const { device, values, series, field } = live;
  const items = values.data ?? [];

  if (device.isLoading)
    return (
      <div className="mes-iot-wait">
        <Spin />
      </div>
    );
  // A failed refresh keeps the page as it was; only a device never read (or not found) replaces it.
  if (!device.data)
    return (
      <div data-testid="iot-live-missing">
        <Result
          status={device.isError ? 'error' : '404'}
          title={
            device.isError
              ? t('live.failed', { message: device.error.message })
              : t('live.notFound', { code: deviceCode })
          }
          extra={
            <Button onClick={() => void navigate(IOT_SCREEN_PATH)} icon={<ArrowLeftOutlined />}>
              {t('live.back')}
            </Button>
          }
        />
      </div>
    );

  const row = device.data;
  const time = (value: string | null) => value ?? t('live.never');
  return (
    <div className="mes-iot-live" data-testid="iot-live" data-device={deviceCode}>
      <Card size="small" className="mes-iot-head" data-testid="iot-head">
        <div className="mes-iot-head-title">
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => void navigate(IOT_SCREEN_PATH)}
            aria-label={t('live.back')}
            title={t('live.back')}
          />
          <Typography.Title level={5} style={{ margin: 0 }} data-testid="iot-head-name">
            {row.deviceName}
          </Typography.Title>
          <Typography.Text code>{row.deviceCode}</Typography.Text>
          <Space size={4}>
            <OnlineBadge online={row.online} />
            <RunStateTag state={row.runState} name={row.runStateName} />
            <CycleNow state={row.runState} cycle={row.cycle} />
          </Space>
        </div>
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, md: 2, lg: 4, xl: 4, xxl: 4 }}
          className="mes-iot-head-facts"
        >
          <Descriptions.Item label={t('live.product')}>{row.productIdName || '–'}</Descriptions.Item>
          <Descriptions.Item label={t('live.dept')}>{row.deptIdName || '–'}</Descriptions.Item>
          <Descriptions.Item label={row.online ? t('live.lastConnect') : t('live.lastDisconnect')}>
            {time(row.online ? row.lastConnectTime : row.lastDisconnectTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('live.lastActivity')}>
            <span data-testid="iot-last-activity">{time(row.lastActivityTime)}</span>
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card
        size="small"
        title={t('live.values')}
        extra={
          values.dataUpdatedAt ? (
            <Typography.Text type="secondary" data-testid="iot-refreshed">
              {t('live.refreshedAt', { time: formatDateTime(new Date(values.dataUpdatedAt)).slice(11) })}
            </Typography.Text>
          ) : null
        }
      >
        {values.isError && (
          <Alert
            type={values.data ? 'warning' : 'error'}
            showIcon
            message={t('live.failed', { message: values.error.message })}
            style={{ marginBottom: values.data ? 12 : 0 }}
            data-testid="iot-values-error"
          />
        )}
        {values.data ? (
          <ValueCards
            items={items}
            repliedAt={values.dataUpdatedAt}
            inactivitySeconds={live.inactivitySeconds}
            selected={field}
            onSelect={setField}
          />
        ) : (
          !values.isError && (
            <div className="mes-iot-wait">
              <Spin />
            </div>
          )
        )}
      </Card>

      {values.data && (
        <FieldChart
          fields={items}
          field={field}
          onField={setField}
          range={range}
          onRange={setRange}
          reply={series.data}
          loading={series.isPlaceholderData}
          error={series.error}
          phone={phone}
        />
      )}

      <TelemetryTable deviceCode={deviceCode} fields={items} phone={phone} />
    </div>
  );
}
