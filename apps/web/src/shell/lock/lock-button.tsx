import { LockOutlined } from '@ant-design/icons';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { website } from '../../config/website';
import { useSession } from '../../session/session-store';
import { HeaderToolButton } from '../header/header-tool-button';
import { rememberLockedScreen } from './lock-return';

interface LockForm {
  password: string;
}

/** Header icon that opens the lock dialog (lock password required), then goes to /lock. */
export function LockButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<LockForm>();

  const lockAndGo = (password: string) => {
    // Unlocking comes back here rather than to home; read before the guard moves to /lock.
    rememberLockedScreen(`${window.location.pathname}${window.location.search}`);
    useSession.getState().lock(password);
    setTimeout(() => {
      // The guard may already have moved to /lock as soon as the lock was set.
      if (window.location.pathname !== website.lockPage) void navigate(website.lockPage);
    }, website.lockDelayMs);
  };

  // Spec: /lock only once a lock password exists; otherwise the password dialog comes first.
  const start = () => {
    const { lockPasswd } = useSession.getState();
    if (!lockPasswd) {
      setOpen(true);
      return;
    }
    lockAndGo(lockPasswd);
  };

  const submit = ({ password }: LockForm) => {
    setOpen(false);
    form.resetFields();
    lockAndGo(password);
  };

  return (
    <>
      <HeaderToolButton label={t('lock:button')} onClick={start} data-testid="lock-button">
        <LockOutlined />
      </HeaderToolButton>
      <Modal
        open={open}
        title={t('lock:dialogTitle')}
        width={400}
        onOk={() => form.submit()}
        onCancel={() => {
          setOpen(false);
          form.resetFields();
        }}
        okText={t('ok')}
        cancelText={t('cancel')}
        okButtonProps={{ 'data-testid': 'lock-submit' } as Record<string, string>}
        forceRender
      >
        <Form<LockForm> form={form} layout="vertical" onFinish={submit} data-testid="lock-form">
          <Form.Item
            name="password"
            label={t('lock:password')}
            rules={[{ required: true, whitespace: false, message: t('lock:passwordRequired') }]}
          >
            <Input.Password
              autoFocus
              autoComplete="new-password"
              placeholder={t('lock:passwordPlaceholder')}
              data-testid="lock-password"
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
