import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { menuResource, permissionCodes } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';
import type { ResourcePageContext, Row } from '../../../crud/resource-page-types';

const MENU_CATEGORY = 1;
const codes = permissionCodes(menuResource.code);

/** Adds a menu or button under this row; buttons (category 2) have no children. */
function AddChild({ row, ctx }: { row: Row; ctx: ResourcePageContext }) {
  const { t } = useTranslation('crud');
  if (!ctx.can(codes.add) || Number(row.category) !== MENU_CATEGORY) return null;
  return (
    <Button
      type="link"
      size="small"
      onClick={() => ctx.openForm('add', undefined, { parentId: row.id })}
      data-testid="menu-add-child"
    >
      {t('addChild')}
    </Button>
  );
}

const rowActions = (row: Row, ctx: ResourcePageContext) => <AddChild row={row} ctx={ctx} />;

/** Menus and their buttons as a tree table. */
export default function MenuPage() {
  return <ResourcePage resource={menuResource} rowActions={rowActions} />;
}
