import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { PasswordForm } from './password-form';
import { PersonalInfoForm } from './personal-info-form';
import './info.css';

/** The profile screen (/info/index): personal info and change password. */
export default function Profile() {
  const { t } = useTranslation('profile');
  return (
    <Card className="mes-profile" data-testid="profile-page">
      <Tabs
        items={[
          { key: 'info', label: t('infoTab'), children: <PersonalInfoForm /> },
          { key: 'password', label: t('passwordTab'), children: <PasswordForm /> },
        ]}
      />
    </Card>
  );
}
