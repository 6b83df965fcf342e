import { App, Button } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tenantResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';
import type { ResourcePageContext, Row } from '../../../crud/resource-page-types';
import { DatasourceDialog } from './datasource-dialog';
import { SettingDialog } from './setting-dialog';

/** 租户管理: tenants, their licence (quota and expiry) and datasource. */
export default function TenantScreen() {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const [setting, setSetting] = useState<Row[] | null>(null);
  const [datasourceOf, setDatasourceOf] = useState<Row | null>(null);
  const [reload, setReload] = useState<() => void>(() => () => undefined);

  const toolbar = (ctx: ResourcePageContext) =>
    ctx.can('tenant_setting') && (
      <Button
        onClick={() => {
          if (!ctx.selectedRows.length) return void message.warning(t('selectAtLeastOne'));
          setReload(() => ctx.reload);
          setSetting(ctx.selectedRows);
        }}
        data-testid="tenant-setting"
      >
        {t('tenantSetting')}
      </Button>
    );

  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      ctx.can('tenant_datasource') && (
        <Button
          type="link"
          size="small"
          onClick={() => {
            setReload(() => ctx.reload);
            setDatasourceOf(row);
          }}
          data-testid="tenant-datasource"
        >
          {t('tenantDatasource')}
        </Button>
      ),
    [t],
  );

  const close = (changed: boolean) => {
    setSetting(null);
    setDatasourceOf(null);
    if (changed) reload();
  };

  return (
    <div data-testid="tenant-screen">
      <ResourcePage resource={tenantResource} toolbar={toolbar} rowActions={rowActions} />
      <SettingDialog tenants={setting} onClose={close} />
      <DatasourceDialog tenant={datasourceOf} onClose={close} />
    </div>
  );
}
