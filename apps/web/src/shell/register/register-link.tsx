import { Button } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRegistrationOpen } from '../../api/register';

// The dialog (antd Form and Modal) loads on the first click, keeping it out of /login's first load.
const RegisterDialog = lazy(() => import('./register-dialog'));

/**
 * The 注册账号 link of the sign-in page and its 账号注册 dialog. Shown only while the platform has
 * guest registration on (param `account.registerUser`, off by default); the server refuses a
 * registration when it is off whatever the page shows.
 */
export function RegisterLink() {
  const { t } = useTranslation('register');
  const [enabled, setEnabled] = useState(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let live = true;
    void fetchRegistrationOpen().then((on) => live && setEnabled(on));
    return () => {
      live = false;
    };
  }, []);

  if (!enabled) return null;
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
