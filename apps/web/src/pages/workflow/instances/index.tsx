import { App, Button, Form, Input, Modal, Tag, type ButtonProps } from 'antd';
import { useCallback, useState } from 'react';
import { buttonCodes, flowInstanceResource, FlowPaths } from '@mes/contracts';
import { apiPostReply } from '../../../api/server-state';
import { ResourcePage } from '../../../engine/resource-page';
import type { ExtraColumn, ResourcePageContext, Row } from '../../../engine/resource-page-types';
import { useLang } from '../bpmn/deploy-fields';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('workflowInstances');
type Text = (typeof TEXT)['zh'];
// Running instances: the definition's id and an end time say nothing here; the current tasks do.
const OVERRIDES = { processDefinitionId: { list: false }, endTime: { list: false } };

interface CurrentTask {
  taskId: string;
  taskName: string;
  assigneeName?: string | null;
  candidateGroups?: string | null;
}

const tasksColumn = (text: Text): ExtraColumn => ({
  key: 'currentTasks',
  title: text.tasks,
  width: 260,
  render: (row) =>
    ((row.currentTasks as CurrentTask[] | undefined) ?? []).map((t) => (
      <Tag key={t.taskId} data-testid="flow-follow-task">
        {t.taskName} · {t.assigneeName || `${text.unassigned}${t.candidateGroups ? ` (${t.candidateGroups})` : ''}`}
      </Tag>
    )),
});

/** 删除: ends the instance with a reason the history keeps; the reason is required. */
function DeleteDialog({ row, text, onClose }: { row: Row; text: Text; onClose(changed: boolean): void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    const { reason } = await form.validateFields();
    setBusy(true);
    try {
      const answer = await apiPostReply(FlowPaths.followDelete, undefined, {
        params: { processInstanceId: row.id, deleteReason: reason.trim() },
      });
      void message.success(answer.msg);
      onClose(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`${text.removeTitle}: ${String(row.processDefinitionName ?? '')}`}
      okText={text.ok}
      cancelText={text.cancel}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'flow-follow-remove-ok' } as ButtonProps}
      onOk={() => void remove().catch(() => undefined)}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={text.reason}
          rules={[{ required: true, whitespace: true, message: text.reasonRequired }]}
        >
          <Input.TextArea rows={3} maxLength={500} data-testid="flow-follow-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * 流程跟踪: the running instances (the generic list of the follow route) with their current tasks
 * and who holds them, and 删除 with a required reason.
 */
export default function FollowScreen() {
  const text = TEXT[useLang()];
  const [removing, setRemoving] = useState<{ row: Row; ctx: ResourcePageContext } | null>(null);
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      ctx.can(buttonCodes.flowFollow.remove) && row.flowStatus === 1 ? (
        <Button
          type="link"
          size="small"
          danger
          onClick={() => setRemoving({ row, ctx })}
          data-testid="flow-follow-remove"
        >
          {text.remove}
        </Button>
      ) : null,
    [text],
  );
  return (
    <div data-testid="flow-follow-screen">
      <ResourcePage
        resource={flowInstanceResource}
        extraColumns={[tasksColumn(text)]}
        rowActions={rowActions}
        fieldOverrides={OVERRIDES}
      />
      {removing ? (
        <DeleteDialog
          row={removing.row}
          text={text}
          onClose={(changed) => {
            if (changed) removing.ctx.reload();
            setRemoving(null);
          }}
        />
      ) : null}
    </div>
  );
}
