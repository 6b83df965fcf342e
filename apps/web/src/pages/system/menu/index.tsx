import { menuResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { Row } from '../../../engine/resource-page-types';

const MENU_CATEGORY = 1;
/** Menus take children (menus or buttons); buttons (category 2) do not. */
const canAddChild = (row: Row) => Number(row.category) === MENU_CATEGORY;

/** Menus and their buttons as a tree table. */
export default function MenuPage() {
  return <ResourcePage resource={menuResource} canAddChild={canAddChild} />;
}
