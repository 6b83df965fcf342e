import { Button } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { deptResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';
import type { ResourcePageContext, Row } from '../../../crud/resource-page-types';

/** 部门管理: the organisation tree; a row adds a child under itself. */
export default function DeptScreen() {
  const { t } = useTranslation('system');
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      ctx.can('dept_add') && (
        <Button
          type="link"
          size="small"
          onClick={() => ctx.openForm('add', undefined, { parentId: row.id })}
          data-testid="dept-add-child"
        >
          {t('addChild')}
        </Button>
      ),
    [t],
  );
  return (
    <div data-testid="dept-screen">
      <ResourcePage resource={deptResource} treeTable rowActions={rowActions} />
    </div>
  );
}
