import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function ErrorResult({ status, title }: { status: '403' | '404' | '500'; title: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={status}
      title={status}
      subTitle={t(title)}
      extra={
        <Button type="primary" onClick={() => void navigate('/')}>
          {t('backHome')}
        </Button>
      }
    />
  );
}
