import { Form, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deptResource, roleResource, userResource } from '@mes/contracts';
import { resourceRoute } from '../../../api/server-state';
import { settled, useApiWrite } from '../../../api/use-api';
import { ActionDialog } from '../../../engine/action-dialog';
import type { Row } from '../../../engine/resource-page-types';
import { CheckTree } from '../../authority/role/check-tree';
import { keyOf, type TreeNode } from '../../authority/role/tree-data';
import { useTree } from '../../authority/role/use-tree';
import { approveGuests } from './user-api';
import '../../../i18n/social-more';

interface AuditDialogProps {
  /** The pending users to approve; the dialog is open while this is set. */
  users: Row[] | null;
  onClose(changed: boolean): void;
}

interface PickerNode {
  value: string;
  title: string;
  children?: PickerNode[];
}

const NO_NODES: TreeNode[] = [];

const toPicker = (nodes: readonly TreeNode[]): PickerNode[] =>
  nodes.map((n) => ({
    value: keyOf(n),
    title: n.title,
    children: n.children?.length ? toPicker(n.children) : undefined,
  }));

/**
 * 审核通过: the roles (and optionally the department) the approved guests get. Without a role
 * picked, the server gives the tenant's default `user` role.
 */
export function AuditDialog({ users, onClose }: AuditDialogProps) {
  const { t } = useTranslation('social');
  const rolesRead = useTree(resourceRoute(roleResource, 'tree'), !!users);
  const deptsRead = useTree(resourceRoute(deptResource, 'tree'), !!users);
  const approve = useApiWrite(
    ({ ids, roleIds, deptId }: { ids: string[]; roleIds: string[]; deptId?: string }) =>
      approveGuests(ids, roleIds, deptId),
    [userResource.api],
  );
  const [draft, setDraft] = useState<{ of: Row[]; roleIds: string[]; deptId?: string } | null>(null);
  const roles = settled(rolesRead) ?? (rolesRead.isError ? NO_NODES : undefined);
  const depts = settled(deptsRead) ?? (deptsRead.isError ? NO_NODES : undefined);
  // Each opening starts with nothing picked.
  if (users && roles && depts && draft?.of !== users) setDraft({ of: users, roleIds: [] });
  const current = draft && draft.of === users && roles && depts ? { ...draft, roles, depts } : null;
  const roleIds = current?.roleIds ?? [];
  const deptId = current?.deptId;
  const setRoleIds = (next: string[]) => setDraft((d) => d && { ...d, roleIds: next });
  const setDeptId = (next: string | undefined) => setDraft((d) => d && { ...d, deptId: next });
  const deptData = useMemo(() => toPicker(depts ?? []), [depts]);

  const save = async () => {
    if (!users) return;
    await approve({ ids: users.map((u) => u.id), roleIds, deptId });
  };

  return (
    <ActionDialog
      open={!!users}
      title={t('auditPass')}
      width={440}
      onSave={save}
      onClose={onClose}
      saveTestId="user-audit-save"
    >
      <Form layout="vertical">
        <Form.Item label={t('auditRoles')} extra={t('auditRolesHint')}>
          <CheckTree
            tree={current?.roles ?? []}
            checked={roleIds}
            onChange={setRoleIds}
            strict
            loading={!current}
            height={260}
            testId="user-audit-roles"
          />
        </Form.Item>
        <Form.Item label={t('auditDept')}>
          <TreeSelect
            allowClear
            treeDefaultExpandAll
            value={deptId}
            onChange={(v: string | undefined) => setDeptId(v)}
            treeData={deptData}
            data-testid="user-audit-dept"
          />
        </Form.Item>
      </Form>
    </ActionDialog>
  );
}
