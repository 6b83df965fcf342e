import { Card, Col, Descriptions, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { displayName, useSession } from '../../session/session-store';
import { DeviceCounts } from '../device/iot/device-counts';
import { LoginCounts } from './login-counts';
import './wel.css';

/**
 * Home: who is signed in and the sign-in figures, side by side on wide screens and stacked on narrow
 * ones, filling the width, then the device figures (for those who may read them). The disinfection
 * figures arrive with the business modules.
 */
export default function Welcome() {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const roles = useSession((s) => s.roles);
  return (
    <div data-testid="welcome" className="mes-wel">
      <Typography.Title level={4} className="mes-wel-title">
        {t('dashboard')} · {displayName(user)}
      </Typography.Title>
      <Row gutter={[16, 16]}>
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
        <Col xs={24}>
          <DeviceCounts testId="wel-device-counts" />
        </Col>
      </Row>
    </div>
  );
}
