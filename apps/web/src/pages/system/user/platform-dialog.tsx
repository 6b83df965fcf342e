import { Form, Input, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { userResource, type DictEntry } from '@mes/contracts';
import { settled, useApiRead, useApiWrite } from '../../../api/use-api';
import { ActionDialog } from '../../../engine/action-dialog';
import type { Row } from '../../../engine/resource-page-types';
import { DICT_ROUTE } from '../../../engine/use-field-options';
import { PLATFORM_DETAIL_ROUTE, updatePlatform, type PlatformAnswer, type PlatformSettings } from './user-api';

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
  // The same cache entry as the user table's 用户平台 labels: fetched once for both.
  const types = useApiRead<DictEntry[] | null>(DICT_ROUTE, { code: 'user_type' }, { enabled: !!user });
  const detailRead = useApiRead<PlatformAnswer>(
    PLATFORM_DETAIL_ROUTE,
    { id: user?.id },
    { enabled: !!user, silent: true },
  );
  const detail = settled(detailRead);
  const save = useApiWrite(async () => {
    if (!user) return;
    const values = await form.validateFields();
    await updatePlatform(user.id, { userType: values.userType, userExt: values.userExt ?? '' });
  }, [userResource.api]);

  // The row's values first; the stored settings, once read, replace them.
  useEffect(() => {
    if (!user) return;
    form.setFieldsValue({ userType: Number(user.userType ?? 1), userExt: String(user.userExt ?? '') });
  }, [user, form]);
  useEffect(() => {
    if (user && detail)
      form.setFieldsValue({ userType: Number(detail.userType ?? user.userType ?? 1), userExt: detail.userExt ?? '' });
  }, [user, detail, form]);

  return (
    <ActionDialog
      open={!!user}
      title={t('userPlatform')}
      width={560}
      forceRender
      onSave={() => save(undefined)}
      onClose={onClose}
      saveTestId="user-platform-save"
    >
      <Form form={form} layout="vertical" data-testid="user-platform-form">
        <Form.Item name="userType" label={t('userType')} rules={[{ required: true, message: t('userTypeRequired') }]}>
          <Select options={(types.data ?? []).map((d) => ({ value: Number(d.dictKey), label: d.dictValue }))} />
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
