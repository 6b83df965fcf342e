import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { displayName, useSession } from '../../session/session-store';
import { LoginCounts } from './login-counts';

/** Home: who is signed in and the sign-in figures. The device and disinfection figures arrive with the business modules. */
export default function Welcome() {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const roles = useSession((s) => s.roles);
  return (
    <div data-testid="welcome">
      <Typography.Title level={4}>
        {t('dashboard')} · {displayName(user)}
      </Typography.Title>
      <Card style={{ maxWidth: 640 }}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('layout:tenant')}>{user.tenant_id ?? user.tenantId ?? ''}</Descriptions.Item>
          <Descriptions.Item label={t('layout:account')}>{user.account ?? ''}</Descriptions.Item>
          <Descriptions.Item label={t('layout:roles')}>{roles.join(', ')}</Descriptions.Item>
        </Descriptions>
      </Card>
      <LoginCounts />
    </div>
  );
}
