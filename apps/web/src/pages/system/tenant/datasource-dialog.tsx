import { Form, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { tenantResource } from '@mes/contracts';
import { useApiRead, useApiWrite } from '../../../api/use-api';
import { ActionDialog } from '../../../engine/action-dialog';
import type { Row } from '../../../engine/resource-page-types';
import {
  DATASOURCE_LIST_ROUTE,
  DATASOURCE_PICKER_PARAMS,
  datasourceOptionsOf,
  saveTenantDatasource,
} from './tenant-api';

interface DatasourceDialogProps {
  tenant: Row | null;
  onClose(changed: boolean): void;
}

/** 数据源: which datasource a tenant's data lives in. */
export function DatasourceDialog({ tenant, onClose }: DatasourceDialogProps) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<{ datasourceId?: string }>();
  // The datasource screen's own writes invalidate this read too (same routes).
  const datasources = useApiRead(DATASOURCE_LIST_ROUTE, DATASOURCE_PICKER_PARAMS, {
    enabled: !!tenant,
    select: datasourceOptionsOf,
  });
  const options = datasources.data ?? [];

  useEffect(() => {
    if (!tenant) return;
    const current = tenant.datasourceId ? String(tenant.datasourceId) : undefined;
    form.setFieldsValue({ datasourceId: current && current !== '0' ? current : undefined });
  }, [tenant, form]);

  const save = useApiWrite(async () => {
    if (!tenant) return;
    const { datasourceId } = await form.validateFields();
    await saveTenantDatasource(String(tenant.tenantId), String(datasourceId));
  }, [tenantResource.api]);

  return (
    <ActionDialog
      open={!!tenant}
      title={t('tenantDatasource')}
      width={480}
      forceRender
      onSave={() => save(undefined)}
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
