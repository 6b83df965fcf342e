import { DesktopOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Row, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { displayName, useSession } from '../../session/session-store';
import { DemoTenantCard } from './demo-card';
import { LoginCounts } from './login-counts';
import { OverviewCharts } from './overview-charts';
import { OverviewFigures } from './overview-figures';
import { useOverview } from './use-overview';
import { WorkTasks } from './work-tasks';
import './wel.css';

/**
 * Home, the MES first (issue 30): the tenant's figures from `dashboard/overview` (devices,
 * cycles, open warnings, BD and release, then chairs, personnel, assets), the work tasks and the
 * 30-day charts; who is signed in and the sign-in figures below them. The figures follow live events and an interval (use-overview.ts).
 */
export default function Welcome() {
  const { t } = useTranslation();
  const { t: tw } = useTranslation('wel');
  const user = useSession((s) => s.userInfo);
  const roles = useSession((s) => s.roles);
  const overview = useOverview();
  const data = overview.data;
  return (
    <div data-testid="welcome" className="mes-wel">
      <Typography.Title level={4} className="mes-wel-title">
        {t('dashboard')} · {displayName(user)}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <DemoTenantCard />
        <Col xs={24}>
          <div className="mes-wel-bar-row">
            <Typography.Text type="secondary" data-testid="wel-taken">
              {data ? tw('takenAt', { time: data.takenAt.slice(11) }) : null}
            </Typography.Text>
            <Space size={4}>
              <Tooltip title={tw('refresh')}>
                <Button
                  type="text"
                  size="small"
                  icon={<ReloadOutlined />}
                  aria-label={tw('refresh')}
                  loading={overview.isFetching}
                  onClick={() => void overview.refetch()}
                  data-testid="wel-refresh"
                />
              </Tooltip>
              <Button
                size="small"
                icon={<DesktopOutlined />}
                href="/wel/dashboard"
                target="_blank"
                data-testid="wel-open-wall"
              >
                {tw('wall.open')}
              </Button>
            </Space>
          </div>
          {overview.isError && !data ? (
            <Alert
              type="error"
              showIcon
              message={tw('failed')}
              action={
                <Button size="small" onClick={() => void overview.refetch()}>
                  {tw('retry')}
                </Button>
              }
              data-testid="wel-failed"
            />
          ) : (
            <OverviewFigures data={data} />
          )}
        </Col>
        <Col xs={24}>
          <WorkTasks data={data} loading={overview.isLoading} />
        </Col>
        <Col xs={24}>
          <OverviewCharts data={data} />
        </Col>
        <Col xs={24} xl={9}>
          <Card title={t('layout:account')} className="mes-wel-card" data-testid="wel-account">
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('layout:tenant')}>{user.tenant_id ?? user.tenantId ?? ''}</Descriptions.Item>
              <Descriptions.Item label={t('layout:account')}>{user.account ?? ''}</Descriptions.Item>
              <Descriptions.Item label={t('layout:roles')}>{roles.join(', ')}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={15}>
          <LoginCounts />
        </Col>
      </Row>
    </div>
  );
}
