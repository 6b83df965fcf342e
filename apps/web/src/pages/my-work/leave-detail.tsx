import { Space } from 'antd';
import { useParams } from 'react-router';
import { FlowHistory } from './flow-history';
import { LeaveCard, LeaveFallback, useLeave } from './leave-view';

/** `/work/process/leave/detail/:processInstanceId/:businessId`: the leave read-only and its history. */
export default function LeaveDetail() {
  const { businessId = '' } = useParams();
  const query = useLeave(businessId);
  const leave = query.data;
  if (!leave) return <LeaveFallback loading={query.isPending && query.fetchStatus !== 'idle'} error={query.error} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="leave-detail">
      <LeaveCard leave={leave} />
      <FlowHistory processDefinitionId={leave.processDefinitionId} steps={leave.flow} />
    </Space>
  );
}
