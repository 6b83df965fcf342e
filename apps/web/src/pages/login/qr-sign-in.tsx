import { NotConfigured } from './not-configured';

/** The qr sign-in panel of the sign-in page. */
export function QrSignIn() {
  return <NotConfigured />;
}
