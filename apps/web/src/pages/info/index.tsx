import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export default function Profile() {
  const { t } = useTranslation();
  return <Typography.Title level={4}>{t('info')}</Typography.Title>;
}
