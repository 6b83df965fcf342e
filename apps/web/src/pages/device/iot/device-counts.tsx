import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_DEVICE_COUNT_PATH, type DeviceCountReply } from '@mes/contracts';
import { ApiError } from '../../../api/http';
import { apiQuery } from '../../../api/server-state';
import './iot.css';

/** The figures follow devices coming and going without a reload, at a calm pace. */
const COUNTS_POLL_MS = 10_000;

export interface DeviceCountsProps {
  /** Where the card sits; the welcome page and the IoT screen have their own test ids. */
  testId: string;
  className?: string;
  /** The compact card of a screen's top; the welcome page's cards are of the default size. */
  small?: boolean;
}

/**
 * Total, online, offline and in-fault devices of the caller's tenant and data scope
 * (`dashboard/deviceCount`). A caller who may not read them (403) gets no card at all; other
 * failures keep the card with a dash, so the page does not jump.
 */
export function DeviceCounts({ testId, className, small }: DeviceCountsProps) {
  const { t } = useTranslation('iot');
  const { token } = theme.useToken();
  const query = useQuery({
    ...apiQuery<DeviceCountReply>(DASHBOARD_DEVICE_COUNT_PATH, undefined, { silent: true }),
    refetchInterval: COUNTS_POLL_MS,
    staleTime: 0,
  });
  if (query.error instanceof ApiError && query.error.status === 403) return null;
  const counts = query.data;
  const figure = (key: keyof DeviceCountReply, color?: string) => (
    <Col xs={12} sm={6}>
      <Statistic
        title={t(`counts.${key}`)}
        value={counts ? counts[key] : '–'}
        valueStyle={color ? { color } : undefined}
        data-testid={`${testId}-${key}`}
      />
    </Col>
  );
  return (
    <Card
      title={t('counts.title')}
      size={small ? 'small' : 'default'}
      loading={query.isLoading}
      className={['mes-iot-counts', className].filter(Boolean).join(' ')}
      data-testid={testId}
    >
      <Row gutter={[16, 8]}>
        {figure('total')}
        {figure('online', token.colorSuccessText)}
        {figure('offline', token.colorTextSecondary)}
        {figure('fault', token.colorErrorText)}
      </Row>
    </Card>
  );
}
