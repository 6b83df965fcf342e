import { App, Form, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Row } from '../../../crud/resource-page-types';
import { fetchDatasources, saveTenantDatasource, type DatasourceOption } from './tenant-api';

interface DatasourceDialogProps {
  tenant: Row | null;
  onClose(changed: boolean): void;
}

/** 数据源: which datasource a tenant's data lives in. */
export function DatasourceDialog({ tenant, onClose }: DatasourceDialogProps) {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ datasourceId?: string }>();
  const [options, setOptions] = useState<DatasourceOption[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!tenant) return;
    const current = tenant.datasourceId ? String(tenant.datasourceId) : undefined;
    form.setFieldsValue({ datasourceId: current && current !== '0' ? current : undefined });
    fetchDatasources()
      .then(setOptions)
      .catch(() => setOptions([]));
  }, [tenant, form]);

  const save = async () => {
    if (!tenant) return;
    const { datasourceId } = await form.validateFields();
    setSaving(true);
    try {
      await saveTenantDatasource(String(tenant.tenantId), String(datasourceId));
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
      open={!!tenant}
      title={t('tenantDatasource')}
      width={480}
      forceRender
      confirmLoading={saving}
      okText={t('ok', { ns: 'common' })}
      cancelText={t('cancel', { ns: 'common' })}
      onOk={() => void save()}
      onCancel={() => onClose(false)}
      okButtonProps={{ 'data-testid': 'tenant-datasource-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="datasourceId"
          label={t('datasource')}
          rules={[{ required: true, message: t('datasourceRequired') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            options={options.map((o) => ({ value: o.id, label: o.name }))}
            data-testid="tenant-datasource-select"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
