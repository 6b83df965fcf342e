import { Button, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { website } from '../../config/website';
import { useSession } from '../../session/session-store';

/** The lock screen: shows the user; only the lock password unlocks. */
export default function LockPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.userInfo);
  const [value, setValue] = useState('');
  const [wrong, setWrong] = useState(false);
  const unlock = () => {
    if (value !== useSession.getState().lockPasswd) {
      setWrong(true);
      return;
    }
    useSession.getState().unlock();
    setTimeout(() => void navigate('/', { replace: true }), website.lockDelayMs);
  };
  return (
    <div style={{ maxWidth: 320, margin: '20vh auto', textAlign: 'center' }} data-testid="lock-page">
      <Typography.Title level={4}>{user.user_name ?? user.userName ?? ''}</Typography.Title>
      <Input.Password
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onPressEnter={unlock}
        status={wrong ? 'error' : undefined}
        data-testid="unlock-password"
      />
      <Button type="primary" block style={{ marginTop: 12 }} onClick={unlock} data-testid="unlock-submit">
        {t('lock')}
      </Button>
    </div>
  );
}
