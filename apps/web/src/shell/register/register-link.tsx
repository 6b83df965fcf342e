import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The dialog (antd Form and Modal) loads on the first click, keeping it out of /login's first load.
const RegisterDialog = lazy(() => import('./register-dialog'));

/** The 注册账号 link of the sign-in page and its 账号注册 dialog. */
export function RegisterLink() {
  const { t } = useTranslation('register');
  const [open, setOpen] = useState(false);
  return (
    <div style={{ textAlign: 'right', marginTop: 12 }}>
      <Button type="link" size="small" onClick={() => setOpen(true)} data-testid="register-link">
        {t('link')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <RegisterDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
