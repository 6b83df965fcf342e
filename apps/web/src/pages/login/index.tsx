import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Input, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { CaptchaResponse } from '@mes/contracts';
import { fetchCaptcha, signInWithPassword } from '../../api/auth';
import { ApiError } from '../../api/http';
import { website } from '../../config/website';
import { useSession } from '../../session/session-store';
import { RegisterLink } from '../../shell/register/register-link';
import { useTabs } from '../../shell/tabs/tabs-store';
import './login.css';

interface AccountForm {
  tenantId: string;
  username: string;
  password: string;
  code?: string;
}

function AccountSignIn() {
  const { t } = useTranslation('login');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [captcha, setCaptcha] = useState<CaptchaResponse>();

  const refreshCaptcha = useCallback(() => {
    if (website.captchaMode)
      void fetchCaptcha()
        .then(setCaptcha)
        .catch(() => undefined);
  }, []);
  useEffect(refreshCaptcha, [refreshCaptcha]);

  const submit = async (form: AccountForm) => {
    setBusy(true);
    setError('');
    try {
      const result = await signInWithPassword({
        tenantId: website.tenantMode ? form.tenantId : website.tenantId,
        username: form.username,
        password: form.password,
        captcha: website.captchaMode && captcha ? { key: captcha.key, code: form.code ?? '' } : undefined,
      });
      useSession.getState().signIn(result);
      useTabs.getState().reset();
      void navigate('/wel/index', { replace: true });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<AccountForm>
      layout="vertical"
      onFinish={submit}
      initialValues={{ tenantId: website.tenantId }}
      data-testid="login-form"
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
      {website.tenantMode && (
        <Form.Item name="tenantId" label={t('tenantId')} rules={[{ required: true, message: t('tenantRequired') }]}>
          <Input />
        </Form.Item>
      )}
      <Form.Item name="username" label={t('username')} rules={[{ required: true, message: t('usernameRequired') }]}>
        <Input prefix={<UserOutlined />} autoComplete="username" data-testid="login-username" />
      </Form.Item>
      <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('passwordRequired') }]}>
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="login-password" />
      </Form.Item>
      {website.captchaMode && (
        <Form.Item label={t('captcha')} required>
          <div className="mes-captcha">
            <Form.Item name="code" noStyle rules={[{ required: true, message: t('captchaRequired') }]}>
              <Input />
            </Form.Item>
            {captcha && (
              <img src={captcha.image} alt={t('refreshCaptcha')} title={t('refreshCaptcha')} onClick={refreshCaptcha} />
            )}
          </div>
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
        {busy ? t('signingIn') : t('submit')}
      </Button>
    </Form>
  );
}

function NotConfigured() {
  const { t } = useTranslation('login');
  return <Alert type="info" showIcon message={t('notConfigured')} data-testid="method-not-configured" />;
}

/** The sign-in page (spec sections 2 and 5). */
export default function LoginPage() {
  const { t } = useTranslation('login');
  return (
    <div className="mes-login">
      <Card className="mes-login-card" title={t('heading')}>
        <Tabs
          items={[
            { key: 'account', label: t('accountTab'), children: <AccountSignIn /> },
            { key: 'phone', label: t('phoneTab'), children: <NotConfigured /> },
            { key: 'qr', label: t('qrTab'), children: <NotConfigured /> },
            { key: 'social', label: t('socialTab'), children: <NotConfigured /> },
          ]}
        />
        <RegisterLink />
      </Card>
    </div>
  );
}
