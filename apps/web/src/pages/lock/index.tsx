import { ArrowRightOutlined, LockOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { signOutOnServer } from '../../api/auth';
import { website } from '../../config/website';
import { displayName, useSession } from '../../session/session-store';
import { forgetLockedScreen, takeLockedScreen } from '../../shell/lock/lock-return';
import { useTokenRefresh } from '../../shell/session-refresh/use-token-refresh';
import { useTabs } from '../../shell/tabs/tabs-store';
import './lock.css';

/** The lock screen: shows the user; only the lock password unlocks. */
export default function LockPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const user = useSession((s) => s.userInfo);
  const isLock = useSession((s) => s.isLock);
  const token = useSession((s) => s.token);
  const [value, setValue] = useState('');
  const [wrong, setWrong] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // The session stays alive behind the lock, so unlocking after a long pause needs no new sign-in.
  useTokenRefresh();

  // Nothing is locked (e.g. /lock typed by hand): there is nothing to unlock here.
  if (!isLock && !leaving) return <Navigate to={token ? '/' : '/login'} replace />;

  const unlock = () => {
    if (!value || value !== useSession.getState().lockPasswd) {
      setWrong(true);
      void message.error(t('lock:wrongPassword'));
      return;
    }
    setLeaving(true);
    const back = takeLockedScreen();
    useSession.getState().unlock();
    // Back to the screen that was open when the lock was set.
    setTimeout(() => void navigate(back, { replace: true }), website.lockDelayMs);
  };

  const signOut = () =>
    modal.confirm({
      title: t('tip'),
      content: t('lock:logoutConfirm'),
      onOk: async () => {
        setLeaving(true);
        // The server call needs the token, so it goes before the local sign-out.
        await signOutOnServer().catch(() => undefined);
        useSession.getState().signOutLocally();
        forgetLockedScreen();
        useTabs.getState().reset();
        void navigate('/login', { replace: true });
      },
    });

  const name = displayName(user);

  return (
    <div className="mes-lock" data-testid="lock-page">
      <div className="mes-lock-card">
        <Avatar size={88} src={user.avatar || undefined} icon={<UserOutlined />} className="mes-lock-avatar" />
        <Typography.Title level={4} className="mes-lock-name" data-testid="lock-user">
          {name}
        </Typography.Title>
        <Typography.Text className="mes-lock-hint">
          <LockOutlined /> {t('lock:locked')}
        </Typography.Text>
        <Space.Compact block className="mes-lock-form">
          <Input.Password
            autoFocus
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setWrong(false);
            }}
            onPressEnter={unlock}
            status={wrong ? 'error' : undefined}
            placeholder={t('lock:unlockPlaceholder')}
            autoComplete="off"
            data-testid="unlock-password"
          />
          <Button
            type="primary"
            icon={<ArrowRightOutlined />}
            onClick={unlock}
            aria-label={t('lock:unlock')}
            data-testid="unlock-submit"
          />
        </Space.Compact>
        <Button
          type="link"
          icon={<LogoutOutlined />}
          onClick={signOut}
          className="mes-lock-logout"
          data-testid="lock-logout"
        >
          {t('lock:logout')}
        </Button>
      </div>
    </div>
  );
}
