import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roleResource, userResource } from '@mes/contracts';
import { resourceRoute } from '../../../api/server-state';
import { settled, useApiWrite } from '../../../api/use-api';
import { ActionDialog } from '../../../engine/action-dialog';
import type { Row } from '../../../engine/resource-page-types';
import { CheckTree } from '../../authority/role/check-tree';
import { idList } from '../../authority/role/tree-data';
import { useTree } from '../../authority/role/use-tree';
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
  const roles = useTree(resourceRoute(roleResource, 'tree'), !!users);
  const grant = useApiWrite(
    ({ userIds, roleIds }: { userIds: string[]; roleIds: string[] }) => grantRoles(userIds, roleIds),
    [userResource.api],
  );
  const [draft, setDraft] = useState<{ of: Row[]; checked: string[] } | null>(null);
  const tree = settled(roles) ?? (roles.isError ? [] : undefined);
  if (users && tree && draft?.of !== users)
    setDraft({ of: users, checked: users.length === 1 ? idList(users[0]?.roleId) : [] });
  const current = draft && draft.of === users && tree ? { tree, checked: draft.checked } : null;
  const setChecked = (checked: string[]) => setDraft((d) => d && { ...d, checked });

  const save = async () => {
    if (!users) return;
    await grant({ userIds: users.map((u) => u.id), roleIds: current?.checked ?? [] });
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
