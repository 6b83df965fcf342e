import { App, Modal, type ButtonProps, type ModalProps } from 'antd';
import { DialogBody } from './dialog-body';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useScreenSize } from './use-screen-size';

/** Below 768 px (screen class 0) a dialog takes the whole width from the top of the screen. */
const PHONE_DIALOG: Pick<ModalProps, 'width' | 'style'> = {
  width: '100%',
  style: { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 },
};

/**
 * The size of a dialog for the current screen: its own width, or the whole screen on a phone
 * (where the content also goes single column).
 */
export function useDialogSize(width: number): { phone: boolean } & Pick<ModalProps, 'width' | 'style'> {
  const phone = useScreenSize() === 0;
  return phone ? { phone, ...PHONE_DIALOG } : { phone, width };
}

export interface ActionDialogProps {
  open: boolean;
  title: ReactNode;
  width?: number;
  /**
   * Validates and saves. A rejection keeps the dialog open: form validation shows its messages
   * beside the fields, and the HTTP client has already toasted a server error.
   */
  onSave(): Promise<void>;
  onClose(changed: boolean): void;
  /** `data-testid` of the save button. */
  saveTestId?: string;
  /** Save stays disabled (content still loading). */
  saveDisabled?: boolean;
  /** Keep the content mounted while closed (a Form instance must stay connected). */
  forceRender?: boolean;
  children: ReactNode;
}

/**
 * The dialog of a screen's own action (grant roles, tenant settings, ...): save with a busy
 * button, 操作成功 on success, closed with `changed` so the screen reloads only when needed.
 */
export function ActionDialog({
  open,
  title,
  width = 480,
  onSave,
  onClose,
  saveTestId,
  saveDisabled,
  forceRender,
  children,
}: ActionDialogProps) {
  const { t } = useTranslation('crud');
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const size = useDialogSize(width);

  const save = async () => {
    setSaving(true);
    try {
      await onSave();
      void message.success(t('done'));
      onClose(true);
    } catch {
      // shown already: field messages or the HTTP client's toast
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={size.width}
      style={size.style}
      forceRender={forceRender}
      destroyOnHidden={!forceRender}
      confirmLoading={saving}
      okText={t('ok')}
      cancelText={t('cancel')}
      onOk={() => void save()}
      onCancel={() => onClose(false)}
      okButtonProps={{ disabled: saveDisabled, ...(saveTestId ? { 'data-testid': saveTestId } : {}) } as ButtonProps}
    >
      <DialogBody ready={open} onSubmit={saveDisabled ? undefined : () => void save()}>
        {children}
      </DialogBody>
    </Modal>
  );
}
