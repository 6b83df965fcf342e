import { Alert, App, Button, Form, Input, Modal } from 'antd';
import { md5 } from 'js-md5';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ApiResult } from '@mes/contracts';
import { ApiError } from '../../api/http';
import { fetchHostTenant, registerGuest } from '../../api/register';
import { website } from '../../config/website';
import { useSession } from '../../session/session-store';
import { useTabs } from '../tabs/tabs-store';
import { registrationProblem, type RegisterForm } from './register-check';

/** The reply's `msg` when it says `success: false`, else the generic failure text. */
function failureText(e: unknown, fallback: string): string {
  if (e instanceof ApiError) {
    const body = e.body as Partial<ApiResult<unknown>> | undefined;
    if (body && body.success === false && body.msg) return body.msg;
  }
  return fallback;
}

export interface RegisterDialogProps {
  onClose: () => void;
  /**
   * A first-time third-party user's ticket (`oauth_id` of the social sign-in reply): the new
   * account is linked to that provider account.
   */
  oauthId?: string;
  /** The tenant to register in, fixed by the caller (the social sign-in's tenant). */
  tenantId?: string;
}

/** The 账号注册 dialog; its own chunk, loaded when the link is first clicked. */
export default function RegisterDialog({ onClose, oauthId = '', tenantId: fixedTenant }: RegisterDialogProps) {
  const { t } = useTranslation('register');
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterForm>();
  const [hostTenant, setHostTenant] = useState<string>();
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const tenantShown = website.tenantMode && !hostTenant && !fixedTenant;

  useEffect(() => {
    let live = true;
    void fetchHostTenant().then((found) => live && setHostTenant(found));
    return () => {
      live = false;
    };
  }, []);

  const submit = async () => {
    const values = form.getFieldsValue();
    const found = registrationProblem(values, tenantShown);
    if (found) {
      setProblem(t(found));
      return;
    }
    setProblem('');
    setBusy(true);
    try {
      await registerGuest({
        tenantId: fixedTenant ?? (tenantShown ? values.tenantId?.trim() : hostTenant) ?? website.tenantId,
        name: values.name ?? '',
        account: values.account?.trim() ?? '',
        password: md5(values.password ?? ''),
        oauthId,
      });
      onClose();
      modal.info({
        title: t('doneTitle'),
        content: t('doneContent'),
        onOk: () => {
          useSession.getState().signOutLocally();
          useTabs.getState().reset();
          void navigate('/login', { replace: true });
        },
      });
    } catch (e) {
      setProblem(failureText(e, t('submitFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('title')}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      footer={
        <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="register-submit">
          {t('submit')}
        </Button>
      }
      data-testid="register-dialog"
    >
      <Form<RegisterForm> form={form} layout="vertical" onFinish={() => void submit()}>
        {problem && (
          <Alert type="error" showIcon message={problem} style={{ marginBottom: 16 }} data-testid="register-error" />
        )}
        {tenantShown && (
          <Form.Item name="tenantId" label={t('tenantId')} required>
            <Input data-testid="register-tenant" />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('name')}>
          <Input data-testid="register-name" />
        </Form.Item>
        <Form.Item name="account" label={t('account')} required>
          <Input autoComplete="username" data-testid="register-account" />
        </Form.Item>
        <Form.Item name="password" label={t('password')} required>
          <Input.Password autoComplete="new-password" data-testid="register-password" />
        </Form.Item>
        <Form.Item name="password2" label={t('password2')} required>
          <Input.Password autoComplete="new-password" data-testid="register-password2" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
