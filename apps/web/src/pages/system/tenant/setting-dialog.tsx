import { App, DatePicker, Form, InputNumber, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Row } from '../../../crud/resource-page-types';
import { saveTenantSettings } from './tenant-api';

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

interface SettingValues {
  accountNumber: number;
  expireTime?: Dayjs | null;
}

interface SettingDialogProps {
  tenants: Row[] | null;
  onClose(changed: boolean): void;
}

/** 授权配置: account quota (-1 unlimited) and expiry of the selected tenants. */
export function SettingDialog({ tenants, onClose }: SettingDialogProps) {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const [form] = Form.useForm<SettingValues>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!tenants) return;
    const one = tenants.length === 1 ? tenants[0] : undefined;
    const expire = one?.expireTime ? dayjs(String(one.expireTime), FORMAT) : null;
    form.setFieldsValue({
      accountNumber: one?.accountNumber === undefined ? -1 : Number(one.accountNumber),
      expireTime: expire?.isValid() ? expire : null,
    });
  }, [tenants, form]);

  const save = async () => {
    if (!tenants) return;
    const values = await form.validateFields();
    setSaving(true);
    try {
      await saveTenantSettings(
        tenants.map((r) => r.id),
        { accountNumber: values.accountNumber, expireTime: values.expireTime ? values.expireTime.format(FORMAT) : '' },
      );
      void message.success(t('success'));
      onClose(true);
    } catch {
      // the HTTP client has shown the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={!!tenants}
      title={t('tenantSetting')}
      width={480}
      forceRender
      confirmLoading={saving}
      okText={t('ok', { ns: 'common' })}
      cancelText={t('cancel', { ns: 'common' })}
      onOk={() => void save()}
      onCancel={() => onClose(false)}
      okButtonProps={{ 'data-testid': 'tenant-setting-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid="tenant-setting-form">
        <Form.Item
          name="accountNumber"
          label={t('accountNumber')}
          extra={t('accountNumberHint')}
          rules={[{ required: true, message: t('accountNumberRequired') }]}
        >
          <InputNumber min={-1} max={1000000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="expireTime" label={t('expireTime')}>
          <DatePicker showTime format={FORMAT} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
