import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export default function Dashboard() {
  const { t } = useTranslation();
  return <Typography.Title level={4}>{t('console')}</Typography.Title>;
}
