import { Alert, Button, Card, Form, message } from 'antd';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formValuesProblem, LEAVE_PROCESS_KEY, type FlowStartForm } from '@mes/contracts';
import { apiPost } from '../../api/server-state';
import { useApiRead } from '../../api/use-api';
import { draftValues, FormFallback, FormFields, initialDraft } from './flow-form-fields';
import { FlowPaths, useWorkWrite } from './work-api';

/**
 * `/work/process/form/start/:processDefinitionId`: the start form a model declares
 * (docs/workflow.md, "Forms"), sent to `work/start-process` as the instance's variables.
 */
export default function FlowStartFormPage() {
  const { t, i18n } = useTranslation('work');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { processDefinitionId = '' } = useParams();
  const navigate = useNavigate();
  const [form] = Form.useForm<Record<string, unknown>>();
  const query = useApiRead<FlowStartForm>(
    FlowPaths.startForm,
    { processDefinitionId },
    { enabled: /^\d{1,19}$/.test(processDefinitionId), silent: true },
  );
  const submit = useWorkWrite((variables: Record<string, unknown>) =>
    apiPost<{ processInstanceId: string }>(FlowPaths.workStart, { processDefinitionId, variables }),
  );
  const def = query.data;
  if (!def) return <FormFallback loading={query.isPending && query.fetchStatus !== 'idle'} error={query.error} />;
  if (def.formKey === LEAVE_PROCESS_KEY)
    return <Navigate to={`/work/process/leave/form/${def.processDefinitionId}`} replace />;
  const onFinish = (draft: Record<string, unknown>) => {
    const variables = draftValues(def.fields, draft);
    const checked = formValuesProblem(def.fields, variables);
    if ('problem' in checked) {
      void message.error(checked.problem[lang]);
      return;
    }
    submit.mutate(variables, {
      onSuccess: (r) => {
        void message.success(t('form.submitted'));
        void navigate(`/work/process/form/detail/${r.processInstanceId}`);
      },
    });
  };
  return (
    <Card size="small" title={`${t('form.startTab')} · ${def.name}`} data-testid="flow-start-form">
      <Form
        form={form}
        layout="vertical"
        className="mes-flow-form"
        initialValues={initialDraft(def.fields)}
        onFinish={onFinish}
      >
        {def.fields.length ? (
          <FormFields fields={def.fields} />
        ) : (
          <Alert type="info" showIcon message={t('form.noFields')} style={{ marginBottom: 16 }} />
        )}
        <Button type="primary" htmlType="submit" loading={submit.isPending} data-testid="flow-start-submit">
          {t('form.submit')}
        </Button>
      </Form>
    </Card>
  );
}
