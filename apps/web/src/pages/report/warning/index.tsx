import { CheckCircleOutlined } from '@ant-design/icons';
import { App, Button, DatePicker, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { buttonCodes, warningResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { HandleDialog } from './handle-dialog';
import { isUnhandled, LevelTag, StatusTag } from './warning-tags';

const HANDLE = buttonCodes.warning.handle;
const RANGE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** The start time is searched as a range (below), not the generic single day. */
const fieldOverrides = { startTime: { search: false } };
type Range = [Dayjs | null, Dayjs | null] | null;
export const warningPath = (id: string) => `/report/warning/${id}`;

/**
 * 告警信息: the warnings of the devices the caller may see, filtered by level, status, device,
 * department and start time (the definition's search fields), handled one by one or in a batch.
 */
export default function WarningScreen() {
  const { t } = useTranslation('warning');
  const { message } = App.useApp();
  const [handling, setHandling] = useState<string[]>([]);
  const reloadRef = useRef<() => void>(() => undefined);
  const [range, setRange] = useState<Range>(null);
  const params = useMemo(
    () => ({
      startTime_dategt: range?.[0]?.format(RANGE_FORMAT),
      startTime_datelt: range?.[1]?.format(RANGE_FORMAT),
    }),
    [range],
  );

  const toolbar = useCallback(
    (ctx: ResourcePageContext) => {
      reloadRef.current = ctx.reload;
      if (!ctx.can(HANDLE)) return null;
      const open = () => {
        const ids = ctx.selectedRows.filter((r) => isUnhandled(r.status)).map((r) => r.id);
        if (!ids.length) void message.warning(t('noneUnhandled'));
        else setHandling(ids);
      };
      return (
        <Button icon={<CheckCircleOutlined />} onClick={open} data-testid="warning-batch-handle">
          {t('batchHandle')}
        </Button>
      );
    },
    [message, t],
  );
  const navigate = useNavigate();
  // The row's one view action (查看) opens the warning's page (fields, curve, 处理), not a dialog.
  const onView = useCallback((row: Row) => void navigate(warningPath(row.id)), [navigate]);
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      ctx.can(HANDLE) && isUnhandled(row.status) ? (
        <Button type="link" size="small" onClick={() => setHandling([row.id])} data-testid="warning-row-handle">
          {t('handle')}
        </Button>
      ) : null,
    [t],
  );
  const render = useMemo(
    () => ({
      level: (value: unknown, row: Row) => <LevelTag value={value} label={row.levelName} />,
      status: (value: unknown, row: Row) => <StatusTag value={value} label={row.statusName} />,
      warningNo: (value: unknown, row: Row) => (
        <Link to={warningPath(row.id)} data-testid="warning-no-link">
          {String(value ?? '')}
        </Link>
      ),
    }),
    [],
  );

  return (
    <>
      <Space wrap className="mes-warning-range" style={{ paddingBottom: 8 }}>
        <Typography.Text>{t('startRange')}:</Typography.Text>
        <DatePicker.RangePicker
          showTime
          format={RANGE_FORMAT}
          value={range}
          onChange={(value) => setRange(value)}
          allowEmpty={[true, true]}
          style={{ maxWidth: '100%' }}
          data-testid="warning-start-range"
        />
      </Space>
      <ResourcePage
        resource={warningResource}
        params={params}
        fieldOverrides={fieldOverrides}
        toolbar={toolbar}
        rowActions={rowActions}
        onView={onView}
        render={render}
      />
      <HandleDialog
        ids={handling}
        onClose={(changed) => {
          setHandling([]);
          if (changed) reloadRef.current();
        }}
      />
    </>
  );
}
