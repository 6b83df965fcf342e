import { App, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestData } from '../../../api/http';
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
  const { message } = App.useApp();
  const [loaded, setLoaded] = useState<{ of: Row; tree: TreeNode[]; checked: string[] } | null>(null);
  const [saving, setSaving] = useState(false);

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
    setSaving(true);
    try {
      await saveTopGrant([topMenu.id], withAncestors(current?.checked ?? [], current?.tree ?? []));
      void message.success(t('success'));
      onClose();
    } catch {
      // the HTTP client has shown the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={!!topMenu}
      title={t('topmenuSetting')}
      width={480}
      destroyOnHidden
      confirmLoading={saving}
      okText={t('ok', { ns: 'common' })}
      cancelText={t('cancel', { ns: 'common' })}
      onOk={() => void save()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'topmenu-setting-save' } as Record<string, string>}
    >
      <CheckTree
        tree={current?.tree ?? []}
        checked={current?.checked ?? []}
        onChange={setChecked}
        loading={!current}
        testId="topmenu-setting-tree"
      />
    </Modal>
  );
}
