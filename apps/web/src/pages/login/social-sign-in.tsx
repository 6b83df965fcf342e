import { lazy, Suspense } from 'react';

// Loaded when the tab is first opened, like the QR panel.
const SocialPanel = lazy(() => import('./social-panel'));

/** The 第三方账号 panel of the sign-in page. */
export function SocialSignIn() {
  return (
    <Suspense fallback={null}>
      <SocialPanel />
    </Suspense>
  );
}
