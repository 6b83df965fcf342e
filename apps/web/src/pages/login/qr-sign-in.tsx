import { lazy, Suspense } from 'react';

// The panel (polling, countdown, QR image) loads when its tab is first opened: /login's first
// load stays within its budget.
const QrPanel = lazy(() => import('./qr-panel'));

/** The 扫码登录 panel of the sign-in page. */
export function QrSignIn() {
  return (
    <Suspense fallback={null}>
      <QrPanel />
    </Suspense>
  );
}
