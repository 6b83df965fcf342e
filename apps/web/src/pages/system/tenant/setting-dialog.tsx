import { DatePicker, Form, InputNumber } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { tenantResource } from '@mes/contracts';
import { useApiWrite } from '../../../api/use-api';
import { ActionDialog } from '../../../engine/action-dialog';
import type { Row } from '../../../engine/resource-page-types';
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
  const [form] = Form.useForm<SettingValues>();

  useEffect(() => {
    if (!tenants) return;
    const one = tenants.length === 1 ? tenants[0] : undefined;
    const expire = one?.expireTime ? dayjs(String(one.expireTime), FORMAT) : null;
    form.setFieldsValue({
      accountNumber: one?.accountNumber === undefined ? -1 : Number(one.accountNumber),
      expireTime: expire?.isValid() ? expire : null,
    });
  }, [tenants, form]);

  const save = useApiWrite(async () => {
    if (!tenants) return;
    const values = await form.validateFields();
    await saveTenantSettings(
      tenants.map((r) => r.id),
      { accountNumber: values.accountNumber, expireTime: values.expireTime ? values.expireTime.format(FORMAT) : '' },
    );
  }, [tenantResource.api]);

  return (
    <ActionDialog
      open={!!tenants}
      title={t('tenantSetting')}
      width={480}
      forceRender
      onSave={() => save(undefined)}
      onClose={onClose}
      saveTestId="tenant-setting-save"
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
    </ActionDialog>
  );
}
