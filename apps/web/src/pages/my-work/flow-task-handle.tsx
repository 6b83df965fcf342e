import { Alert, Button, Card, Form, Input, Space, message } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { formValuesProblem, type FlowCompleteBody, type FlowTaskForm } from '@mes/contracts';
import { apiPost } from '../../api/server-state';
import { useApiRead } from '../../api/use-api';
import { useTabs } from '../../shell/tabs/tabs-store';
import { FlowHistory } from './flow-history';
import { draftValues, FormFallback, FormFields, FormValuesView, initialDraft } from './flow-form-fields';
import { FlowPaths, useWorkWrite } from './work-api';

/**
 * `/work/process/form/handle/:taskId/:processInstanceId`: the request as started (read-only),
 * the task's own fields, a comment and the decision (docs/workflow.md, "Forms").
 */
export default function FlowTaskHandle() {
  const { t, i18n } = useTranslation('work');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { taskId = '' } = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [own] = useState(pathname);
  const [form] = Form.useForm<Record<string, unknown>>();
  const [comment, setComment] = useState('');
  const query = useApiRead<FlowTaskForm>(
    FlowPaths.taskForm,
    { taskId },
    { enabled: /^\d{1,19}$/.test(taskId), silent: true, staleTime: 0 },
  );
  const complete = useWorkWrite((body: FlowCompleteBody) =>
    apiPost<{ finished: boolean }>(FlowPaths.workComplete, body),
  );
  const task = query.data;
  if (!task) return <FormFallback loading={query.isPending && query.fetchStatus !== 'idle'} error={query.error} />;
  const decide = async (pass: boolean) => {
    if (!pass && !comment.trim()) {
      void message.warning(t('leave.rejectNeedsComment'));
      return;
    }
    // Passing needs the required fields; a rejection sends the request back as it is.
    if (pass) {
      try {
        await form.validateFields();
      } catch {
        return;
      }
    }
    const variables = draftValues(task.fields, form.getFieldsValue());
    const checked = formValuesProblem(task.fields, variables, pass);
    if ('problem' in checked) {
      void message.error(checked.problem[lang]);
      return;
    }
    complete.mutate(
      { taskId, pass, comment: comment.trim(), variables: checked.values },
      {
        onSuccess: () => {
          void message.success(t('leave.done'));
          useTabs.getState().close(own, own);
          void navigate('/work/work_todo');
        },
      },
    );
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="flow-task-handle">
      <Card size="small" title={`${task.processDefinitionName} · ${task.taskName}`}>
        <Card type="inner" size="small" title={`${t('form.request')} · ${t('form.startUser')}: ${task.startUserName}`}>
          <FormValuesView fields={task.start.fields} values={task.start.values} testId="flow-request-view" />
        </Card>
        {task.open ? (
          <Form
            form={form}
            layout="vertical"
            className="mes-flow-form"
            initialValues={initialDraft(task.fields, task.values)}
            style={{ marginTop: 16 }}
          >
            {task.fields.length ? <FormFields fields={task.fields} /> : null}
            <Form.Item label={t('leave.comment')}>
              <Input.TextArea
                rows={3}
                maxLength={1000}
                value={comment}
                placeholder={t('leave.commentPlaceholder')}
                onChange={(e) => setComment(e.target.value)}
                data-testid="flow-comment"
              />
            </Form.Item>
            <Space wrap>
              <Button
                type="primary"
                loading={complete.isPending}
                onClick={() => void decide(true)}
                data-testid="flow-pass"
              >
                {t('leave.approve')}
              </Button>
              <Button danger loading={complete.isPending} onClick={() => void decide(false)} data-testid="flow-reject">
                {t('leave.rejectAction')}
              </Button>
            </Space>
          </Form>
        ) : (
          <Alert style={{ marginTop: 16 }} type="info" showIcon message={t('leave.done')} data-testid="flow-handled" />
        )}
      </Card>
      <FlowHistory processDefinitionId={task.processDefinitionId} steps={task.flow} />
    </Space>
  );
}
