import { App, Button } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, tenantResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { DatasourceDialog } from './datasource-dialog';
import { SettingDialog } from './setting-dialog';

/** 租户管理: tenants, their licence (quota and expiry) and datasource. */
export default function TenantScreen() {
  const { t } = useTranslation('system');
  const { message } = App.useApp();
  const [setting, setSetting] = useState<Row[] | null>(null);
  const [datasourceOf, setDatasourceOf] = useState<Row | null>(null);

  const toolbar = (ctx: ResourcePageContext) =>
    ctx.can(buttonCodes.tenant.setting) && (
      <Button
        onClick={() => {
          if (!ctx.selectedRows.length) return void message.warning(t('selectAtLeastOne'));
          setSetting(ctx.selectedRows);
        }}
        data-testid="tenant-setting"
      >
        {t('tenantSetting')}
      </Button>
    );

  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      ctx.can(buttonCodes.tenant.datasource) && (
        <Button type="link" size="small" onClick={() => setDatasourceOf(row)} data-testid="tenant-datasource">
          {t('tenantDatasource')}
        </Button>
      ),
    [t],
  );

  // The dialogs' writes invalidate the tenants themselves; closing only hides them.
  const close = () => {
    setSetting(null);
    setDatasourceOf(null);
  };

  return (
    <div data-testid="tenant-screen">
      <ResourcePage resource={tenantResource} toolbar={toolbar} rowActions={rowActions} />
      <SettingDialog tenants={setting} onClose={close} />
      <DatasourceDialog tenant={datasourceOf} onClose={close} />
    </div>
  );
}
