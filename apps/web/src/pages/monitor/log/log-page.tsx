import { Tag } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_TENANT_ID, type ResourceDef } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ExtraColumn, ResourcePageProps, Row } from '../../../engine/resource-page-types';
import { useSession } from '../../../session/session-store';
import { LogDetailDrawer } from './log-detail-drawer';

const statusTag = (value: unknown) =>
  typeof value === 'number' ? <Tag color={value >= 400 ? 'red' : 'green'}>{value}</Tag> : String(value ?? '');

export interface LogPageProps {
  resource: ResourceDef;
  /** Cell renderers beyond the defaults (HTTP status, sign-in result). */
  render?: ResourcePageProps['render'];
}

/**
 * A read-only log screen: search by time range and the log's declared filters, the list, and a
 * detail drawer. The platform's users also see which tenant each row belongs to.
 */
export function LogPage({ resource, render }: LogPageProps) {
  const { t } = useTranslation('log');
  const tenantId = useSession((s) => s.userInfo.tenant_id ?? s.userInfo.tenantId);
  const platform = tenantId === DEFAULT_TENANT_ID;
  const [shown, setShown] = useState<Row | undefined>();
  const close = useCallback(() => setShown(undefined), []);
  const extraColumns = useMemo<ExtraColumn[]>(
    () =>
      platform ? [{ key: 'tenantId', title: t('tenant'), width: 90, render: (row) => String(row.tenantId ?? '') }] : [],
    [platform, t],
  );
  const renderers = useMemo(() => ({ status: statusTag, ...render }), [render]);

  return (
    <div data-testid={`log-screen-${resource.code}`}>
      <ResourcePage resource={resource} onView={setShown} extraColumns={extraColumns} render={renderers} />
      <LogDetailDrawer resource={resource} row={shown} showTenant={platform} onClose={close} />
    </div>
  );
}
