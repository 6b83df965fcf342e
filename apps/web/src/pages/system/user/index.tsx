import { App, Button, Tag } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResourcePage } from '../../../engine/resource-page';
import type { ExtraColumn, FormMode, ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { buttonCodes, userResource, UserStatus } from '@mes/contracts';
import { useApiWrite } from '../../../api/use-api';
import { AuditDialog } from './audit-dialog';
import { DeptAside } from './dept-aside';
import { PlatformDialog } from './platform-dialog';
import { RoleGrantDialog } from './role-grant-dialog';
import { refuseGuests, resetPasswords, unlockUsers } from './user-api';
import { userBeforeSubmit, userScreenResource } from './user-resource';
import '../../../i18n/social-more';

const nameColumn = (key: string, title: string, width?: number): ExtraColumn => ({
  key,
  title,
  width,
  render: (row) => String(row[key] ?? ''),
});

const isPending = (row: Row) => Number(row.status) === UserStatus.pending;

/**
 * 用户管理: users by department, with role grant, password reset, platform, unlock, and the
 * approval of guest registrations (待审核 users: 审核通过 / 审核拒绝, and a pending-only filter).
 */
export default function UserScreen() {
  const { t } = useTranslation('system');
  const { t: ts } = useTranslation('social');
  const { modal, message } = App.useApp();
  const [deptId, setDeptId] = useState<string>();
  const [onlyPending, setOnlyPending] = useState(false);
  const [granting, setGranting] = useState<Row[] | null>(null);
  const [approving, setApproving] = useState<Row[] | null>(null);
  const [platformOf, setPlatformOf] = useState<Row | null>(null);
  // Each write reloads every read of the users (this list, other tabs showing users).
  const resetRows = useApiWrite(resetPasswords, [userResource.api]);
  const unlockRows = useApiWrite(unlockUsers, [userResource.api]);
  const refuseRows = useApiWrite(refuseGuests, [userResource.api]);

  /** Runs `action` on the ticked rows, or says that a row must be ticked first. */
  const withSelection = (ctx: ResourcePageContext, action: (rows: Row[]) => void, onlyOne = false) => {
    if (!ctx.selectedRows.length) return void message.warning(t('selectAtLeastOne'));
    if (onlyOne && ctx.selectedRows.length > 1) return void message.warning(t('selectOnlyOne'));
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
        },
      }),
    );

  /** Approval acts on pending users only: say so rather than send a call the server refuses. */
  const withPending = (ctx: ResourcePageContext, action: (rows: Row[]) => void) =>
    withSelection(ctx, (rows) => {
      if (!rows.every(isPending)) return void message.warning(ts('auditOnlyPending'));
      action(rows);
    });

  const toolbar = (ctx: ResourcePageContext) => (
    <>
      {ctx.can(buttonCodes.user.role) && (
        <Button onClick={() => withSelection(ctx, setGranting)} data-testid="user-role">
          {t('userRole')}
        </Button>
      )}
      {ctx.can(buttonCodes.user.reset) && (
        <Button onClick={() => confirmThen(ctx, t('resetConfirm'), resetRows)} data-testid="user-reset">
          {t('userReset')}
        </Button>
      )}
      {ctx.can(buttonCodes.user.platform) && (
        <Button
          onClick={() => withSelection(ctx, (rows) => setPlatformOf(rows[0] ?? null), true)}
          data-testid="user-platform"
        >
          {t('userPlatform')}
        </Button>
      )}
      {ctx.can(buttonCodes.user.unlock) && (
        <Button onClick={() => confirmThen(ctx, t('unlockConfirm'), unlockRows)} data-testid="user-unlock">
          {t('userUnlock')}
        </Button>
      )}
      {ctx.can(buttonCodes.user.audit) && (
        <>
          <Button onClick={() => withPending(ctx, setApproving)} data-testid="user-audit-pass">
            {ts('auditPass')}
          </Button>
          <Button
            danger
            onClick={() => withPending(ctx, () => confirmThen(ctx, ts('auditRefuseConfirm'), refuseRows))}
            data-testid="user-audit-refuse"
          >
            {ts('auditRefuse')}
          </Button>
          <Button
            type={onlyPending ? 'primary' : 'default'}
            onClick={() => setOnlyPending((v) => !v)}
            data-testid="user-only-pending"
          >
            {ts('onlyPending')}
          </Button>
        </>
      )}
    </>
  );

  const extraColumns = useMemo(
    (): ExtraColumn[] => [
      {
        key: 'status',
        title: ts('statusColumn'),
        width: 90,
        render: (row) =>
          isPending(row) ? (
            <Tag color="orange" data-testid="user-status-pending">
              {ts('statusPending')}
            </Tag>
          ) : Number(row.status) === UserStatus.active ? (
            <Tag color="green">{ts('statusActive')}</Tag>
          ) : (
            <Tag>{ts('statusDisabled')}</Tag>
          ),
      },
      nameColumn('tenantName', t('tenantName'), 120),
      nameColumn('roleName', t('roleName'), 160),
      nameColumn('deptName', t('deptName'), 160),
      nameColumn('postName', t('postName'), 160),
    ],
    [t, ts],
  );

  // A pending account is flagged where the eye lands first, not only in the status column.
  const render = useMemo(
    () => ({
      account: (value: unknown, row: Row) => (
        <>
          {String(value ?? '')}
          {isPending(row) && (
            <Tag color="orange" style={{ marginLeft: 8 }}>
              {ts('statusPending')}
            </Tag>
          )}
        </>
      ),
    }),
    [ts],
  );

  const beforeSubmit = useCallback(
    (values: Record<string, unknown>, mode: FormMode) => userBeforeSubmit(values, mode, t('passwordMismatch')),
    [t],
  );

  // The dialogs' writes invalidate the users themselves; closing only hides them.
  const closeDialog = () => {
    setGranting(null);
    setPlatformOf(null);
    setApproving(null);
  };

  return (
    <div data-testid="user-screen">
      <ResourcePage
        resource={userScreenResource}
        params={{ deptId, status: onlyPending ? String(UserStatus.pending) : undefined }}
        aside={<DeptAside selected={deptId} onSelect={setDeptId} />}
        toolbar={toolbar}
        extraColumns={extraColumns}
        render={render}
        beforeSubmit={beforeSubmit}
      />
      <RoleGrantDialog users={granting} onClose={closeDialog} />
      <PlatformDialog user={platformOf} onClose={closeDialog} />
      <AuditDialog users={approving} onClose={closeDialog} />
    </div>
  );
}
