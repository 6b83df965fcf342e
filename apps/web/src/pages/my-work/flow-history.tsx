import { Alert, Card, Empty, Tag, Timeline, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowHistoryStep } from '@mes/contracts';
import { useApiRead } from '../../api/use-api';
import { FlowPaths } from './work-api';

const BpmnDiagram = lazy(() => import('./bpmn-diagram'));

/** The steps of an instance, oldest first, as a timeline: who, when, how long, what they said. */
export function FlowTimeline({ steps }: { steps: FlowHistoryStep[] }) {
  const { t } = useTranslation('work');
  // Gateways are the engine's routing, not anyone's step: the diagram shows them, the timeline not.
  const shown = steps.filter((s) => !/Gateway$/.test(s.historyActivityType));
  if (!shown.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <Timeline
      data-testid="flow-timeline"
      items={shown.map((step, i) => ({
        key: `${step.historyActivityId}-${step.taskId ?? ''}-${i}`,
        color: step.current ? 'blue' : step.isPass === false ? 'red' : 'green',
        children: (
          <div className="mes-flow-step" data-testid="flow-step" data-current={step.current || undefined}>
            <Typography.Text strong>{step.historyActivityName || step.historyActivityId}</Typography.Text>{' '}
            {step.current ? (
              <Tag color="processing">{t('history.current')}</Tag>
            ) : step.isPass === null ? null : (
              <Tag color={step.isPass ? 'success' : 'error'}>{step.isPass ? t('pass') : t('reject')}</Tag>
            )}
            <div>
              <Typography.Text type="secondary">
                {step.assigneeName || (step.taskId ? '' : t('history.noAssignee'))}
                {' · '}
                {step.createTime}
                {step.endTime && step.endTime !== step.createTime ? ` → ${step.endTime}` : ''}
                {step.historyActivityDurationTime
                  ? ` · ${t('history.duration')} ${step.historyActivityDurationTime}`
                  : ''}
              </Typography.Text>
            </div>
            {step.comment ? <div className="mes-flow-comment">{step.comment}</div> : null}
          </div>
        ),
      }))}
    />
  );
}

/** The definition's diagram with the instance's finished and current elements highlighted. */
function FlowDiagram({ processDefinitionId, steps }: { processDefinitionId: string; steps: FlowHistoryStep[] }) {
  const { t } = useTranslation('work');
  const [failed, setFailed] = useState(false);
  const resource = useApiRead<{ xml: string }>(FlowPaths.resourceView, { processDefinitionId }, { silent: true });
  if (failed || resource.isError) return <Alert type="info" showIcon message={t('history.diagramFailed')} />;
  if (!resource.data) return null;
  const current = steps.filter((s) => s.current).map((s) => s.historyActivityId);
  const done = steps.filter((s) => !s.current).map((s) => s.historyActivityId);
  return (
    <Suspense fallback={<div className="mes-flow-diagram" />}>
      <BpmnDiagram xml={resource.data.xml} done={done} current={current} onError={() => setFailed(true)} />
    </Suspense>
  );
}

/** History beside the diagram (stacked on a narrow screen), as the handle and detail screens show it. */
export function FlowHistory(props: { processDefinitionId: string; steps: FlowHistoryStep[] }) {
  const { t } = useTranslation('work');
  return (
    <div className="mes-leave-grid">
      <Card size="small" title={t('history.title')}>
        <FlowTimeline steps={props.steps} />
      </Card>
      <Card size="small" title={t('history.diagram')}>
        <FlowDiagram {...props} />
      </Card>
    </div>
  );
}
