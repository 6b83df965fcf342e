import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionDialog } from '../../../crud/action-dialog';
import type { Row } from '../../../crud/resource-page-types';
import { CheckTree } from '../../authority/role/check-tree';
import { fetchTree, idList, type TreeNode } from '../../authority/role/tree-data';
import { grantRoles } from './user-api';

interface RoleGrantDialogProps {
  /** The users to grant; the dialog is open while this is set. */
  users: Row[] | null;
  onClose(changed: boolean): void;
}

/**
 * 角色配置: the roles of the selected users. Roles are checked one by one (a parent role does not
 * imply its children); with one user, its current roles start checked.
 */
export function RoleGrantDialog({ users, onClose }: RoleGrantDialogProps) {
  const { t } = useTranslation('system');
  const [loaded, setLoaded] = useState<{ of: Row[]; tree: TreeNode[]; checked: string[] } | null>(null);

  useEffect(() => {
    if (!users) return;
    let live = true;
    const checked = users.length === 1 ? idList(users[0]?.roleId) : [];
    void fetchTree('/blade-system/role/tree')
      .catch(() => [])
      .then((tree) => live && setLoaded({ of: users, tree, checked }));
    return () => {
      live = false;
    };
  }, [users]);
  const current = loaded && loaded.of === users ? loaded : null;
  const setChecked = (checked: string[]) => setLoaded((l) => l && { ...l, checked });

  const save = async () => {
    if (!users) return;
    await grantRoles(
      users.map((u) => u.id),
      current?.checked ?? [],
    );
  };

  return (
    <ActionDialog
      open={!!users}
      title={t('userRole')}
      width={400}
      onSave={save}
      onClose={onClose}
      saveTestId="user-role-save"
    >
      <CheckTree
        tree={current?.tree ?? []}
        checked={current?.checked ?? []}
        onChange={setChecked}
        strict
        loading={!current}
        testId="user-role-tree"
      />
    </ActionDialog>
  );
}
