import { Form, TreeSelect } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionDialog } from '../../../crud/action-dialog';
import type { Row } from '../../../crud/resource-page-types';
import { CheckTree } from '../../authority/role/check-tree';
import { fetchTree, keyOf, type TreeNode } from '../../authority/role/tree-data';
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
  const [trees, setTrees] = useState<{ of: Row[]; roles: TreeNode[]; depts: TreeNode[] } | null>(null);
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [deptId, setDeptId] = useState<string>();

  useEffect(() => {
    if (!users) return;
    let live = true;
    void Promise.all([
      fetchTree('/blade-system/role/tree').catch(() => []),
      fetchTree('/blade-system/dept/tree').catch(() => []),
    ]).then(([roles, depts]) => {
      if (!live) return;
      setTrees({ of: users, roles, depts });
      setRoleIds([]);
      setDeptId(undefined);
    });
    return () => {
      live = false;
    };
  }, [users]);
  const current = trees && trees.of === users ? trees : null;
  const deptData = useMemo(() => toPicker(current?.depts ?? []), [current]);

  const save = async () => {
    if (!users) return;
    await approveGuests(
      users.map((u) => u.id),
      roleIds,
      deptId,
    );
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
