import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { WARNING_HANDLE_PATH, type WarningHandleBody } from '@mes/contracts';
import { apiPost } from '../../../api/server-state';
import { ActionDialog } from '../../../engine/action-dialog';

const MAX_RESULT = 500;

export interface HandleDialogProps {
  /** The warnings to handle; empty: closed. */
  ids: string[];
  onClose(changed: boolean): void;
}

/** 处理: the result (required, up to 500 characters) acknowledges the warnings through `handle`. */
export function HandleDialog({ ids, onClose }: HandleDialogProps) {
  const { t } = useTranslation('warning');
  const [form] = Form.useForm<{ result: string }>();
  const save = async () => {
    const { result } = await form.validateFields();
    const body: WarningHandleBody = { ids: ids.join(','), result: result.trim() };
    await apiPost(WARNING_HANDLE_PATH, body);
  };
  return (
    <ActionDialog
      open={ids.length > 0}
      title={t('handleTitle')}
      width={520}
      onSave={save}
      onClose={(changed) => {
        form.resetFields();
        onClose(changed);
      }}
      saveTestId="warning-handle-save"
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="warning-handle-form">
        {ids.length > 1 && <Typography.Paragraph>{t('handleCount', { count: ids.length })}</Typography.Paragraph>}
        <Form.Item
          name="result"
          label={t('result')}
          rules={[
            { required: true, whitespace: true, message: t('resultRequired') },
            { max: MAX_RESULT, message: t('resultMax') },
          ]}
        >
          <Input.TextArea
            rows={4}
            maxLength={MAX_RESULT}
            showCount
            placeholder={t('resultPlaceholder')}
            data-testid="warning-handle-result"
          />
        </Form.Item>
      </Form>
    </ActionDialog>
  );
}
