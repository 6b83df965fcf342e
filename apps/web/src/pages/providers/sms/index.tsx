import { Button, Form, Input } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, EnableStatus, smsResource } from '@mes/contracts';
import { apiPostReply } from '../../../api/server-state';
import { ActionDialog } from '../../../engine/action-dialog';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';

const SEND_CODE = buttonCodes.sms.send;
const PHONE = /^1\d{10}$/;

interface SendValues {
  phones: string;
  params: string;
}

const splitPhones = (text: string) =>
  text
    .split(/[,，\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);

const isJsonObject = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return !!value && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
};

/** 发送测试: a template message through one configuration (`endpoint/send-message`). */
function SendDialog({ config, onClose }: { config: Row | null; onClose(): void }) {
  const { t } = useTranslation('sms');
  const [form] = Form.useForm<SendValues>();

  const save = async () => {
    if (!config) return;
    const values = await form.validateFields();
    await apiPostReply<boolean>(`${smsResource.api}/endpoint/send-message`, {
      code: config.smsCode,
      phones: splitPhones(values.phones).join(','),
      params: values.params?.trim() ?? '',
    });
  };

  return (
    <ActionDialog
      open={!!config}
      title={t('sendTitle')}
      width={520}
      onSave={save}
      onClose={onClose}
      saveTestId="sms-send-save"
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ phones: '', params: '{"code":"123456"}' }}
        data-testid="sms-send-form"
      >
        <Form.Item label={t('code')}>
          <Input value={String(config?.smsCode ?? '')} disabled />
        </Form.Item>
        {config && config.status !== EnableStatus.enabled && (
          <div className="ant-form-item-explain-warning" style={{ marginTop: -16, marginBottom: 16 }}>
            {t('notEnabledHint')}
          </div>
        )}
        <Form.Item
          name="phones"
          label={t('phones')}
          rules={[
            {
              validator: (_, v: string | undefined) => {
                const phones = splitPhones(v ?? '');
                if (!phones.length) return Promise.reject(new Error(t('phonesRequired')));
                const bad = phones.find((p) => !PHONE.test(p));
                return bad ? Promise.reject(new Error(t('phonesInvalid', { phone: bad }))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input placeholder={t('phonesPlaceholder')} data-testid="sms-send-phones" />
        </Form.Item>
        <Form.Item
          name="params"
          label={t('params')}
          extra={t('paramsHelp')}
          rules={[
            {
              validator: (_, v: string | undefined) =>
                !v?.trim() || isJsonObject(v) ? Promise.resolve() : Promise.reject(new Error(t('paramsInvalid'))),
            },
          ]}
        >
          <Input.TextArea rows={4} data-testid="sms-send-params" />
        </Form.Item>
      </Form>
    </ActionDialog>
  );
}

/** 短信配置: provider accounts and templates, one enabled per tenant, with a test send. */
export default function SmsScreen() {
  const { t } = useTranslation('sms');
  const [sending, setSending] = useState<Row | null>(null);

  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) => (
      <>
        {ctx.can(SEND_CODE) && (
          <Button type="link" size="small" onClick={() => setSending(row)} data-testid="sms-send">
            {t('sendTest')}
          </Button>
        )}
      </>
    ),
    [t],
  );

  return (
    <div data-testid="sms-screen">
      <ResourcePage resource={smsResource} rowActions={rowActions} />
      <SendDialog config={sending} onClose={() => setSending(null)} />
    </div>
  );
}
