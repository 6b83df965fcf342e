import { Button } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, topMenuResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { MenuSettingDialog } from './menu-setting-dialog';

/** 顶部菜单: top menus and the side menus each one shows. */
export default function TopMenuScreen() {
  const { t } = useTranslation('system');
  const [setting, setSetting] = useState<Row | null>(null);
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      ctx.can(buttonCodes.topmenu.setting) && (
        <Button type="link" size="small" onClick={() => setSetting(row)} data-testid="topmenu-setting">
          {t('topmenuSetting')}
        </Button>
      ),
    [t],
  );
  return (
    <div data-testid="topmenu-screen">
      <ResourcePage resource={topMenuResource} rowActions={rowActions} />
      <MenuSettingDialog topMenu={setting} onClose={() => setSetting(null)} />
    </div>
  );
}
