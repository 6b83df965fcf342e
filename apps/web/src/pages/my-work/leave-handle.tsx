import { Alert, Button, Input, Space, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { FlowCompleteBody } from '@mes/contracts';
import { apiPost } from '../../api/server-state';
import { useTabs } from '../../shell/tabs/tabs-store';
import { FlowHistory } from './flow-history';
import { LeaveCard, LeaveFallback, useLeave } from './leave-view';
import { FlowPaths, useWorkWrite } from './work-api';

/** The applicant's own step after a rejection (the seeded process's `adjust` task). */
const ADJUST_STEP = 'adjust';

/**
 * `/work/process/leave/handle/:taskId/:processInstanceId/:businessId`: the leave read-only, a
 * comment and the decision. An approver approves or rejects; the applicant, after a rejection,
 * resubmits (the same leave goes back to the approver) or withdraws it.
 */
export default function LeaveHandle() {
  const { t } = useTranslation('work');
  const { taskId = '', businessId = '' } = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [own] = useState(pathname);
  const query = useLeave(businessId);
  const [comment, setComment] = useState('');
  const complete = useWorkWrite((body: FlowCompleteBody) =>
    apiPost<{ finished: boolean }>(FlowPaths.workComplete, body),
  );
  const leave = query.data;
  if (!leave) return <LeaveFallback loading={query.isPending && query.fetchStatus !== 'idle'} error={query.error} />;
  const step = leave.flow.find((s) => s.current && s.taskId === taskId);
  const adjusting = step?.historyActivityId === ADJUST_STEP;
  const decide = (pass: boolean) => {
    if (!pass && !adjusting && !comment.trim()) {
      void message.warning(t('leave.rejectNeedsComment'));
      return;
    }
    complete.mutate(
      { taskId, pass, comment: comment.trim() },
      {
        onSuccess: () => {
          void message.success(t('leave.done'));
          // The task is done: its tab has nothing left to do, the to-do list is where work goes on.
          useTabs.getState().close(own, own);
          void navigate('/work/work_todo');
        },
      },
    );
  };
  const actions =
    query.isFetching && !step ? null : step ? (
      <Space direction="vertical" style={{ width: '100%', marginTop: 16 }}>
        <Input.TextArea
          rows={3}
          maxLength={1000}
          value={comment}
          placeholder={t('leave.commentPlaceholder')}
          onChange={(e) => setComment(e.target.value)}
          aria-label={t('leave.comment')}
          data-testid="leave-comment"
        />
        <Space wrap>
          <Button type="primary" loading={complete.isPending} onClick={() => decide(true)} data-testid="leave-pass">
            {adjusting ? t('leave.resubmit') : t('leave.approve')}
          </Button>
          <Button danger loading={complete.isPending} onClick={() => decide(false)} data-testid="leave-reject">
            {adjusting ? t('leave.withdraw') : t('leave.rejectAction')}
          </Button>
        </Space>
      </Space>
    ) : (
      <Alert style={{ marginTop: 16 }} type="info" showIcon message={t('leave.done')} data-testid="leave-handled" />
    );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="leave-handle">
      <LeaveCard leave={leave} extra={actions} />
      <FlowHistory processDefinitionId={leave.processDefinitionId} steps={leave.flow} />
    </Space>
  );
}
