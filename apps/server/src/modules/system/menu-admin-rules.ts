import { eq, inArray } from 'drizzle-orm';
import { MenuCategory } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import type { ChangeArgs, ResourceHooks } from '../../engine/resource-routes';
import { menu, roleMenu, topMenuSetting } from '../../platform/db/schema';
import { badRequest } from '../../platform/http/errors';
import { subtreeIds } from './menu-admin-forest';

export const MenuMessages = {
  buttonNeedsParent: { zh: '按钮必须选择上级菜单', en: 'A button needs a parent menu' },
  parentMissing: { zh: '上级菜单不存在', en: 'The parent menu does not exist' },
  parentIsButton: { zh: '按钮下不能再添加菜单或按钮', en: 'Nothing can be added under a button' },
  parentCycle: {
    zh: '上级菜单不能是自己或自己的下级',
    en: 'The parent menu cannot be the menu itself or one under it',
  },
  buttonWithChildren: { zh: '存在下级的菜单不能改为按钮', en: 'A menu with children cannot become a button' },
} as const;

/**
 * A button (category 2) hangs under a menu; nothing hangs under a button; a menu never becomes
 * its own ancestor.
 */
async function checkPlacement({ tx, values, existing }: ChangeArgs): Promise<void> {
  const category = Number(values.category ?? existing?.category ?? MenuCategory.MENU);
  const parentId = String(values.parentId ?? existing?.parentId ?? '0');
  if (category === MenuCategory.BUTTON && parentId === '0') throw badRequest(MenuMessages.buttonNeedsParent);
  const links = await tx
    .select({ id: menu.id, parentId: menu.parentId, category: menu.category })
    .from(menu)
    .where(eq(menu.isDeleted, 0));
  if (parentId !== '0') {
    const parent = links.find((m) => m.id === parentId);
    if (!parent) throw badRequest(MenuMessages.parentMissing);
    if (parent.category === MenuCategory.BUTTON) throw badRequest(MenuMessages.parentIsButton);
  }
  if (!existing) return;
  const id = String(existing.id);
  if (parentId !== '0' && subtreeIds(links, id).has(parentId)) throw badRequest(MenuMessages.parentCycle);
  if (category === MenuCategory.BUTTON && links.some((m) => m.parentId === id))
    throw badRequest(MenuMessages.buttonWithChildren);
}

/** Submit and remove rules of menus; any change may change what roles are shown. */
export function menuHooks(ctx: AppContext): ResourceHooks {
  return {
    beforeChange: checkPlacement,
    afterChange: ({ afterCommit }) => afterCommit(() => ctx.grants.changed()),
    async afterRemove({ tx, rows, afterCommit }) {
      const ids = rows.map((r) => String(r.id));
      await tx.delete(roleMenu).where(inArray(roleMenu.menuId, ids));
      await tx.delete(topMenuSetting).where(inArray(topMenuSetting.menuId, ids));
      afterCommit(() => ctx.grants.changed());
    },
  };
}
