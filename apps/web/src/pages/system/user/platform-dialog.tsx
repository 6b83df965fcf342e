import { Form, Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionDialog } from '../../../crud/action-dialog';
import type { DictEntry } from '@mes/contracts';
import type { Row } from '../../../crud/resource-page-types';
import { fetchDict, fetchPlatform, updatePlatform, type PlatformSettings } from './user-api';

interface PlatformDialogProps {
  /** The user whose platform is edited; the dialog is open while this is set. */
  user: Row | null;
  onClose(changed: boolean): void;
}

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** 平台配置: the user's platform (dictionary `user_type`) and the JSON that platform needs. */
export function PlatformDialog({ user, onClose }: PlatformDialogProps) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<PlatformSettings>();
  const [types, setTypes] = useState<DictEntry[]>([]);

  useEffect(() => {
    if (!user) return;
    form.setFieldsValue({ userType: Number(user.userType ?? 1), userExt: String(user.userExt ?? '') });
    void fetchDict('user_type').then(setTypes);
    void fetchPlatform(user.id).then((p) => {
      if (p) form.setFieldsValue({ userType: Number(p.userType ?? user.userType ?? 1), userExt: p.userExt ?? '' });
    });
  }, [user, form]);

  const save = async () => {
    if (!user) return;
    const values = await form.validateFields();
    await updatePlatform(user.id, { userType: values.userType, userExt: values.userExt ?? '' });
  };

  return (
    <ActionDialog
      open={!!user}
      title={t('userPlatform')}
      width={560}
      forceRender
      onSave={save}
      onClose={onClose}
      saveTestId="user-platform-save"
    >
      <Form form={form} layout="vertical" data-testid="user-platform-form">
        <Form.Item name="userType" label={t('userType')} rules={[{ required: true, message: t('userTypeRequired') }]}>
          <Select options={types.map((d) => ({ value: Number(d.dictKey), label: d.dictValue }))} />
        </Form.Item>
        <Form.Item
          name="userExt"
          label={t('userExt')}
          rules={[
            {
              validator: (_, v: string) =>
                !v || isJson(v) ? Promise.resolve() : Promise.reject(new Error(t('userExtInvalid'))),
            },
          ]}
        >
          <Input.TextArea rows={6} placeholder='{"key": "value"}' />
        </Form.Item>
      </Form>
    </ActionDialog>
  );
}
