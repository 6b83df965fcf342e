import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenFallback } from './screen-fallback';
import type { FlowHistoryStep } from '@mes/contracts';
import { useApiRead } from '../../api/use-api';
import { optionQuery } from '../../engine/use-field-options';
import { FlowPaths, type LeaveView } from './work-api';

export type LeaveAnswer = LeaveView & { flow: FlowHistoryStep[] };

/** The leave and its history (`leave/detail`), for the handle and detail screens. */
export function useLeave(businessId: string) {
  return useApiRead<LeaveAnswer>(
    FlowPaths.leaveDetail,
    { businessId },
    // Others move the process on (a rejection, an approval): a screen opened again reads it afresh.
    { enabled: /^\d{1,19}$/.test(businessId), silent: true, staleTime: 0 },
  );
}

/** The leave types in the interface language (system dictionary `leave_type`). */
export function useLeaveTypes() {
  const { i18n } = useTranslation();
  const query = optionQuery({ dict: 'leave_type' }, i18n.language === 'en' ? 'en' : 'zh');
  return useQuery({ ...query!, enabled: query !== undefined }).data ?? [];
}

/** The leave read-only, with its state. */
export function LeaveCard({ leave, extra }: { leave: LeaveView; extra?: ReactNode }) {
  const { t } = useTranslation('work');
  const types = useLeaveTypes();
  const type = types.find((o) => o.value === String(leave.leaveType))?.label ?? String(leave.leaveType);
  return (
    <Card
      size="small"
      title={t('leave.detailTab')}
      extra={
        leave.processIsFinished ? (
          <Tag color="success">{t('leave.finished')}</Tag>
        ) : (
          <Tag color="processing">{t('leave.running')}</Tag>
        )
      }
    >
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered data-testid="leave-view">
        <Descriptions.Item label={t('leave.applyUser')}>{leave.applyUserName}</Descriptions.Item>
        <Descriptions.Item label={t('leave.applyTime')}>{leave.applyTime}</Descriptions.Item>
        <Descriptions.Item label={t('leave.startTime')}>{leave.startTime}</Descriptions.Item>
        <Descriptions.Item label={t('leave.endTime')}>{leave.endTime}</Descriptions.Item>
        <Descriptions.Item label={t('leave.leaveType')}>{type}</Descriptions.Item>
        <Descriptions.Item label={t('leave.days')}>{leave.days}</Descriptions.Item>
        <Descriptions.Item label={t('leave.taskUser')}>{leave.taskUserName}</Descriptions.Item>
        <Descriptions.Item label={t('leave.reason')} span={2}>
          <span data-testid="leave-reason">{leave.reason}</span>
        </Descriptions.Item>
      </Descriptions>
      {extra}
    </Card>
  );
}

/** What a screen of this kind shows while it loads, or when it cannot be read. */
export function LeaveFallback(props: { loading: boolean; error: unknown }) {
  return <ScreenFallback {...props} notFound="leave.notFound" testId="leave-not-found" />;
}
