import { App, Button } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../crud/resource-page';
import type { ExtraColumn, FormMode, ResourcePageContext, Row } from '../../../crud/resource-page-types';
import { DeptAside } from './dept-aside';
import { PlatformDialog } from './platform-dialog';
import { RoleGrantDialog } from './role-grant-dialog';
import { resetPasswords, unlockUsers } from './user-api';
import { userBeforeSubmit, userScreenResource } from './user-resource';

const nameColumn = (key: string, title: string, width?: number): ExtraColumn => ({
  key,
  title,
  width,
  render: (row) => String(row[key] ?? ''),
});

/** 用户管理: users by department, with role grant, password reset, platform and unlock. */
export default function UserScreen() {
  const { t } = useTranslation('system');
  const { modal, message } = App.useApp();
  const [deptId, setDeptId] = useState<string>();
  const [granting, setGranting] = useState<Row[] | null>(null);
  const [platformOf, setPlatformOf] = useState<Row | null>(null);
  const [reload, setReload] = useState<() => void>(() => () => undefined);

  /** Runs `action` on the ticked rows, or says that a row must be ticked first. */
  const withSelection = (ctx: ResourcePageContext, action: (rows: Row[]) => void, onlyOne = false) => {
    if (!ctx.selectedRows.length) return void message.warning(t('selectAtLeastOne'));
    if (onlyOne && ctx.selectedRows.length > 1) return void message.warning(t('selectOnlyOne'));
    setReload(() => ctx.reload);
    action(ctx.selectedRows);
  };

  const confirmThen = (ctx: ResourcePageContext, content: string, call: (ids: string[]) => Promise<unknown>) =>
    withSelection(ctx, (rows) =>
      modal.confirm({
        title: t('tip', { ns: 'common' }),
        content,
        okText: t('ok', { ns: 'common' }),
        cancelText: t('cancel', { ns: 'common' }),
        onOk: async () => {
          await call(rows.map((r) => r.id));
          void message.success(t('success'));
          ctx.reload();
        },
      }),
    );

  const toolbar = (ctx: ResourcePageContext) => (
    <>
      {ctx.can('user_role') && (
        <Button onClick={() => withSelection(ctx, setGranting)} data-testid="user-role">
          {t('userRole')}
        </Button>
      )}
      {ctx.can('user_reset') && (
        <Button onClick={() => confirmThen(ctx, t('resetConfirm'), resetPasswords)} data-testid="user-reset">
          {t('userReset')}
        </Button>
      )}
      {ctx.can('user_platform') && (
        <Button
          onClick={() => withSelection(ctx, (rows) => setPlatformOf(rows[0] ?? null), true)}
          data-testid="user-platform"
        >
          {t('userPlatform')}
        </Button>
      )}
      {ctx.can('user_unlock') && (
        <Button onClick={() => confirmThen(ctx, t('unlockConfirm'), unlockUsers)} data-testid="user-unlock">
          {t('userUnlock')}
        </Button>
      )}
    </>
  );

  const extraColumns = useMemo(
    () => [
      nameColumn('tenantName', t('tenantName'), 120),
      nameColumn('roleName', t('roleName'), 160),
      nameColumn('deptName', t('deptName'), 160),
      nameColumn('postName', t('postName'), 160),
    ],
    [t],
  );

  const beforeSubmit = useCallback(
    (values: Record<string, unknown>, mode: FormMode) => userBeforeSubmit(values, mode, t('passwordMismatch')),
    [t],
  );

  const closeDialog = (changed: boolean) => {
    setGranting(null);
    setPlatformOf(null);
    if (changed) reload();
  };

  return (
    <div data-testid="user-screen">
      <ResourcePage
        resource={userScreenResource}
        params={{ deptId }}
        aside={<DeptAside selected={deptId} onSelect={setDeptId} />}
        toolbar={toolbar}
        extraColumns={extraColumns}
        beforeSubmit={beforeSubmit}
      />
      <RoleGrantDialog users={granting} onClose={closeDialog} />
      <PlatformDialog user={platformOf} onClose={closeDialog} />
    </div>
  );
}
