import { Button } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonCodes, roleResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { GrantDialog } from './grant-dialog';

/** 角色管理: the role tree, with 权限设置 (menus, data scopes, API scopes) per role. */
export default function RoleScreen() {
  const { t } = useTranslation('system');
  const [granting, setGranting] = useState<string[] | null>(null);

  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      ctx.can(buttonCodes.role.setting) && (
        <Button type="link" size="small" onClick={() => setGranting([row.id])} data-testid="role-setting">
          {t('roleSetting')}
        </Button>
      ),
    [t],
  );

  return (
    <div data-testid="role-screen">
      <ResourcePage resource={roleResource} treeTable rowActions={rowActions} />
      <GrantDialog roleIds={granting} onClose={() => setGranting(null)} />
    </div>
  );
}
