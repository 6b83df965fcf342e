import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Input } from '../../shell/controls/light-input';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http';
import { sendSignInCode, signInWithSms } from '../../api/sms-auth';
import { website } from '../../config/website';
import { completeSignIn } from './complete-sign-in';
import { Field, LoginNotice } from './field';

interface PhoneForm {
  tenantId: string;
  phone: string;
  code: string;
}

type FieldErrors = Partial<Record<keyof PhoneForm, string>>;

/** The server allows one code per phone per minute; the button waits as long. */
const RESEND_SECONDS = 60;

/** Spec section 5: empty, then length, then format (1 followed by 10 digits). */
function phoneError(phone: string): 'phoneRequired' | 'phoneLength' | 'phoneFormat' | undefined {
  if (!phone) return 'phoneRequired';
  if (phone.length !== 11) return 'phoneLength';
  if (!/^1\d{10}$/.test(phone)) return 'phoneFormat';
  return undefined;
}

const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

/** The phone sign-in panel: a code by SMS (`/api/alisms/send`), then `grant_type=sms`. */
export function PhoneSignIn() {
  const { t } = useTranslation('login');
  const navigate = useNavigate();
  const [form, setForm] = useState<PhoneForm>({ tenantId: website.tenantId, phone: '', code: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [info, setInfo] = useState('');
  const [sending, setSending] = useState(false);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const change = (field: keyof PhoneForm) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const tenantId = () => (website.tenantMode ? form.tenantId.trim() : website.tenantId);

  /** Tenant and phone, as both steps need them. */
  const checkPhone = (): FieldErrors => {
    const found: FieldErrors = {};
    if (website.tenantMode && !form.tenantId.trim()) found.tenantId = t('tenantRequired');
    const phoneKey = phoneError(form.phone.trim());
    if (phoneKey) found.phone = t(phoneKey);
    return found;
  };

  const sendCode = async () => {
    const found = checkPhone();
    setErrors(found);
    if (Object.keys(found).length) return;
    setSending(true);
    setError('');
    setInfo('');
    try {
      await sendSignInCode(tenantId(), form.phone.trim());
      setInfo(t('codeSent'));
      setWait(RESEND_SECONDS);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkPhone();
    if (!form.code.trim()) found.code = t('smsCodeRequired');
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setError('');
    try {
      const result = await signInWithSms({ tenantId: tenantId(), phone: form.phone.trim(), code: form.code.trim() });
      completeSignIn(result, navigate);
    } catch (e) {
      setInfo('');
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="phone-form">
      <LoginNotice kind="error" testId="phone-error">
        {error}
      </LoginNotice>
      <LoginNotice kind="info" testId="phone-info">
        {!error && info}
      </LoginNotice>
      {website.tenantMode && (
        <Field label={t('tenantId')} error={errors.tenantId}>
          <Input
            value={form.tenantId}
            onChange={(e) => change('tenantId')(e.target.value)}
            status={errors.tenantId ? 'error' : undefined}
            data-testid="phone-tenant"
          />
        </Field>
      )}
      <Field label={t('phone')} error={errors.phone}>
        <Input
          prefix={<MobileOutlined />}
          inputMode="numeric"
          autoComplete="tel"
          maxLength={11}
          value={form.phone}
          onChange={(e) => change('phone')(e.target.value)}
          status={errors.phone ? 'error' : undefined}
          data-testid="phone-number"
        />
      </Field>
      <Field label={t('smsCode')} error={errors.code}>
        <div className="mes-captcha">
          <Input
            prefix={<SafetyOutlined />}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={form.code}
            onChange={(e) => change('code')(e.target.value)}
            status={errors.code ? 'error' : undefined}
            data-testid="phone-code"
          />
          <Button
            onClick={() => void sendCode()}
            loading={sending}
            disabled={wait > 0}
            style={{ minWidth: 120 }}
            data-testid="phone-send-code"
          >
            {wait > 0 ? t('resendIn', { seconds: wait }) : t('sendCode')}
          </Button>
        </div>
      </Field>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="phone-submit">
        {busy ? t('signingIn') : t('submit')}
      </Button>
    </form>
  );
}
