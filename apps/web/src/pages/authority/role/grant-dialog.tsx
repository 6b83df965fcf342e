import { Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionDialog } from '../../../crud/action-dialog';
import { CheckTree } from './check-tree';
import {
  fetchGrantTrees,
  fetchRoleKeys,
  GRANT_TABS,
  saveGrant,
  type GrantKeys,
  type GrantTab,
  type GrantTrees,
} from './grant-api';
import { checkedLeaves, leafKeys, withAncestors } from './tree-data';

interface GrantDialogProps {
  /** The roles to grant; the dialog is open while this is set. */
  roleIds: string[] | null;
  onClose(): void;
}

const EMPTY: GrantTrees = { menu: [], dataScope: [], apiScope: [] };
const NONE: GrantKeys = { menu: [], dataScope: [], apiScope: [] };

const TAB_LABEL: Record<GrantTab, 'menuGrant' | 'dataScopeGrant' | 'apiScopeGrant'> = {
  menu: 'menuGrant',
  dataScope: 'dataScopeGrant',
  apiScope: 'apiScopeGrant',
};

/**
 * 权限设置: one dialog, three cascading trees. Checked state is kept as leaves only; on save the
 * menus go with their (half-)checked parents, as a menu is visible only through its parents,
 * while the scope trees send only their leaves — the menus above them are just grouping.
 */
export function GrantDialog({ roleIds, onClose }: GrantDialogProps) {
  const { t } = useTranslation('system');
  const [loaded, setLoaded] = useState<{ of: string[]; trees: GrantTrees; checked: GrantKeys } | null>(null);

  useEffect(() => {
    if (!roleIds) return;
    let live = true;
    Promise.all([fetchGrantTrees(), fetchRoleKeys(roleIds)])
      .catch((): [GrantTrees, GrantKeys] => [EMPTY, NONE])
      .then(([trees, keys]) => {
        if (!live) return;
        setLoaded({
          of: roleIds,
          trees,
          checked: {
            menu: checkedLeaves(keys.menu, trees.menu),
            dataScope: checkedLeaves(keys.dataScope, trees.dataScope),
            apiScope: checkedLeaves(keys.apiScope, trees.apiScope),
          },
        });
      });
    return () => {
      live = false;
    };
  }, [roleIds]);
  const current = loaded && loaded.of === roleIds ? loaded : null;
  const trees = current?.trees ?? EMPTY;
  const checked = current?.checked ?? NONE;
  const loading = !current;
  const setChecked = (tab: GrantTab, keys: string[]) =>
    setLoaded((l) => l && { ...l, checked: { ...l.checked, [tab]: keys } });

  const save = async () => {
    if (!roleIds) return;
    const leavesOf = (tab: GrantTab) => {
      const leaves = leafKeys(trees[tab]);
      return checked[tab].filter((k) => leaves.has(k));
    };
    await saveGrant(roleIds, {
      menu: withAncestors(checked.menu, trees.menu),
      dataScope: leavesOf('dataScope'),
      apiScope: leavesOf('apiScope'),
    });
  };

  return (
    <ActionDialog
      open={!!roleIds}
      title={t('roleSetting')}
      width={560}
      onSave={save}
      onClose={() => onClose()}
      saveTestId="role-grant-save"
      saveDisabled={loading}
    >
      <div data-testid="role-grant-dialog">
        <Tabs
          items={GRANT_TABS.map((tab) => ({
            key: tab,
            label: <span data-testid={`role-grant-tab-${tab}`}>{t(TAB_LABEL[tab])}</span>,
            children: (
              <CheckTree
                tree={trees[tab]}
                checked={checked[tab]}
                loading={loading}
                onChange={(keys) => setChecked(tab, keys)}
                testId={`role-grant-tree-${tab}`}
              />
            ),
          }))}
        />
      </div>
    </ActionDialog>
  );
}
