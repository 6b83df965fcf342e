import { Alert, App, Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { updatePassword } from './profile-api';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

/** The change-password tab. */
export function PasswordForm() {
  const { t } = useTranslation('profile');
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');

  const save = async (values: PasswordForm) => {
    setSaving(true);
    setError('');
    try {
      await updatePassword(values.oldPassword, values.newPassword, values.newPassword1);
      void message.success(t('saved'));
      form.resetFields();
    } catch (e) {
      // The client toasts it too; inline it stays readable next to the fields.
      setError(e instanceof ApiError && e.message ? e.message : t('common:unknownError'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<PasswordForm>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '110px' }}
      wrapperCol={{ flex: 'auto' }}
      className="mes-profile-form"
      onFinish={save}
      data-testid="password-form"
    >
      {error && (
        <Alert type="error" showIcon message={error} className="mes-profile-alert" data-testid="password-error" />
      )}
      <Form.Item
        name="oldPassword"
        label={t('oldPassword')}
        rules={[{ required: true, message: t('oldPasswordRequired') }]}
      >
        <Input.Password autoComplete="current-password" data-testid="password-old" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('newPassword')}
        rules={[{ required: true, message: t('newPasswordRequired') }]}
      >
        <Input.Password autoComplete="new-password" data-testid="password-new" />
      </Form.Item>
      <Form.Item
        name="newPassword1"
        label={t('newPassword1')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('newPassword1Required') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || value === getFieldValue('newPassword')
                ? Promise.resolve()
                : Promise.reject(new Error(t('passwordMismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="password-confirm" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="password-submit">
            {t('common:submit')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              setError('');
            }}
          >
            {t('common:reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
