import { Alert, Form } from 'antd';
import { useState } from 'react';
import { FlowPaths } from '@mes/contracts';
import { apiPost } from '../../../api/server-state';
import { ActionDialog } from '../../../engine/action-dialog';
import { DeployFields, deployParams, useLang, type DeployValues } from '../bpmn/deploy-fields';
import { modelProblems } from '../bpmn/problems';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('deployDialog');

/** 部署: a new version of the model's process under a category, for the chosen tenants. */
export function DeployDialog({
  model,
  onClose,
}: {
  model: { id: string; name: string };
  onClose(changed: boolean): void;
}) {
  const text = TEXT[useLang()];
  const [form] = Form.useForm<DeployValues>();
  const [error, setError] = useState<string | null>(null);
  const problems = error === null ? null : modelProblems(error);

  const save = async () => {
    const values = await form.validateFields();
    setError(null);
    try {
      await apiPost(FlowPaths.modelDeploy, undefined, {
        params: { modelId: model.id, ...deployParams(values) },
        silent: true,
      });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      throw failure;
    }
  };

  return (
    <ActionDialog
      open
      title={`${text.title}: ${model.name}`}
      onSave={save}
      onClose={onClose}
      saveTestId="flow-deploy-save"
      forceRender
    >
      <Form form={form} layout="vertical">
        <DeployFields />
      </Form>
      {problems ? (
        <Alert
          type="error"
          showIcon
          data-testid="flow-deploy-problems"
          message={problems.heading}
          description={problems.problems.join('\n') || undefined}
          style={{ whiteSpace: 'pre-line' }}
        />
      ) : null}
    </ActionDialog>
  );
}
