import { Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settled, useApiRead, useApiWrite } from '../../../api/use-api';
import { ActionDialog } from '../../../engine/action-dialog';
import { CheckTree } from './check-tree';
import {
  GRANT_TABS,
  GRANT_TREE_ROUTE,
  grantTreesOf,
  ROLE_KEYS_ROUTE,
  roleKeysOf,
  saveGrant,
  type GrantKeys,
  type GrantTab,
  type GrantTrees,
  type GrantTreesAnswer,
  type RoleKeysAnswer,
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
  const open = !!roleIds;
  const treesRead = useApiRead<GrantTreesAnswer, GrantTrees>(GRANT_TREE_ROUTE, undefined, {
    enabled: open,
    select: grantTreesOf,
  });
  const keysRead = useApiRead<RoleKeysAnswer, GrantKeys>(
    ROLE_KEYS_ROUTE,
    { roleIds: roleIds?.join(',') },
    { enabled: open, select: roleKeysOf },
  );
  const saveRoles = useApiWrite(
    ({ ids, keys }: { ids: readonly string[]; keys: GrantKeys }) => saveGrant(ids, keys),
    [ROLE_KEYS_ROUTE],
  );

  // The draft of checked leaves starts from what the roles hold, once both reads have settled
  // (a failed read leaves that part empty, as the client toasted it).
  const [draft, setDraft] = useState<{ of: string[]; checked: GrantKeys } | null>(null);
  const trees = settled(treesRead) ?? (treesRead.isError ? EMPTY : undefined);
  const keys = settled(keysRead) ?? (keysRead.isError ? NONE : undefined);
  if (roleIds && trees && keys && draft?.of !== roleIds) {
    setDraft({
      of: roleIds,
      checked: {
        menu: checkedLeaves(keys.menu, trees.menu),
        dataScope: checkedLeaves(keys.dataScope, trees.dataScope),
        apiScope: checkedLeaves(keys.apiScope, trees.apiScope),
      },
    });
  }
  const current = draft && draft.of === roleIds && trees ? { trees, checked: draft.checked } : null;
  const shownTrees = current?.trees ?? EMPTY;
  const checked = current?.checked ?? NONE;
  const loading = !current;
  const setChecked = (tab: GrantTab, next: string[]) =>
    setDraft((d) => d && { ...d, checked: { ...d.checked, [tab]: next } });

  const save = async () => {
    if (!roleIds) return;
    const leavesOf = (tab: GrantTab) => {
      const leaves = leafKeys(shownTrees[tab]);
      return checked[tab].filter((k) => leaves.has(k));
    };
    await saveRoles({
      ids: roleIds,
      keys: {
        menu: withAncestors(checked.menu, shownTrees.menu),
        dataScope: leavesOf('dataScope'),
        apiScope: leavesOf('apiScope'),
      },
    });
  };

  return (
    <ActionDialog
      open={open}
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
                tree={shownTrees[tab]}
                checked={checked[tab]}
                loading={loading}
                onChange={(next) => setChecked(tab, next)}
                testId={`role-grant-tree-${tab}`}
              />
            ),
          }))}
        />
      </div>
    </ActionDialog>
  );
}
