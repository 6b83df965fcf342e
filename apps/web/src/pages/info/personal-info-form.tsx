import { App, Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userResource } from '@mes/contracts';
import { fetchUserInfo } from '../../api/auth';
import { settled, useApiRead, useApiWrite, useSeedOnce } from '../../api/use-api';
import { useSession } from '../../session/session-store';
import { AvatarUpload } from './avatar-upload';
import { PROFILE_ROUTE, updateProfile, type UserProfile } from './profile-api';
import { phoneProblem } from './profile-rules';

const EMPTY: UserProfile = { avatar: '', name: '', realName: '', phone: '', email: '' };
const pick = (p: Partial<UserProfile>): UserProfile => ({
  avatar: p.avatar ?? '',
  name: p.name ?? '',
  realName: p.realName ?? '',
  phone: p.phone ?? '',
  email: p.email ?? '',
});

/** The personal-info tab: avatar, nickname, real name, phone and email. */
export function PersonalInfoForm() {
  const { t } = useTranslation('profile');
  const { message } = App.useApp();
  const [form] = Form.useForm<UserProfile>();
  const read = useApiRead<Partial<UserProfile>, UserProfile>(PROFILE_ROUTE, undefined, { select: pick });
  // The stored profile (a failed read was toasted; the form stays empty); the form takes it
  // once no newer copy is on its way.
  const loaded = read.data ?? EMPTY;
  const stored = settled(read);
  const loading = read.isPending && !read.isError;
  const [saving, setSaving] = useState(false);
  // The user's rows (this profile, the user table's names) change with it.
  const saveProfile = useApiWrite(updateProfile, [userResource.api]);

  useSeedOnce(stored, (profile) => form.setFieldsValue(profile));

  const save = async (values: UserProfile) => {
    setSaving(true);
    try {
      await saveProfile(pick(values));
      void message.success(t('saved'));
      useSession.getState().setUserInfo(await fetchUserInfo());
    } catch {
      // The client has already shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  const maxRule = (max: number) => ({ max, message: t('tooLong', { max }) });

  return (
    <Form<UserProfile>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '110px' }}
      wrapperCol={{ flex: 'auto' }}
      className="mes-profile-form"
      initialValues={EMPTY}
      onFinish={save}
      disabled={loading}
      data-testid="profile-form"
    >
      <Form.Item name="avatar" label={t('avatar')}>
        <AvatarUpload />
      </Form.Item>
      <Form.Item name="name" label={t('name')} rules={[maxRule(20)]}>
        <Input data-testid="profile-name" />
      </Form.Item>
      <Form.Item name="realName" label={t('realName')} rules={[maxRule(10)]}>
        <Input data-testid="profile-real-name" />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('phone')}
        required
        validateTrigger="onBlur"
        rules={[
          {
            validator: (_rule, value: string | undefined) => {
              const problem = phoneProblem(value);
              return problem ? Promise.reject(new Error(t(problem))) : Promise.resolve();
            },
          },
        ]}
      >
        <Input data-testid="profile-phone" />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('email')}
        validateTrigger="onBlur"
        rules={[{ type: 'email', message: t('emailFormat') }, maxRule(45)]}
      >
        <Input data-testid="profile-email" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-submit">
            {t('common:submit')}
          </Button>
          <Button onClick={() => form.setFieldsValue(loaded)}>{t('common:reset')}</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
