import { useTranslation } from 'react-i18next';

/** Shown by a sign-in method the server has not been set up for. */
export function NotConfigured() {
  const { t } = useTranslation('login');
  return (
    <div className="mes-login-info" role="status" data-testid="method-not-configured">
      {t('notConfigured')}
    </div>
  );
}
