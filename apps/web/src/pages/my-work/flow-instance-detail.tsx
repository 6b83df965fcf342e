import { Card, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { FlowInstanceStatus, type FlowInstanceForm } from '@mes/contracts';
import { useApiRead } from '../../api/use-api';
import { FlowHistory } from './flow-history';
import { FormFallback, FormValuesView } from './flow-form-fields';
import { FlowPaths } from './work-api';

/** `/work/process/form/detail/:processInstanceId`: the request as started, its state and history. */
export default function FlowInstanceDetail() {
  const { t } = useTranslation('work');
  const { processInstanceId = '' } = useParams();
  const query = useApiRead<FlowInstanceForm>(
    FlowPaths.instanceForm,
    { processInstanceId },
    // Others move the process on: a screen opened again reads it afresh.
    { enabled: /^\d{1,19}$/.test(processInstanceId), silent: true, staleTime: 0 },
  );
  const detail = query.data;
  if (!detail) return <FormFallback loading={query.isPending && query.fetchStatus !== 'idle'} error={query.error} />;
  const state =
    detail.flowStatus === FlowInstanceStatus.running ? (
      <Tag color="processing">{t('status.running')}</Tag>
    ) : detail.flowStatus === FlowInstanceStatus.finished ? (
      <Tag color="success">{t('status.finished')}</Tag>
    ) : (
      <Tag>{t('status.deleted')}</Tag>
    );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="flow-instance-detail">
      <Card
        size="small"
        title={`${detail.processDefinitionName} · ${t('form.startUser')}: ${detail.startUserName} · ${detail.startTime ?? ''}`}
        extra={<span data-testid="flow-instance-state">{state}</span>}
      >
        <FormValuesView fields={detail.start.fields} values={detail.start.values} testId="flow-request-view" />
      </Card>
      <FlowHistory processDefinitionId={detail.processDefinitionId} steps={detail.flow} />
    </Space>
  );
}
