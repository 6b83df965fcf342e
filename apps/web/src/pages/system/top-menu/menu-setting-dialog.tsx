import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { menuResource, topMenuResource } from '@mes/contracts';
import { apiPost, resourceRoute } from '../../../api/server-state';
import { settled, useApiRead, useApiWrite } from '../../../api/use-api';
import { ActionDialog } from '../../../engine/action-dialog';
import type { Row } from '../../../engine/resource-page-types';
import { CheckTree } from '../../authority/role/check-tree';
import { checkedLeaves, idList, withAncestors } from '../../authority/role/tree-data';
import { useTree } from '../../authority/role/use-tree';

const TOP_KEYS_ROUTE = resourceRoute(menuResource, 'top-tree-keys');

/** `top-tree-keys` answers `{menu: [...]}` (BladeX's checked-tree shape) or a bare list. */
type TopKeysAnswer = { menu?: unknown } | unknown[] | null;
const topKeysOf = (data: TopKeysAnswer) => idList(Array.isArray(data) ? data : data?.menu);

const saveTopGrant = ({ topMenuIds, menuIds }: { topMenuIds: readonly string[]; menuIds: readonly string[] }) =>
  apiPost(
    resourceRoute(topMenuResource, 'grant'),
    { topMenuIds: topMenuIds.join(','), menuIds: menuIds.join(',') },
    { form: true },
  );

interface MenuSettingDialogProps {
  topMenu: Row | null;
  onClose(): void;
}

/** 菜单配置: the side menus a top menu shows; parents of a checked menu go with it. */
export function MenuSettingDialog({ topMenu, onClose }: MenuSettingDialogProps) {
  const { t } = useTranslation('system');
  const treeRead = useTree(resourceRoute(menuResource, 'grant-top-tree'), !!topMenu);
  const keysRead = useApiRead(TOP_KEYS_ROUTE, { topMenuIds: topMenu?.id }, { enabled: !!topMenu, select: topKeysOf });
  const save = useApiWrite(saveTopGrant, [TOP_KEYS_ROUTE]);

  // The draft starts from what the top menu shows now, once both reads have settled.
  const [draft, setDraft] = useState<{ of: Row; checked: string[] } | null>(null);
  const tree = settled(treeRead) ?? (treeRead.isError ? [] : undefined);
  const keys = settled(keysRead) ?? (keysRead.isError ? [] : undefined);
  if (topMenu && tree && keys && draft?.of !== topMenu) setDraft({ of: topMenu, checked: checkedLeaves(keys, tree) });
  const current = draft && draft.of === topMenu && tree ? { tree, checked: draft.checked } : null;
  const setChecked = (checked: string[]) => setDraft((d) => d && { ...d, checked });

  return (
    <ActionDialog
      open={!!topMenu}
      title={t('topmenuSetting')}
      onSave={async () => {
        if (!topMenu) return;
        await save({ topMenuIds: [topMenu.id], menuIds: withAncestors(current?.checked ?? [], current?.tree ?? []) });
      }}
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
