import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestData } from '../../../api/http';
import { ActionDialog } from '../../../crud/action-dialog';
import type { Row } from '../../../crud/resource-page-types';
import { CheckTree } from '../../authority/role/check-tree';
import { checkedLeaves, fetchTree, idList, withAncestors, type TreeNode } from '../../authority/role/tree-data';

/** `top-tree-keys` answers `{menu: [...]}` (BladeX's checked-tree shape) or a bare list. */
async function fetchTopKeys(topMenuId: string): Promise<string[]> {
  const data = await requestData<{ menu?: unknown } | unknown[] | null>('/blade-system/menu/top-tree-keys', {
    params: { topMenuIds: topMenuId },
  });
  return idList(Array.isArray(data) ? data : data?.menu);
}

const saveTopGrant = (topMenuIds: readonly string[], menuIds: readonly string[]) =>
  requestData<unknown>('/blade-system/topmenu/grant', {
    method: 'POST',
    form: true,
    data: { topMenuIds: topMenuIds.join(','), menuIds: menuIds.join(',') },
  });

interface MenuSettingDialogProps {
  topMenu: Row | null;
  onClose(): void;
}

/** 菜单配置: the side menus a top menu shows; parents of a checked menu go with it. */
export function MenuSettingDialog({ topMenu, onClose }: MenuSettingDialogProps) {
  const { t } = useTranslation('system');
  const [loaded, setLoaded] = useState<{ of: Row; tree: TreeNode[]; checked: string[] } | null>(null);

  useEffect(() => {
    if (!topMenu) return;
    let live = true;
    Promise.all([fetchTree('/blade-system/menu/grant-top-tree'), fetchTopKeys(topMenu.id)])
      .catch((): [TreeNode[], string[]] => [[], []])
      .then(([tree, keys]) => live && setLoaded({ of: topMenu, tree, checked: checkedLeaves(keys, tree) }));
    return () => {
      live = false;
    };
  }, [topMenu]);
  const current = loaded && loaded.of === topMenu ? loaded : null;
  const setChecked = (checked: string[]) => setLoaded((l) => l && { ...l, checked });

  const save = async () => {
    if (!topMenu) return;
    await saveTopGrant([topMenu.id], withAncestors(current?.checked ?? [], current?.tree ?? []));
  };

  return (
    <ActionDialog
      open={!!topMenu}
      title={t('topmenuSetting')}
      onSave={save}
      onClose={() => onClose()}
      saveTestId="topmenu-setting-save"
    >
      <CheckTree
        tree={current?.tree ?? []}
        checked={current?.checked ?? []}
        onChange={setChecked}
        loading={!current}
        testId="topmenu-setting-tree"
      />
    </ActionDialog>
  );
}
