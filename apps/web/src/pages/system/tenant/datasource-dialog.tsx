import { Form, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionDialog } from '../../../crud/action-dialog';
import type { Row } from '../../../crud/resource-page-types';
import { fetchDatasources, saveTenantDatasource, type DatasourceOption } from './tenant-api';

interface DatasourceDialogProps {
  tenant: Row | null;
  onClose(changed: boolean): void;
}

/** 数据源: which datasource a tenant's data lives in. */
export function DatasourceDialog({ tenant, onClose }: DatasourceDialogProps) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<{ datasourceId?: string }>();
  const [options, setOptions] = useState<DatasourceOption[]>([]);

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
    await saveTenantDatasource(String(tenant.tenantId), String(datasourceId));
  };

  return (
    <ActionDialog
      open={!!tenant}
      title={t('tenantDatasource')}
      width={480}
      forceRender
      onSave={save}
      onClose={onClose}
      saveTestId="tenant-datasource-save"
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
    </ActionDialog>
  );
}
