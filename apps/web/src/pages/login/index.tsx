import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Input, Password } from '../../shell/controls/light-input';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { fetchSignInOptions, signInWithPassword } from '../../api/auth';
import { ApiError } from '../../api/http';
import { website } from '../../config/website';
import { RegisterLink } from '../../shell/register/register-link';
import { CaptchaField, useCaptchaChallenge } from './captcha-challenge';
import { completeSignIn } from './complete-sign-in';
import { Field, LoginNotice } from './field';
import { PhoneSignIn } from './phone-sign-in';
import { QrSignIn } from './qr-sign-in';
import { SocialSignIn } from './social-sign-in';
import './login.css';

interface AccountForm {
  tenantId: string;
  username: string;
  password: string;
}

type FieldErrors = Partial<Record<keyof AccountForm | 'code', string>>;

/**
 * A tenant named by the link (`/login?tenantId=100001`, as the demo tenant's card gives it,
 * docs/demo.md): without the tenant field (`tenantMode` off) this is how another tenant's users
 * reach their password sign-in. Only the shape of a tenant id is accepted.
 */
function useLinkTenant(): string | undefined {
  const [params] = useSearchParams();
  const value = params.get('tenantId')?.trim() ?? '';
  return /^[A-Za-z0-9_-]{1,12}$/.test(value) ? value : undefined;
}

function AccountSignIn() {
  const { t } = useTranslation('login');
  const navigate = useNavigate();
  const linkTenant = useLinkTenant();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  // The captcha is asked for when the server is in captcha mode, or once it demands one
  // (failures past a limit); from then on every attempt sends grant_type=captcha.
  const challenge = useCaptchaChallenge();
  const { require: requireCaptcha } = challenge;
  const [form, setForm] = useState<AccountForm>({ tenantId: website.tenantId, username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});

  useEffect(() => {
    let live = true;
    void fetchSignInOptions()
      .then((options) => {
        if (live && options.captchaMode) requireCaptcha();
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [requireCaptcha]);

  const change = (field: keyof AccountForm) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const validate = (): FieldErrors => {
    const found: FieldErrors = {};
    if (website.tenantMode && !form.tenantId.trim()) found.tenantId = t('tenantRequired');
    if (!form.username.trim()) found.username = t('usernameRequired');
    if (!form.password) found.password = t('passwordRequired');
    if (challenge.missing) found.code = t('captchaRequired');
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setError('');
    try {
      const result = await signInWithPassword({
        tenantId: website.tenantMode ? form.tenantId.trim() : (linkTenant ?? website.tenantId),
        username: form.username.trim(),
        password: form.password,
        captcha: challenge.solved,
      });
      completeSignIn(result, navigate);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      challenge.afterFailure(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="login-form">
      <LoginNotice kind="error" testId="login-error">
        {error}
      </LoginNotice>
      {website.tenantMode && (
        <Field label={t('tenantId')} error={errors.tenantId}>
          <Input
            value={form.tenantId}
            onChange={(e) => change('tenantId')(e.target.value)}
            status={errors.tenantId ? 'error' : undefined}
          />
        </Field>
      )}
      {!website.tenantMode && linkTenant ? (
        <Field label={t('tenantId')}>
          <Input value={linkTenant} readOnly data-testid="login-link-tenant" />
        </Field>
      ) : null}
      <Field label={t('username')} error={errors.username}>
        <Input
          prefix={<UserOutlined />}
          autoComplete="username"
          value={form.username}
          onChange={(e) => change('username')(e.target.value)}
          status={errors.username ? 'error' : undefined}
          data-testid="login-username"
        />
      </Field>
      <Field label={t('password')} error={errors.password}>
        <Password
          prefix={<LockOutlined />}
          autoComplete="current-password"
          value={form.password}
          onChange={(e) => change('password')(e.target.value)}
          status={errors.password ? 'error' : undefined}
          data-testid="login-password"
        />
      </Field>
      <CaptchaField
        challenge={challenge}
        error={errors.code}
        onEdit={() => setErrors((e) => ({ ...e, code: undefined }))}
      />
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
        {busy ? t('signingIn') : t('submit')}
      </Button>
    </form>
  );
}

type Method = 'account' | 'phone' | 'qr' | 'social';

/**
 * The sign-in page (spec sections 2 and 5). It uses plain elements where antd would add weight
 * (Card imports Tabs, Form brings Tooltip, Segmented and Alert their own code): /login must load
 * in at most 250 KB of gzip JavaScript.
 */
export default function LoginPage() {
  const { t } = useTranslation('login');
  const [method, setMethod] = useState<Method>('account');
  const panels: Record<Method, ReactNode> = {
    account: <AccountSignIn />,
    phone: <PhoneSignIn />,
    qr: <QrSignIn />,
    social: <SocialSignIn />,
  };
  return (
    <div className="mes-login">
      <section className="mes-login-card">
        <h1 className="mes-login-heading">{t('heading')}</h1>
        <div className="mes-login-methods" role="tablist" data-testid="login-methods">
          {(['account', 'phone', 'qr', 'social'] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="tab"
              aria-selected={method === m}
              className={method === m ? 'active' : undefined}
              onClick={() => setMethod(m)}
            >
              {t(`${m}Tab`)}
            </button>
          ))}
        </div>
        {panels[method]}
        <RegisterLink />
      </section>
    </div>
  );
}
