import { Alert, App, Button, Form, Modal, Spin, Upload, type UploadFile } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { buttonCodes, flowDefinitionResource, FlowPaths, FlowSuspension } from '@mes/contracts';
import { apiPostReply, apiQuery } from '../../../api/server-state';
import { ActionDialog } from '../../../engine/action-dialog';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { DeployFields, deployParams, useLang, type DeployValues } from '../bpmn/deploy-fields';
import { modelProblems } from '../bpmn/problems';
import { pageTexts } from '../../../i18n/page-texts';

const DiagramViewer = lazy(() => import('../bpmn/diagram-viewer'));

/** The definition's XML for the viewer (any signed-in user of the tenant; docs/workflow.md). */
const RESOURCE_VIEW = FlowPaths.resourceView;

const TEXT = pageTexts('workflowDeployments');
type Text = (typeof TEXT)['zh'];

interface ResourceView {
  id: string;
  key: string;
  name: string;
  version: number;
  xml: string;
}

/** 部署: a multipart upload of BPMN files with the category and tenants, all or nothing. */
function UploadDialog({ text, onClose }: { text: Text; onClose(changed: boolean): void }) {
  const [form] = Form.useForm<DeployValues & { files?: UploadFile[] }>();
  const [error, setError] = useState<string | null>(null);
  const problems = error === null ? null : modelProblems(error);

  const save = async () => {
    const values = await form.validateFields();
    const data = new FormData();
    const params = deployParams(values);
    data.append('category', params.category);
    data.append('tenantIds', params.tenantIds);
    for (const file of values.files ?? []) if (file.originFileObj) data.append('files', file.originFileObj, file.name);
    setError(null);
    try {
      await apiPostReply(FlowPaths.managerDeployUpload, data, { silent: true });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      throw failure;
    }
  };

  return (
    <ActionDialog
      open
      title={text.uploadTitle}
      onSave={save}
      onClose={onClose}
      saveTestId="flow-upload-save"
      forceRender
    >
      <Form form={form} layout="vertical">
        <DeployFields />
        <Form.Item
          name="files"
          label={text.files}
          valuePropName="fileList"
          getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList}
          rules={[{ required: true, message: text.filesRequired }]}
        >
          <Upload multiple accept=".bpmn,.xml" beforeUpload={() => false} data-testid="flow-upload-files">
            <Button>{text.choose}</Button>
          </Upload>
        </Form.Item>
      </Form>
      {problems ? (
        <Alert
          type="error"
          showIcon
          data-testid="flow-upload-problems"
          message={problems.heading}
          description={problems.problems.join('\n') || undefined}
          style={{ whiteSpace: 'pre-line' }}
        />
      ) : null}
    </ActionDialog>
  );
}

/** 流程图: the deployed definition drawn by bpmn-js's viewer, loaded only when opened. */
function DiagramDialog({ row, text, onClose }: { row: Row; text: Text; onClose(): void }) {
  const { data: view } = useQuery(apiQuery<ResourceView>(RESOURCE_VIEW, { processDefinitionId: row.id }));
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal
      open
      width="80vw"
      footer={null}
      onCancel={onClose}
      title={view ? `${view.name} (${view.key} v${String(view.version)})` : text.diagram}
      destroyOnHidden
    >
      {error ? <Alert type="error" showIcon message={text.viewerFailed} description={error} /> : null}
      {view ? (
        <Suspense fallback={<Spin />}>
          <DiagramViewer xml={view.xml} onError={setError} />
        </Suspense>
      ) : (
        <Spin />
      )}
    </Modal>
  );
}

/**
 * 流程管理: the deployed definitions (the generic list), with 流程图, 挂起 / 激活, 删除 (the whole
 * deployment) per row and 部署 (upload) in the toolbar.
 */
export default function ManagerScreen() {
  const text = TEXT[useLang()];
  const { message, modal } = App.useApp();
  const [uploading, setUploading] = useState(false);
  const [viewing, setViewing] = useState<Row | null>(null);
  const reload = useRef<() => void>(() => undefined);

  const confirmPost = useCallback(
    (content: string, url: string, params: Record<string, string>, ctx: ResourcePageContext) =>
      modal.confirm({
        title: text.tip,
        content,
        okText: text.ok,
        cancelText: text.cancel,
        // A refusal: the HTTP client has shown the server's message.
        onOk: () =>
          apiPostReply(url, undefined, { params })
            .then((answer) => {
              void message.success(answer.msg);
              ctx.reload();
            })
            .catch(() => undefined),
      }),
    [modal, message, text],
  );

  const toolbar = useCallback(
    (ctx: ResourcePageContext) => {
      reload.current = ctx.reload;
      return ctx.can(buttonCodes.flowManager.upload) ? (
        <Button type="primary" onClick={() => setUploading(true)} data-testid="flow-upload">
          {text.upload}
        </Button>
      ) : null;
    },
    [text],
  );

  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) => {
      const suspended = row.suspensionState === FlowSuspension.suspended;
      return (
        <>
          <Button type="link" size="small" onClick={() => setViewing(row)} data-testid="flow-manager-diagram">
            {text.diagram}
          </Button>
          {ctx.can(buttonCodes.flowManager.state) ? (
            <Button
              type="link"
              size="small"
              data-testid={suspended ? 'flow-manager-activate' : 'flow-manager-suspend'}
              onClick={() =>
                confirmPost(
                  suspended ? text.confirmActivate : text.confirmSuspend,
                  FlowPaths.managerChangeState,
                  { processId: row.id, state: suspended ? 'active' : 'suspend' },
                  ctx,
                )
              }
            >
              {suspended ? text.activate : text.suspend}
            </Button>
          ) : null}
          {ctx.can(buttonCodes.flowManager.remove) ? (
            <Button
              type="link"
              size="small"
              danger
              data-testid="flow-manager-remove"
              onClick={() =>
                confirmPost(
                  text.confirmRemove,
                  FlowPaths.managerDeleteDeployment,
                  { deploymentIds: String(row.deploymentId) },
                  ctx,
                )
              }
            >
              {text.remove}
            </Button>
          ) : null}
        </>
      );
    },
    [text, confirmPost],
  );

  return (
    <div data-testid="flow-manager-screen">
      <ResourcePage resource={flowDefinitionResource} toolbar={toolbar} rowActions={rowActions} />
      {uploading ? (
        <UploadDialog
          text={text}
          onClose={(changed) => {
            setUploading(false);
            if (changed) reload.current();
          }}
        />
      ) : null}
      {viewing ? <DiagramDialog row={viewing} text={text} onClose={() => setViewing(null)} /> : null}
    </div>
  );
}
